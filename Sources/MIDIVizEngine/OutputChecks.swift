import Foundation
import MIDIVizIO

/// What is refused before any work: an output that is the input, two outputs on one path, a
/// folder where a file goes (or the reverse), anything but a regular file (a device, FIFO or
/// socket), a frames folder holding other files, a folder we cannot write into.
package enum OutputChecks {
    /// The same checks for files a command writes itself (a batch's reports): none may be one
    /// of `inputs`, share a path with another, be a folder, device or FIFO, or lie in a folder
    /// that cannot be written.
    package static func check(files: [String], inputs: [(path: String, what: String)]) throws(RenderError) {
        try check(files: files, reads: ReadFiles(inputs))
    }

    /// - Parameter folder: a folder the command makes (a batch's output folder): a file inside
    ///   it may lie in folders not made yet.
    static func check(files: [String], reads: ReadFiles, makingFoldersIn folder: String? = nil) throws(RenderError) {
        if let folder = files.first(where: { $0.hasSuffix("/") }) { throw .usage("cannot write \(folder): it names a folder, not a file") }
        try check(files.map { ($0, false) }, reads: reads, makingFoldersIn: folder)
    }

    static func check(_ outputs: [RenderOutput], inputs: [(path: String, what: String)]) throws(RenderError) {
        try check(outputs.map { ($0.path, $0.isFolder) }, inputs: inputs)
    }

    /// - Parameter inputs: the files the run reads (song, font, SoundFont), with what each is.
    static func check(_ outputs: [(path: String, isFolder: Bool)], inputs: [(path: String, what: String)]) throws(RenderError) {
        try check(outputs, reads: ReadFiles(inputs))
    }

    /// - Parameter made: a folder the command makes, in which an output's missing folders are
    ///   made too (else only a frames folder's are).
    static func check(_ outputs: [(path: String, isFolder: Bool)], reads: ReadFiles, makingFoldersIn made: String? = nil) throws(RenderError) {
        let madeFolder = made.map { absolute($0) + "/" }
        // Each output's path as written, and as the kernel will follow it (links resolved).
        var earlier: [(path: String, real: String, identity: FileIdentity?, isFolder: Bool)] = []
        for output in outputs {
            if output.path.isEmpty { throw .usage("an output needs a name, not an empty one") }
            // `new/` or `new/.`: a folder's name where a file goes (an existing folder is 73 below).
            var isFolder: ObjCBool = false
            if !output.isFolder, output.path.hasSuffix("/") || [".", ".."].contains(PathParts(output.path).name),
                !(FileManager.default.fileExists(atPath: output.path, isDirectory: &isFolder) && isFolder.boolValue)
            {
                throw .usage("cannot write \(output.path): it names a folder, not a file")
            }
            // As written, `..` taken as text; as the kernel will follow it, links first (`link/..`
            // is the link's target's parent), a link to nothing too (to the name it holds).
            let path = absolute(output.path)
            let raw = PathParts.fromWorkingFolder(output.path)
            let real = PathParts.realPath(followingLinksOf: raw)
            let identity = FileIdentity(path: raw)
            if let what = reads.what(output.path) { throw .usage("refusing to write \(output.path): it is the \(what)") }
            if earlier.contains(where: { $0.path == path || $0.real == real || ($0.identity != nil && $0.identity == identity) }) {
                throw .usage("refusing to write \(output.path) twice: two outputs name it")
            }
            // A frames folder is swapped whole: nothing else may live inside it, as named or
            // through a link.
            if let folder = earlier.first(where: { $0.isFolder && holds(($0.path, $0.real), (path, real)) })?.path
                ?? (output.isFolder ? earlier.first(where: { holds((path, real), ($0.path, $0.real)) }).map { _ in path } : nil)
            {
                throw .usage("refusing to write \(output.path): another output lies inside the frames folder \(folder)")
            }
            earlier.append((path, real, identity, output.isFolder))
        }
        // An output inside another that is a file (`-o x.mp4 --frames-dir x.mp4/frames`) could
        // not be made there, nor could a frames folder be swapped into place.
        for (output, named) in zip(outputs, earlier) {
            for (other, file) in zip(outputs, earlier) where !file.isFolder && holds((file.path, file.real), (named.path, named.real)) {
                throw .usage("refusing to write \(output.path): it lies inside \(other.path), another output, which is a file")
            }
        }
        // What is on disk only after every output's names are checked: an output inside a
        // frames folder not made yet is refused as such (64), not for its missing folder (73).
        for (output, named) in zip(outputs, earlier) {
            let raw = PathParts.fromWorkingFolder(output.path)
            try checkKind(of: output.path, isFolder: output.isFolder, at: raw, reads: reads)
            let isInMadeFolder = madeFolder.map { named.path.hasPrefix($0) } ?? false
            // A link is written through: its target's folder takes the output.
            try checkWritableParent(
                of: StagedOutput.linkTarget(of: raw) ?? named.path, name: output.path, creatingFolders: output.isFolder || isInMadeFolder)
        }
    }

    /// Whether `inside` lies inside `outer`, as named or as the kernel follows its links.
    private static func holds(_ outer: (path: String, real: String), _ inside: (path: String, real: String)) -> Bool {
        inside.path.hasPrefix(outer.path + "/") || inside.real.hasPrefix(outer.real + "/")
    }

    private static func checkKind(of name: String, isFolder: Bool, at path: String, reads: ReadFiles) throws(RenderError) {
        // `/dev/stdout` redirected to a file leads to that file, but replacing it (a temporary
        // renamed over it) would leave this process writing to a deleted one, and replace the
        // link itself once that is gone.
        if let stream = PathParts.procPlace(onTheWayTo: path) {
            throw .cannotCreate("refusing to write \(name): it leads to \(stream), a stream of a process, not a file; name a file")
        }
        var status = stat()
        guard stat(path, &status) == 0 else {
            // A new name; a symbolic link is written through (`StagedOutput`), so it must lead somewhere.
            let looped = errno == ELOOP
            guard lstat(path, &status) == 0 else { return }
            throw .cannotCreate(
                looped
                    ? "cannot write \(name): its symbolic links lead round in a loop"
                    : "cannot write \(name): it is a symbolic link to nothing (\(PathParts.linkDestination(of: path) ?? "unreadable"))")
        }
        let kind = status.st_mode & S_IFMT
        if isFolder {
            guard kind == S_IFDIR else { throw .cannotCreate("cannot write frames into \(name): it is not a folder") }
            let (frames, others) = listing(of: path) ?? ([], [])
            // The frames there go with the folder: none may be a file the run reads.
            for frame in frames {
                if let what = reads.what(path + "/" + frame) { throw .usage("refusing to write frames into \(name): its \(frame) is the \(what)") }
            }
            if let first = others.first {
                throw .cannotCreate(
                    "cannot write frames into \(name): it holds \(others.count) file(s) other than frames (\(first)); "
                        + "name a new or empty folder")
            }
        } else if kind == S_IFDIR {
            throw .cannotCreate("cannot write \(name): it is a folder")
        } else if kind != S_IFREG {
            throw .cannotCreate("refusing to write \(name): not a regular file (a device, FIFO or socket)")
        }
    }

    private static func checkWritableParent(of path: String, name: String, creatingFolders: Bool) throws(RenderError) {
        var folder = PathParts(path).folder
        if creatingFolders {
            // The frames folder's missing parents are made; the nearest existing one must take them.
            while !FileManager.default.fileExists(atPath: folder) && folder != "/" && folder != "." {
                folder = PathParts(folder).folder
            }
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) else {
            throw .cannotCreate("cannot create \(name): no folder \(folder)")
        }
        guard isFolder.boolValue else { throw .cannotCreate("cannot create \(name): \(folder) is not a folder") }
        guard access(folder, W_OK) == 0 else { throw .cannotCreate("cannot create \(name): \(systemError())") }
    }

    /// A file we write in one format must not be named for another (`poster.jpg` holding a PNG,
    /// `song.mp3` holding a WAV would mislead whatever opens it); a name without an extension
    /// is taken as it is.
    package static func checkExtension(of path: String, writes format: String, extensions: Set<String>) throws(RenderError) {
        let name = PathParts(path).name
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return }
        let given = name[name.index(after: dot)...]
        guard !extensions.contains(given.lowercased()) else { return }
        let named = extensions.sorted().map { "." + $0 }.joined(separator: " or ")
        throw .usage("cannot write \(path): it would hold a \(format) file under .\(given); name it \(named)")
    }

    /// The folder at `path`'s frames and the rest, each sorted, from one listing: a frame is a
    /// regular file (not a folder or a link named as one) with a name `isFrameName` takes. Nil
    /// when it cannot be listed.
    static func listing(of path: String) -> (frames: [String], others: [String])? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return nil }
        var frames: [String] = [], others: [String] = []
        for entry in names.sorted() {
            var entryStatus = stat()
            let isFrame = isFrameName(entry) && lstat(path + "/" + entry, &entryStatus) == 0 && entryStatus.st_mode & S_IFMT == S_IFREG
            if isFrame { frames.append(entry) } else { others.append(entry) }
        }
        return (frames, others)
    }

    /// A PNG's zlib level, 0 (fastest) to 9 (smallest).
    static func checkPNGLevel(_ level: Int) throws(RenderError) {
        guard (0...9).contains(level) else { throw .option(.outOfRange(option: "png-level", value: String(level), allowed: "between 0 and 9")) }
    }

    /// `frame_000001.png` and the like, as `PNGFolderSink` names them: what a frames folder may
    /// hold (not `frame_1.png` or `frame_0000001.png`, which another program wrote).
    static func isFrameName(_ name: String) -> Bool {
        guard name.hasPrefix("frame_"), name.hasSuffix(".png") else { return false }
        let digits = name.dropFirst(6).dropLast(4)
        guard digits.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(digits), number >= 1 else { return false }
        return PNGFolderSink.fileName(ofFrame: number - 1) == name
    }

    static func absolute(_ path: String) -> String {
        let url =
            path.hasPrefix("/")
            ? URL(fileURLWithPath: path)
            : URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(path)
        return url.standardizedFileURL.path
    }
}

/// A file's device and inode: two paths naming one file have the same.
struct FileIdentity: Hashable {
    var device: UInt64
    var inode: UInt64

    /// The corresponding C function is `stat`; nil when nothing is there.
    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }
}
