import Foundation
import Synchronization

/// Log lines a C library printed, kept off the terminal, per thread: the library calls its log
/// function on the thread that called it, and that thread drains its own lines to ask whether
/// the call failed. Two jobs in one process (a batch) each read only their own library's words.
/// Keeps at most `limit` lines a thread.
final class CapturedLines: Sendable {
    private let lines = Mutex<[UInt: [String]]>([:])
    private let limit: Int

    init(limit: Int = 100) { self.limit = limit }

    /// This thread's key. The corresponding C function is `pthread_self`.
    private static var thread: UInt { UInt(pthread_self()) }

    func append(_ line: String) {
        let thread = Self.thread
        lines.withLock { lines in
            lines[thread, default: []].append(line)
            if let count = lines[thread]?.count, count > limit { lines[thread]?.removeFirst(count - limit) }
        }
    }

    /// Returns and clears the lines this thread's calls captured since its last drain.
    func drain() -> [String] {
        let thread = Self.thread
        return lines.withLock { $0.removeValue(forKey: thread) ?? [] }
    }
}
