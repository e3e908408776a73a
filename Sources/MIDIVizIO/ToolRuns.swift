import Foundation
import Synchronization

/// The score tools' children and temporary files alive in this process, so that a signal can end
/// them: `stopAll()` stops every child, removes every file and folder, and lets no new one start
/// (the process is about to exit). Process-wide, as a signal is.
///
/// A child or a file is made under the lock (`start`, `makePath`): a signal cannot fall between
/// its making and its registering, so nothing escapes `stopAll()`.
package final class ToolRuns: Sendable {
    /// The runs of this process.
    package static let shared = ToolRuns()

    /// Thrown by `start` and `makePath` once `stopAll()` has run.
    package struct Stopped: Error, CustomStringConvertible {
        package var description: String { "interrupted" }
    }

    private struct State {
        var stopped = false
        var children: [ObjectIdentifier: ChildProcess] = [:]
        var paths: Set<String> = []
    }
    private let state = Mutex(State())

    package init() {}

    /// Starts a child with `start` and keeps it until `finished`.
    package func start(_ start: () throws -> ChildProcess) throws -> ChildProcess {
        try state.withLock { state in
            guard !state.stopped else { throw Stopped() }
            let child = try start()
            state.children[ObjectIdentifier(child)] = child
            return child
        }
    }

    /// The child has ended: nothing left to stop.
    package func finished(_ child: ChildProcess) {
        _ = state.withLock { $0.children.removeValue(forKey: ObjectIdentifier(child)) }
    }

    /// Makes a file or folder with `make` (which returns its path) and keeps it until `removed`.
    package func makePath(_ make: () throws -> String) throws -> String {
        try state.withLock { state in
            guard !state.stopped else { throw Stopped() }
            let path = try make()
            state.paths.insert(path)
            return path
        }
    }

    /// The file or folder is gone or kept on purpose: not to be removed.
    package func forget(_ path: String) {
        _ = state.withLock { $0.paths.remove(path) }
    }

    /// Stops every child (SIGTERM, then SIGKILL a second later), removes every file and folder,
    /// and starts nothing more. Safe from any thread, a signal handler's.
    package func stopAll() {
        let (children, paths) = state.withLock { state in
            state.stopped = true
            defer {
                state.children = [:]
                state.paths = []
            }
            return (Array(state.children.values), Array(state.paths))
        }
        for child in children { child.stop() }
        for path in paths {
            // The run's own clean-up may be removing it at the same time (one of two removals
            // fails when the other took a file first): again until it is gone.
            for _ in 0..<10 where FileManager.default.fileExists(atPath: path) { try? FileManager.default.removeItem(atPath: path) }
        }
    }
}
