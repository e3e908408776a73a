import Foundation

/// The folder and the name of a path, as `dirname` and `basename` give them. Foundation's
/// `NSString.deletingLastPathComponent` traps on a one-character name (`-o a`), so outputs
/// use this instead.
struct PathParts: Equatable {
    /// "." for a bare name, "/" for a name at the root.
    var folder: String
    var name: String

    init(_ path: String) {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else {
            folder = "."
            name = String(trimmed)
            return
        }
        name = trimmed == "/" ? "/" : String(trimmed[trimmed.index(after: slash)...])
        var parent = trimmed[..<slash]
        while parent.hasSuffix("/") { parent = parent.dropLast() }
        folder = parent.isEmpty ? "/" : String(parent)
    }

    /// The path again, without trailing slashes: what a file beside it is named after.
    var trimmed: String { Self.join(folder, name) }

    /// `name` inside `folder`.
    static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// The real path (links resolved) of `path`, or of its deepest folder that exists, with the
    /// rest of `path` after it.
    static func realPath(ofDeepestExisting path: String) -> String {
        /// The corresponding C function is `realpath`; nil when `path` does not resolve.
        func resolved(_ path: String) -> String? {
            guard let real = realpath(path, nil) else { return nil }
            defer { free(real) }
            return String(cString: real)
        }
        var existing = path
        var rest: [String] = []
        while resolved(existing) == nil, existing != "/", !existing.isEmpty {
            rest.insert(PathParts(existing).name, at: 0)
            existing = PathParts(existing).folder
        }
        guard let real = resolved(existing) else { return path }
        return ([real] + rest).joined(separator: "/").replacingOccurrences(of: "//", with: "/")
    }

    /// Where `path` leads: its links followed (a link to nothing too, to the name it holds),
    /// then `realPath(ofDeepestExisting:)`. The corresponding C function is `lstat`.
    static func realPath(followingLinksOf path: String) -> String {
        var current = path
        // As the kernel gives up: 40 links.
        for _ in 0..<40 {
            var status = stat()
            guard lstat(current, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { break }
            guard let destination = linkDestination(of: current), !destination.isEmpty else { break }
            current = destination.hasPrefix("/") ? destination : join(PathParts(current).folder, destination)
        }
        return realPath(ofDeepestExisting: current)
    }

    /// The first place `path` or a link on its way leads into `/proc` (`/dev/stdout` is a link
    /// to `/proc/self/fd/1`, `/dev/fd` to `/proc/self/fd`): a process's own streams, not files,
    /// whatever they are open on; nil when none does.
    static func procPlace(onTheWayTo path: String) -> String? {
        var current = path
        for _ in 0..<40 {
            // The folders as the kernel follows them, then the name itself.
            let place = join(realPath(ofDeepestExisting: PathParts(current).folder), PathParts(current).name)
            if place == "/proc" || place.hasPrefix("/proc/") { return place }
            var status = stat()
            guard lstat(place, &status) == 0, status.st_mode & S_IFMT == S_IFLNK, let destination = linkDestination(of: place),
                !destination.isEmpty
            else { return nil }
            if destination == "/proc" || destination.hasPrefix("/proc/") { return destination }
            current = destination.hasPrefix("/") ? destination : join(PathParts(place).folder, destination)
        }
        return nil
    }

    /// What a symbolic link holds; nil when it cannot be read. The corresponding C function is
    /// `readlink`.
    static func linkDestination(of path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `path` from the working folder, as the kernel will take it: links first, then `..`
    /// (`link/..` is the link's target's parent), unlike `OutputChecks.absolute`.
    static func fromWorkingFolder(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
}
