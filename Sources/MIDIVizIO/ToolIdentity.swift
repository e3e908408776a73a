import Foundation
import Synchronization

/// What a score tool is, for the cache's keys (`ScoreToolCache`): its file (the path it resolves
/// to, its size, change time and inode: an upgrade is a new tool, as ccache's `compiler_check`
/// tells compilers apart) and what it says its version is (`musescore3 --version`; the Python
/// and Verovio versions a python3 has). Asked once a process for each state of the file; nil when
/// the tool cannot say (then nothing is cached: the tool runs and says what is wrong).
package enum ToolIdentity {
    /// What each tool file said, by its file line.
    private static let known = Mutex<[String: String]>([:])

    /// The longest a tool may take to say its version.
    static var timeLimitSeconds: Double { min(10, ScoreTools.timeLimitSeconds) }

    /// MuseScore 3 at `path`.
    package static func museScore(_ path: String) -> String? {
        identity(of: path) {
            let run = try? ScoreTools.withTemporaryFolder { folder in
                try MuseScore.run(path, ["--version"], in: folder, readsOutput: true, timeLimit: timeLimitSeconds)
            }
            guard let run, run.exitedCleanly, !run.output.isEmpty else { return nil }
            return String(decoding: run.output, as: UTF8.self)
        }
    }

    /// The python3 at `path`, with the Verovio it imports (the version pip installed).
    package static func verovio(python path: String) -> String? {
        identity(of: path) {
            // The version pip recorded (without importing the module: faster), else the module's own.
            let script = """
                import sys, importlib.metadata as m
                print(sys.executable, sys.version)
                try:
                    print('verovio', m.version('verovio'))
                except Exception:
                    import verovio
                    print('verovio', verovio.toolkit(False).getVersion())
                """
            guard let run = try? ScoreTools.run(path, ["-c", script], readsOutput: true, timeLimit: timeLimitSeconds), run.exitedCleanly,
                !run.output.isEmpty
            else { return nil }
            return String(decoding: run.output, as: UTF8.self)
        }
    }

    static func identity(of path: String, say: () -> String?) -> String? {
        guard let file = fileLine(path) else { return nil }
        if let said = known.withLock({ $0[file] }) { return file + "\n" + said }
        guard let said = say() else { return nil }
        known.withLock { $0[file] = said }
        return file + "\n" + said
    }

    /// The file `path` resolves to, its size, change time and inode.
    /// The corresponding C functions are `realpath` and `stat`.
    static func fileLine(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        var status = stat()
        guard stat(resolved, &status) == 0 else { return nil }
        return "\(String(cString: resolved)) \(status.st_size) \(status.st_ctim.tv_sec).\(status.st_ctim.tv_nsec) \(status.st_ino)"
    }
}
