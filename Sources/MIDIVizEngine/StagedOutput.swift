import Foundation
import MIDIVizIO
import Synchronization

/// One output being made under a unique hidden name beside its final path
/// (`.NAME.midiviz-PID-XXXXXX`, made by `mkstemp`/`mkdtemp`), moved into place by `commit`.
/// The PID in the name lets a later run remove the temporaries of runs that have died. A
/// final path that is a symbolic link is written through: the output is made beside the
/// link's target and replaces it, and the link stays (a frames folder linked to a larger disk
/// gets its frames there).
final class StagedOutput: Sendable {
    let finalPath: String
    let temporaryPath: String
    let isFolder: Bool
    /// The folders this run created to hold a frames folder, deepest first: removed again, if
    /// still empty, when the output is discarded.
    private let createdFolders: [String]
    private struct Progress {
        /// The previous output, kept under a hidden name while the transaction commits.
        var backupPath: String?
        var didCommit = false
    }
    private let progress = Mutex(Progress())
    private var backupPath: String? {
        get { progress.withLock { $0.backupPath } }
        set { progress.withLock { $0.backupPath = newValue } }
    }
    private var didCommit: Bool {
        get { progress.withLock { $0.didCommit } }
        set { progress.withLock { $0.didCommit = newValue } }
    }

    /// Creates the temporary (and a frames folder's missing parents), after removing the
    /// temporaries that dead runs left for this output, and with `sweepsScratches` those of its
    /// scratch files too, whichever of them this run uses (a run with sound killed, then one
    /// without).
    init(finalPath given: String, isFolder: Bool, sweepsScratches: Bool = false) throws(RenderError) {
        let finalPath = Self.linkTarget(of: given) ?? given
        self.finalPath = finalPath
        self.isFolder = isFolder
        let parts = PathParts(finalPath)
        let folder = parts.folder, name = parts.name
        var created: [String] = []
        if isFolder {
            var missing = folder
            while missing != "." && missing != "/" && !FileManager.default.fileExists(atPath: missing) {
                created.append(missing)
                missing = PathParts(missing).folder
            }
            do {
                try FileManager.default.createDirectory(atPath: folder.isEmpty ? "." : folder, withIntermediateDirectories: true)
            } catch {
                throw .cannotCreate("cannot create \(finalPath): \(Self.reason(error))")
            }
        }
        createdFolders = created
        Self.removeStaleTemporaries(in: folder, of: [name] + (sweepsScratches ? Self.scratchNames(of: name) : []))
        let template = PathParts.join(folder, ".\(name).midiviz-\(getpid())-XXXXXX")
        let mode = 0o777 & ~Self.umaskValue
        if isFolder {
            guard let made = UniquePath.folder(template) else { throw .cannotCreate("cannot create \(finalPath): \(systemError())") }
            chmod(made, mode_t(mode))
            temporaryPath = made
        } else {
            guard let (made, descriptor) = UniquePath.file(template) else { throw .cannotCreate("cannot create \(finalPath): \(systemError())") }
            fchmod(descriptor, mode_t(mode & 0o666))
            close(descriptor)
            temporaryPath = made
        }
    }

    /// Where `path` leads when it is a symbolic link to something that exists (`OutputChecks`
    /// refuses one that leads nowhere). The corresponding C functions are `lstat`, `realpath`.
    static func linkTarget(of path: String) -> String? {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK, let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Moves the temporary into place, keeping what was there under a hidden name until
    /// `forgetBackup` (or putting it back with `rollBack`), with the permissions and group of
    /// what was there. The corresponding C functions are `link` (a file's backup), `rename`,
    /// `chown`, `chmod`.
    func commit() throws(RenderError) {
        // What was there, kept under the temporary's name marked old.
        let backup = temporaryPath.replacingOccurrences(of: ".midiviz-\(getpid())-", with: ".midiviz-old-\(getpid())-")
        var old = stat(), made = stat()
        if stat(finalPath, &old) == 0, stat(temporaryPath, &made) == 0 {
            // What replaces an output keeps its group where that is allowed (first: a change of
            // group clears the set-group-ID bit), and its permissions: the group's only with
            // its group, and a folder stays the owner's to write (to be put back, or removed).
            let keepsGroup = chown(temporaryPath, uid_t.max, old.st_gid) == 0
            var mode = old.st_mode & (keepsGroup ? 0o777 : 0o707) | (keepsGroup ? 0 : made.st_mode & 0o070)
            if isFolder { mode = mode & 0o077 | made.st_mode & 0o700 | (keepsGroup ? old.st_mode & 0o2000 : 0) }
            chmod(temporaryPath, mode)
        }
        // A frames folder goes whole: what was put in it since the run's check stays, and so
        // does the folder.
        func checkFolder() throws(RenderError) {
            guard isFolder else { return }
            guard let others = OutputChecks.listing(of: finalPath)?.others else {
                throw .cannotCreate("cannot write frames into \(finalPath): it is no longer a folder that can be read; left as it is")
            }
            if let first = others.first {
                throw .cannotCreate("cannot write frames into \(finalPath): it now holds a file other than frames (\(first)); left as it is")
            }
        }
        if FileManager.default.fileExists(atPath: finalPath) {
            try checkFolder()
            // A file is kept by a hard link (the old one stays in place until the rename); where
            // links are not supported, it is moved aside like a folder.
            guard (!isFolder && link(finalPath, backup) == 0) || rename(finalPath, backup) == 0 else {
                throw .cannotCreate("cannot replace \(finalPath): \(systemError())")
            }
            backupPath = backup
        }
        var moved = rename(temporaryPath, finalPath) == 0
        let failure = moved ? 0 : errno
        var reason = moved ? "" : systemError(failure)
        // A folder that appeared since the check above (another job's, into the same place) is
        // kept aside like one that was there, once, if it holds frames only.
        if !moved, isFolder, failure == ENOTEMPTY || failure == EEXIST, backupPath == nil {
            try checkFolder()
            if rename(finalPath, backup) == 0 {
                backupPath = backup
                moved = rename(temporaryPath, finalPath) == 0
                if !moved { reason = systemError() }
            }
        }
        guard moved else {
            rollBack()
            throw .cannotCreate("cannot write \(finalPath): \(reason)")
        }
        didCommit = true
    }

    /// Puts the previous output back (after a later output of the same run failed to commit).
    func rollBack() {
        guard let backupPath else {
            // Nothing was there before: what this run put there goes.
            if didCommit { try? FileManager.default.removeItem(atPath: finalPath) }
            didCommit = false
            return
        }
        if isFolder {
            try? FileManager.default.removeItem(atPath: finalPath)
            rename(backupPath, finalPath)
        } else {
            rename(backupPath, finalPath)
        }
        self.backupPath = nil
        didCommit = false
    }

    func forgetBackup() {
        if let backupPath { try? FileManager.default.removeItem(atPath: backupPath) }
        backupPath = nil
    }

    /// Removes the temporary, and the folders made for it if nothing else is in them; safe to
    /// call more than once.
    func discard() {
        try? FileManager.default.removeItem(atPath: temporaryPath)
        guard !didCommit else { return }
        for folder in createdFolders { rmdir(folder) }
    }

    /// The scratch files a render keeps beside an output (`OutputTransaction.scratch`), by suffix.
    static let scratchSuffixes = ["f32", "mkv", "pcm", "png", "sound", "txt", "video", "wav"]

    /// What runs that died left beside `output`: its temporaries and its scratch files'.
    static func removeStaleTemporaries(of output: String) {
        let parts = PathParts(linkTarget(of: output) ?? output)
        removeStaleTemporaries(in: parts.folder, of: [parts.name] + scratchNames(of: parts.name))
    }

    private static func scratchNames(of name: String) -> [String] { scratchSuffixes.map { name + "." + $0 } }

    /// `.NAME.midiviz-PID-…` and `.NAME.midiviz-old-PID-…` of processes that no longer exist,
    /// for each of `names`, from one read of the folder, and the temporaries of such a scratch
    /// file (`..NAME.midiviz-PID-….midiviz-PID-…`: a join's sound is a render of its own into
    /// its scratch WAV). A backup whose output is missing (a run killed while committing) is put
    /// back.
    static func removeStaleTemporaries(in folder: String, of names: [String]) {
        let directory = folder.isEmpty ? "." : folder
        let prefixes = names.map { ".\($0).midiviz-" }
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
            // As it is (a name may itself begin with a dot: `.hidden.png`), else nested.
            var nested = false
            var index = prefixes.firstIndex(where: { entry.hasPrefix($0) })
            if index == nil, entry.hasPrefix("..") {
                nested = true
                index = prefixes.firstIndex(where: { entry.dropFirst().hasPrefix($0) })
            }
            guard let index else { continue }
            var rest = entry.dropFirst(prefixes[index].count + (nested ? 1 : 0))
            let isBackup = !nested && rest.hasPrefix("old-")
            if isBackup { rest = rest.dropFirst(4) }
            guard let pid = Int32(rest.prefix { $0.isNumber }), pid > 0, pid != getpid(),
                kill(pid, 0) != 0 && errno == ESRCH
            else { continue }
            let path = PathParts.join(directory, entry)
            let finalPath = PathParts.join(directory, names[index])
            if isBackup && !FileManager.default.fileExists(atPath: finalPath) {
                rename(path, finalPath)
            } else {
                try? FileManager.default.removeItem(atPath: path)
            }
        }
    }

    /// The process's file mode mask, read from `/proc/self/status` (Linux 4.7 and later)
    /// rather than set and put back, which would change it for every thread meanwhile; 022
    /// where it cannot be read.
    private static let umaskValue: Int = {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
            let mask = Int(line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8)
        else { return 0o022 }
        return mask
    }()

    private static func reason(_ error: Error) -> String {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let code = underlying?.code, underlying?.domain == NSPOSIXErrorDomain { return systemError(Int32(code)) }
        return (error as NSError).localizedDescription
    }
}
