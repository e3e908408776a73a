import Foundation
import Synchronization

/// All outputs of one run, as one transaction: each is made under a temporary name; `commit`
/// moves them all into place (putting the old ones back if one move fails), `discard` removes
/// every temporary. Either may be called from another thread (a signal handler's queue); the
/// second call finds nothing left to do.
final class OutputTransaction: Sendable {
    private struct State {
        var staged: [StagedOutput] = []
        /// Temporaries that are never committed (the sound the encoder reads).
        var scratches: [StagedOutput] = []
        var isClosed = false
        var committedAll = false
    }
    private let state = Mutex(State())

    /// Stages one output; returns the temporary path to write.
    func stage(_ output: RenderOutput) throws(RenderError) -> String {
        try keep(StagedOutput(finalPath: output.path, isFolder: output.isFolder, sweepsScratches: true), asScratch: false)
    }

    /// A temporary file beside `path` (`.NAME.SUFFIX.midiviz-PID-XXXXXX`; beside its target
    /// when it is a link, as the output is staged), removed at the end whatever happens.
    func scratch(beside path: String, suffix: String) throws(RenderError) -> String {
        try keep(StagedOutput(finalPath: (StagedOutput.linkTarget(of: path) ?? path) + "." + suffix, isFolder: false), asScratch: true)
    }

    /// A temporary folder beside `path`, as `scratch(beside:suffix:)`, removed with what it holds.
    func scratchFolder(beside path: String, suffix: String) throws(RenderError) -> String {
        try keep(StagedOutput(finalPath: (StagedOutput.linkTarget(of: path) ?? path) + "." + suffix, isFolder: true), asScratch: true)
    }

    /// Records a new temporary, unless the transaction has already ended (then it goes at once).
    private func keep(_ item: StagedOutput, asScratch: Bool) throws(RenderError) -> String {
        let kept = state.withLock { state in
            guard !state.isClosed else { return false }
            if asScratch { state.scratches.append(item) } else { state.staged.append(item) }
            return true
        }
        guard kept else {
            item.discard()
            throw .interrupted(signal: nil)
        }
        return item.temporaryPath
    }

    /// Whether every output has been committed under its name.
    var isCommitted: Bool { state.withLock { $0.committedAll } }

    /// Each temporary's path and how a message names it: an output by its own path, a scratch
    /// file as a temporary beside its output (whose path is the scratch's final path without the
    /// suffix `scratch(beside:suffix:)` added).
    var names: [(temporary: String, shown: String)] {
        state.withLock { state in
            state.staged.map { ($0.temporaryPath, $0.finalPath) }
                + state.scratches.map { scratch in
                    let output = scratch.finalPath.lastIndex(of: ".").map { String(scratch.finalPath[..<$0]) } ?? scratch.finalPath
                    return (scratch.temporaryPath, "a temporary file beside \(output)")
                }
        }
    }

    func commit() throws(RenderError) {
        try state.withLock { (state) throws(RenderError) in
            guard !state.isClosed else { throw .interrupted(signal: nil) }
            state.isClosed = true
            defer { for item in state.scratches { item.discard() } }
            var committed: [StagedOutput] = []
            for item in state.staged {
                do throws(RenderError) {
                    try item.commit()
                    committed.append(item)
                } catch {
                    for done in committed.reversed() { done.rollBack() }
                    for item in state.staged { item.discard() }
                    throw error
                }
            }
            for item in committed { item.forgetBackup() }
            state.committedAll = true
        }
    }

    func discard() {
        state.withLock { state in
            guard !state.isClosed else { return }
            state.isClosed = true
            for item in state.staged + state.scratches { item.discard() }
        }
    }
}
