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
}
