/// The files a run reads, each with what it is ("font", "input song"), found by path (`..`
/// resolved) or by file (device and inode: another path to the same file): what no output may
/// be. A lookup is quick for thousands of files; each is stat'ed once.
struct ReadFiles {
    private var byPath: [String: String] = [:]
    private var byFile: [FileIdentity: String] = [:]

    init(_ files: [(path: String, what: String)] = []) {
        for file in files { add(file.path, file.what) }
    }

    /// Adds `path` as `what`, unless the path or its file is already there (the first says).
    mutating func add(_ path: String, _ what: String) {
        let absolute = OutputChecks.absolute(path)
        guard byPath[absolute] == nil else { return }
        byPath[absolute] = what
        if let file = FileIdentity(path: path) ?? FileIdentity(path: absolute), byFile[file] == nil { byFile[file] = what }
    }

    /// What `path` is, when the run reads it.
    func what(_ path: String) -> String? {
        let absolute = OutputChecks.absolute(path)
        if let what = byPath[absolute] { return what }
        // The file as the kernel finds it (`link/..` is the link's target's parent), not `absolute`.
        return FileIdentity(path: path).flatMap { byFile[$0] }
    }
}
