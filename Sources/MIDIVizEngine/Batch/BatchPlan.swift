import Crypto
import Foundation
import MIDIVizIO

/// One song of a batch: its file, its video under the output folder, named from the file's
/// path relative to the folder it was found in (a file given by itself: its name), and the
/// options it is rendered with.
public struct BatchSong: Sendable, Equatable {
    public var input: String
    /// The input's path relative to its root (a manifest line: its `input` as written): the
    /// song's name in reports.
    public var relativePath: String
    public var output: String
    /// The batch's options, or a manifest line's over them.
    public var options: RenderOptions
    /// Why the input cannot be read, found while planning (a subfolder we may not read): the
    /// song fails with this, and the batch goes on.
    public var problem: String?

    public init(input: String, relativePath: String, output: String, options: RenderOptions, problem: String? = nil) {
        self.input = input
        self.relativePath = relativePath
        self.output = output
        self.options = options
        self.problem = problem
    }
}

/// What a batch renders: its inputs (song files, folders searched recursively, `.jsonl`
/// manifests) made into songs, each with its output and options, in a stable order. Made
/// before any work, and refused whole when an input is missing, a manifest line is bad or two
/// songs would be written to one output.
public struct BatchPlan: Sendable {
    public var songs: [BatchSong]
    /// The options of songs without their own.
    public var options: RenderOptions
    public var outputDirectory: String
    /// The manifests among the inputs (no report may replace one).
    public var manifests: [String]
    /// The share of the songs this plan holds, when sharded.
    public var shard: BatchShard?
    /// What the whole plan is, before any share is taken: SHA-256 of its songs (names, outputs
    /// and the options that shape them) as hex. Every machine's share of one batch has the
    /// same; reports carry it, so that merging refuses shards of different batches.
    public let identity: String

    /// The extensions of songs in a folder (any case): MIDI files and scores. A `.xml` score is
    /// rendered when named, but not looked for in folders, where most `.xml` files are no score.
    public static let songExtensions: Set<String> = ["mid", "midi", "kar", "rmi", "musicxml", "mxl", "mscz", "mscx"]

    public init(songs: [BatchSong], options: RenderOptions, outputDirectory: String, manifests: [String] = [], shard: BatchShard? = nil) {
        self.songs = songs
        self.options = options
        self.outputDirectory = outputDirectory
        self.manifests = manifests
        self.shard = shard
        var hasher = SHA256()
        for song in songs {
            let texts = song.options.shapingTexts().sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.joined(separator: "\u{1F}"))" }
            for field in [song.relativePath, song.output, song.problem ?? ""] + texts { hasher.update(data: Data((field + "\u{1E}").utf8)) }
            hasher.update(data: Data("\u{1D}".utf8))
        }
        identity = FileDigest.hex(hasher.finalize())
    }

    /// The songs of `inputs` into `outputDirectory` with `options` (a manifest line's over them).
    /// - Parameter configFiles: the config files the options came from (no video or record may be one).
    public static func make(
        inputs: [String], outputDirectory: String, options: RenderOptions, configFiles: [String] = []
    ) throws(BatchError) -> BatchPlan {
        let files = FileManager.default
        var isFolder: ObjCBool = false
        if files.fileExists(atPath: outputDirectory, isDirectory: &isFolder), !isFolder.boolValue {
            throw .cannotWrite("cannot write into the output folder \(outputDirectory): it is not a folder")
        }
        // A folder to be made must be makeable: the nearest existing parent is a folder.
        var parent = OutputChecks.absolute(outputDirectory)
        while !files.fileExists(atPath: parent) && parent != "/" {
            // A link to nothing (or a loop of links) is there already: no folder is made through it.
            if (try? files.destinationOfSymbolicLink(atPath: parent)) != nil {
                throw .cannotWrite("cannot create the output folder \(outputDirectory): \(parent) is a link to nothing")
            }
            parent = PathParts(parent).folder
        }
        if files.fileExists(atPath: parent, isDirectory: &isFolder), !isFolder.boolValue {
            throw .cannotWrite("cannot create the output folder \(outputDirectory): \(parent) is not a folder")
        }
        var songs: [BatchSong] = []
        var manifests: [String] = []
        for input in inputs {
            guard files.fileExists(atPath: input, isDirectory: &isFolder) else {
                throw .missingInput("\(input): no such file or folder\(LoadError.notUTF8Hint(input))")
            }
            if !isFolder.boolValue && BatchManifest.isManifest(input) {
                songs += try BatchManifest.songs(input, outputDirectory: outputDirectory, base: options)
                manifests.append(input)
            } else if isFolder.boolValue {
                songs += try folderSongs(input, outputDirectory: outputDirectory, options: options)
            } else {
                let name = URL(fileURLWithPath: input).lastPathComponent
                songs.append(BatchSong(input: input, relativePath: name, output: outputPath(for: name, in: outputDirectory), options: options))
            }
        }
        let plan = BatchPlan(songs: songs, options: options, outputDirectory: outputDirectory, manifests: manifests)
        try plan.checkOutputsAreDistinct()
        guard !songs.isEmpty else { throw .usage("no songs (.mid, .midi, .kar, .rmi, .musicxml, .mxl, .mscz, .mscx) in \(inputs.joined(separator: ", "))") }
        try plan.checkOutputs(configFiles: configFiles)
        return plan
    }

    /// Refuses two songs written to one video or record (however the path is spelled:
    /// `./a.mp4`, `x//a.mp4`), or a video or record inside a folder another one's name takes
    /// (`x.mp4/y.mp4` beside `x.mp4`). `make` checks it, and `BatchJob.run` for a plan made by hand.
    public func checkOutputsAreDistinct() throws(BatchError) {
        var written: [String: (input: String, isRecord: Bool)] = [:]
        for song in songs where song.problem == nil {
            for (path, isRecord) in [(song.output, false), (BatchRecord.path(of: song.output), true)] {
                let key = OutputChecks.absolute(path)
                if let other = written[key] {
                    if !other.isRecord && !isRecord {
                        // The same song twice (a folder or file given twice, or both): say so.
                        if OutputChecks.absolute(other.input) == OutputChecks.absolute(song.input) {
                            throw .usage("\(song.input) is given twice, both to be written to \(song.output)")
                        }
                        throw .usage("\(other.input) and \(song.input) would both be written to \(song.output)")
                    }
                    throw .usage("refusing to write \(path) for \(song.input): it is the \(other.isRecord ? "record" : "video") of \(other.input)")
                }
                written[key] = (song.input, isRecord)
            }
        }
        // No video or record lies in a folder another one's name would take (`x.mp4/y.mp4` beside
        // `x.mp4`): the second song would fail once the first had made its file.
        for key in written.keys.sorted() {
            let song = written[key]!
            var folder = PathParts(key).folder
            while folder != "/" && !folder.isEmpty && folder != "." {
                if let other = written[folder] {
                    throw .usage(
                        "refusing to write \(PathParts(key).name) for \(song.input) inside \(folder): it is the \(other.isRecord ? "record" : "video") of \(other.input)"
                    )
                }
                folder = PathParts(folder).folder
            }
        }
    }

    /// Refuses a song whose video or record would lie outside the output folder (through `..`,
    /// an absolute name, a symbolic link to a folder elsewhere, or one that is itself a link
    /// elsewhere), be through a link another song's video or record, or replace a file the
    /// batch reads (a song, a manifest, a SoundFont, font or background image or video).
    private func checkOutputs(configFiles: [String]) throws(BatchError) {
        let reads = ReadFiles(readsOf: self, configFiles: configFiles)
        let folder = OutputChecks.absolute(outputDirectory.isEmpty ? "." : outputDirectory)
        let realFolder = PathParts.realPath(ofDeepestExisting: PathParts.fromWorkingFolder(outputDirectory.isEmpty ? "." : outputDirectory))
        // Where each video and record leads, and which of them leads there first.
        var leadingThere: [String: String] = [:]
        for song in songs where song.problem == nil {
            let inside = OutputChecks.absolute(song.output)  // `..` resolved as text
            guard inside.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/") else {
                throw .usage("refusing to write \(song.output) for \(song.relativePath): it is outside the output folder \(outputDirectory)")
            }
            // A video or record that is itself a link is written through (`StagedOutput`): where it leads counts.
            for written in [song.output, BatchRecord.path(of: song.output)] {
                let resolved = PathParts.realPath(followingLinksOf: PathParts.fromWorkingFolder(written))
                guard resolved.hasPrefix(realFolder == "/" ? "/" : realFolder + "/") else {
                    throw .usage(
                        "refusing to write \(written) for \(song.relativePath): a link takes it outside the output folder, to \(PathParts(resolved).folder)")
                }
                if let what = reads.what(written) ?? reads.what(resolved) { throw .usage("refusing to write \(written): it is the \(what)") }
                if let other = leadingThere[resolved] {
                    throw .usage("refusing to write \(written) for \(song.relativePath): a link makes it the same file as \(other)")
                }
                leadingThere[resolved] = written
            }
            guard let container = VideoContainer(outputPath: song.output) else {
                throw .usage("cannot write \(song.output) for \(song.relativePath): a batch writes \(VideoContainer.names) (by the extension)")
            }
            // Refused before any work, not song by song: a folder's songs all go to .mp4.
            if song.options.background == .transparent, !container.carriesAlpha {
                throw .usage(
                    "cannot write \(song.output) for \(song.relativePath) with a transparent background: H.264 in MP4 has no alpha; "
                        + "a manifest's \"output\" can name .mov (ProRes 4444), .webm (VP9) or .gif")
            }
        }
    }

    /// The songs under `folder`, by their paths in it, sorted. A song that is a broken link is
    /// a song (it fails, naming the link); a subfolder that cannot be read, and a song or folder
    /// whose name is not UTF-8 (named by its escaped bytes: no path to it can be given), are
    /// failed inputs. A link to a folder inside `folder` is not followed (the folder is searched
    /// where it is); one to a folder elsewhere is, each folder searched once, under the first
    /// name in order that reaches it; one to a folder holding `folder` or the link (a loop) is a
    /// failed input.
    private static func folderSongs(_ folder: String, outputDirectory: String, options: RenderOptions) throws(BatchError) -> [BatchSong] {
        let root = URL(fileURLWithPath: folder).standardizedFileURL.path
        if let problem = unreadableFolder(root) { throw .usage("\(folder): cannot read the folder: \(problem)") }
        let realRoot = PathParts.realPath(ofDeepestExisting: root)
        /// Whether `real` is `ancestor` or lies inside it.
        func isWithin(_ real: String, _ ancestor: String) -> Bool { real == ancestor || real.hasPrefix(ancestor == "/" ? "/" : ancestor + "/") }
        var found: [String] = []
        var failed: [(relative: String, problem: String)] = []
        var pending = [""]
        // The folders searched, by device and inode: each once, however many links reach it.
        var searched: Set<FileIdentity> = []
        while let relative = pending.popLast() {
            let path = relative.isEmpty ? root : root + "/" + relative
            guard let identity = FileIdentity(path: path), searched.insert(identity).inserted else { continue }
            if let problem = unreadableFolder(path) {
                failed.append((relative + "/", "cannot read the folder \(path): \(problem)"))
                continue
            }
            lazy var realPath = PathParts.realPath(ofDeepestExisting: path)
            for entry in entries(of: path) {
                let isSong = songExtensions.contains(URL(fileURLWithPath: entry.name).pathExtension.lowercased())
                let child = relative.isEmpty ? entry.name : relative + "/" + entry.name
                let entryPath = entry.cPath(in: path)
                var status = stat()
                guard lstat(entryPath, &status) == 0 else {
                    if errno != ENOENT { failed.append((child, "cannot read \(path)/\(entry.name): \(systemError())")) }  // else gone since
                    continue
                }
                let isFolder = status.st_mode & S_IFMT == S_IFDIR
                var target = stat()
                let isLinkToFolder = status.st_mode & S_IFMT == S_IFLNK && stat(entryPath, &target) == 0 && target.st_mode & S_IFMT == S_IFDIR
                guard entry.isUTF8 else {
                    if isFolder || isLinkToFolder || isSong {
                        let name = (relative.isEmpty ? "" : relative + "/") + entry.escaped
                        failed.append((name + (isSong ? "" : "/"), "cannot read \(path)/\(entry.escaped): its name is not UTF-8: rename it"))
                    }
                    continue
                }
                if isFolder {
                    pending.append(child)
                } else if isLinkToFolder {
                    let real = PathParts.realPath(ofDeepestExisting: root + "/" + child)
                    if isWithin(real, realRoot) { continue }  // searched where it is
                    if isWithin(realRoot, real) || isWithin(realPath, real) {
                        failed.append((child + "/", "not following \(root)/\(child): it links to \(real), which holds it (a loop)"))
                        continue
                    }
                    pending.append(child)
                } else if isSong {
                    found.append(child)
                }
            }
        }
        let songs = found.sorted().map {
            BatchSong(input: root + "/" + $0, relativePath: $0, output: outputPath(for: $0, in: outputDirectory), options: options)
        }
        let failures = failed.sorted { $0.relative < $1.relative }.map {
            BatchSong(input: root + "/" + $0.relative, relativePath: $0.relative, output: "", options: options, problem: $0.problem)
        }
        return songs + failures
    }

    /// A folder's entry: its name as the bytes the kernel gave, and as text (U+FFFD for bytes
    /// that are not UTF-8).
    private struct FolderEntry {
        let bytes: [UInt8]
        let isUTF8: Bool
        var name: String { String(decoding: bytes, as: UTF8.self) }
        /// The name's bytes, escaped where they are not printable ASCII: `caf\xe9.mid`.
        var escaped: String {
            bytes.map { (0x20..<0x7F).contains($0) && $0 != UInt8(ascii: "\\") ? String(UnicodeScalar($0)) : String(format: "\\x%02x", $0) }.joined()
        }
        /// The entry's path in `folder` as a C string, from its bytes.
        func cPath(in folder: String) -> [CChar] {
            (Array(folder.utf8) + [UInt8(ascii: "/")] + bytes + [0]).map { CChar(bitPattern: $0) }
        }
    }

    /// The entries of the folder at `path`, but `.` and `..`, in a stable order (by their bytes).
    private static func entries(of path: String) -> [FolderEntry] {
        guard let handle = opendir(path) else { return [] }
        defer { closedir(handle) }
        var entries: [FolderEntry] = []
        while let entry = readdir(handle) {
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if bytes == Array(".".utf8) || bytes == Array("..".utf8) { continue }
            entries.append(FolderEntry(bytes: bytes, isUTF8: String(validating: bytes, as: UTF8.self) != nil))
        }
        // Reversed: the stack of folders to search takes the first in order first.
        return entries.sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) }.reversed()
    }

    /// Why the folder at `path` cannot be listed, or nil.
    private static func unreadableFolder(_ path: String) -> String? {
        guard let handle = opendir(path) else { return systemError() }
        closedir(handle)
        // Listed but not searchable (read without execute): its entries cannot be looked at.
        guard access(path, X_OK) == 0 else { return systemError() }
        return nil
    }

    /// `song.mid` → `DIR/song.mp4`, `album/track.kar` → `DIR/album/track.mp4`.
    public static func outputPath(for relative: String, in directory: String) -> String {
        var stem = Substring(relative)
        if let dot = stem.lastIndex(of: "."), !stem[dot...].contains("/") { stem = stem[..<dot] }
        return (directory.hasSuffix("/") ? directory : directory + "/") + stem + ".mp4"
    }

    /// Refuses a batch whose songs would fail alike, for what the batch's own options give
    /// every song besides itself: the font, a background picture or video, the SoundFont (with
    /// sound) and ffmpeg. The error and its exit code are those `render` gives (66, 69), before
    /// any work, where each song would fail with exit 1 for the batch. A file of a manifest
    /// line's own fails that song alone, as any bad song does.
    public func checkSetup() throws(RenderError) {
        let shared = options
        let common = songs.filter { song in
            song.problem == nil && song.options.fontPath == shared.fontPath && song.options.backgroundImage == shared.backgroundImage
                && song.options.backgroundVideo == shared.backgroundVideo && song.options.soundFont == shared.soundFont
        }
        if !common.isEmpty {
            for (path, what) in [
                (shared.fontPath, "load font"), (shared.backgroundImage, "read background image"), (shared.backgroundVideo, "read background video"),
            ] {
                if let path, let problem = RegularFile.problem(at: path) { throw .missingInput("cannot \(what) \(path): \(problem)") }
            }
            // Read as a render reads them: a file that is there but unusable (65) is said once too.
            _ = try RenderJob.loadFonts(shared.fontPath, canvasSide: 64)
            if let picture = shared.backgroundImage {
                _ = try BackgroundPicture.load(picture, width: shared.size.width, height: shared.size.height, dim: shared.backgroundDim)
            }
            if let video = shared.backgroundVideo { _ = try BackgroundVideo.probe(video, dim: shared.backgroundDim, end: shared.backgroundVideoEnd) }
            if common.contains(where: { !$0.options.noAudio && VideoContainer(outputPath: $0.output)?.hasSound != false }) {
                do throws(AudioError) {
                    let soundFont = try SoundFontLocator.locate(explicit: shared.soundFont)
                    try shared.bouncer.check(soundFont: soundFont)
                } catch {
                    throw RenderError(error)
                }
            }
        }
        guard songs.contains(where: { $0.problem == nil }) else { return }
        do throws(VideoError) {
            _ = try FFmpegProcess.locate()
        } catch {
            throw RenderError(error)
        }
    }

    /// Refuses reports (`--report`, `--junit`) that would replace a file the batch reads (a
    /// song, a manifest, a config file, a SoundFont, font or background image or video) or writes (a
    /// song's video or its record), or that cannot be written where they are.
    /// - Parameter configFiles: the config files the options came from.
    public func check(reports: [String], configFiles: [String] = []) throws(BatchError) {
        var reads = ReadFiles(readsOf: self, configFiles: configFiles)
        for song in songs where song.problem == nil {
            reads.add(song.output, "video of \(song.relativePath)")
            reads.add(BatchRecord.path(of: song.output), "record of \(song.relativePath)")
        }
        do throws(RenderError) {
            try OutputChecks.check(files: reports, reads: reads, makingFoldersIn: outputDirectory)
        } catch .cannotCreate(let message) {
            throw .cannotWrite(message)
        } catch {
            throw .usage(error.description)
        }
    }

    /// Share `shard.index` of `shard.count` of the songs, balanced by their lengths (a song that
    /// does not load counts as none): the same on every machine given the same inputs.
    public func sharded(_ shard: BatchShard) -> BatchPlan {
        let durations = songs.map { (try? SongLoader.load(path: $0.input).durationSeconds) ?? 0 }
        var plan = self
        plan.songs = shard.share(songs, durations: durations, name: \.relativePath)
        plan.shard = shard
        return plan
    }
}

extension ReadFiles {
    /// The files a batch reads: its songs, manifests, config files, and each song's font,
    /// background image or video and SoundFont.
    init(readsOf plan: BatchPlan, configFiles: [String] = []) {
        self.init()
        for song in plan.songs where song.problem == nil { add(song.input, "input song \(song.relativePath)") }
        for manifest in plan.manifests { add(manifest, "manifest") }
        for file in configFiles { add(file, "config file") }
        var located: Set<String?> = []
        for options in [plan.options] + plan.songs.map(\.options) {
            add(options.fontPath, "font")
            if let image = options.backgroundImage { add(image, "background image") }
            if let video = options.backgroundVideo { add(video, "background video") }
            // The SoundFont the songs play with, given or found ($MIDIVIZ_SOUNDFONT, Debian's), even
            // when silent: a report never replaces it.
            guard located.insert(options.soundFont).inserted else { continue }
            if let soundFont = (try? SoundFontLocator.locate(explicit: options.soundFont)) ?? options.soundFont { add(soundFont, "SoundFont") }
        }
    }
}
