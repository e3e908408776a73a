import Foundation

/// All outputs of one run, as one transaction: each is made under a temporary name; `commit`
/// moves them all into place (putting the old ones back if one move fails), `discard` removes
/// every temporary. Either may be called from another thread (a signal handler's queue); the
/// second call finds nothing left to do.
final class OutputTransaction: @unchecked Sendable {
    private let lock = NSLock()
    private var staged: [StagedOutput] = []
    /// Temporaries that are never committed (the sound the encoder reads).
    private var scratches: [StagedOutput] = []
    private var isClosed = false

    /// Stages one output; returns the temporary path to write.
    func stage(_ output: RenderOutput) throws(RenderError) -> String {
        try keep(StagedOutput(finalPath: output.path, isFolder: output.isFolder), asScratch: false)
    }

    /// A temporary file beside `path` (`.NAME.SUFFIX.midiviz-PID-XXXXXX`), removed at the end
    /// whatever happens.
    func scratch(beside path: String, suffix: String) throws(RenderError) -> String {
        try keep(StagedOutput(finalPath: path + "." + suffix, isFolder: false), asScratch: true)
    }

    /// Records a new temporary, unless the transaction has already ended (then it goes at once).
    private func keep(_ item: StagedOutput, asScratch: Bool) throws(RenderError) -> String {
        lock.lock()
        defer { lock.unlock() }
        guard !isClosed else {
            item.discard()
            throw .interrupted(signal: nil)
        }
        if asScratch { scratches.append(item) } else { staged.append(item) }
        return item.temporaryPath
    }

    /// Whether every output has been committed under its name.
    var isCommitted: Bool {
        lock.lock()
        defer { lock.unlock() }
        return committedAll
    }
    private var committedAll = false

    func commit() throws(RenderError) {
        lock.lock()
        defer { lock.unlock() }
        guard !isClosed else { throw .interrupted(signal: nil) }
        isClosed = true
        defer { for item in scratches { item.discard() } }
        var committed: [StagedOutput] = []
        for item in staged {
            do {
                try item.commit()
                committed.append(item)
            } catch {
                for done in committed.reversed() { done.rollBack() }
                for item in staged { item.discard() }
                throw error
            }
        }
        for item in committed { item.forgetBackup() }
        committedAll = true
    }

    func discard() {
        lock.lock()
        defer { lock.unlock() }
        guard !isClosed else { return }
        isClosed = true
        for item in staged + scratches { item.discard() }
    }
}
