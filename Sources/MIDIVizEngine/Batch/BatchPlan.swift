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

    public init(input: String, relativePath: String, output: String, options: RenderOptions) {
        self.input = input
        self.relativePath = relativePath
        self.output = output
        self.options = options
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

    /// The extensions of songs in a folder (any case).
    public static let songExtensions: Set<String> = ["mid", "midi", "kar", "rmi"]

    public init(songs: [BatchSong], options: RenderOptions, outputDirectory: String, manifests: [String] = [], shard: BatchShard? = nil) {
        self.songs = songs
        self.options = options
        self.outputDirectory = outputDirectory
        self.manifests = manifests
        self.shard = shard
    }

    /// The songs of `inputs` into `outputDirectory` with `options` (a manifest line's over them).
    public static func make(inputs: [String], outputDirectory: String, options: RenderOptions) throws(BatchError) -> BatchPlan {
        let files = FileManager.default
        var isFolder: ObjCBool = false
        if files.fileExists(atPath: outputDirectory, isDirectory: &isFolder), !isFolder.boolValue {
            throw .usage("the output folder \(outputDirectory) is not a folder")
        }
        var songs: [BatchSong] = []
        var manifests: [String] = []
        for input in inputs {
            guard files.fileExists(atPath: input, isDirectory: &isFolder) else { throw .usage("\(input): no such file or folder") }
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
        var seen: [String: String] = [:]
        for song in songs {
            if let other = seen[song.output] {
                throw .usage("\(other) and \(song.input) would both be written to \(song.output)")
            }
            seen[song.output] = song.input
        }
        guard !songs.isEmpty else { throw .usage("no songs (.mid, .midi, .kar, .rmi) in \(inputs.joined(separator: ", "))") }
        return BatchPlan(songs: songs, options: options, outputDirectory: outputDirectory, manifests: manifests)
    }

    /// The songs under `folder`, by their paths in it, sorted.
    private static func folderSongs(_ folder: String, outputDirectory: String, options: RenderOptions) throws(BatchError) -> [BatchSong] {
        let files = FileManager.default
        let root = URL(fileURLWithPath: folder).standardizedFileURL.path
        guard let walker = files.enumerator(atPath: root) else { throw .usage("\(folder): cannot read the folder") }
        var found: [String] = []
        while let relative = walker.nextObject() as? String {
            guard songExtensions.contains(URL(fileURLWithPath: relative).pathExtension.lowercased()) else { continue }
            var isSubfolder: ObjCBool = false
            if files.fileExists(atPath: root + "/" + relative, isDirectory: &isSubfolder), !isSubfolder.boolValue {
                found.append(relative)
            }
        }
        return found.sorted().map {
            BatchSong(input: root + "/" + $0, relativePath: $0, output: outputPath(for: $0, in: outputDirectory), options: options)
        }
    }

    /// `song.mid` → `DIR/song.mp4`, `album/track.kar` → `DIR/album/track.mp4`.
    public static func outputPath(for relative: String, in directory: String) -> String {
        var stem = Substring(relative)
        if let dot = stem.lastIndex(of: "."), !stem[dot...].contains("/") { stem = stem[..<dot] }
        return (directory.hasSuffix("/") ? directory : directory + "/") + stem + ".mp4"
    }

    /// Refuses reports (`--report`, `--junit`) that would replace a song, a manifest or a
    /// song's video, or that cannot be written where they are.
    public func check(reports: [String]) throws(BatchError) {
        let reads = songs.map { ($0.input, "input song") } + manifests.map { ($0, "manifest") } + songs.map { ($0.output, "song's video") }
        do throws(RenderError) {
            try OutputChecks.check(files: reports, inputs: reads)
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
