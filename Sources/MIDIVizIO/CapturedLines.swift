import Foundation

/// Log lines a C library printed, kept off the terminal: appended from any thread, drained by
/// the code that asks whether the last call failed. Keeps at most `limit` lines.
final class CapturedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    private let limit: Int

    init(limit: Int = 100) { self.limit = limit }

    func append(_ line: String) {
        lock.lock()
        lines.append(line)
        if lines.count > limit { lines.removeFirst(lines.count - limit) }
        lock.unlock()
    }

    /// Returns and clears the lines captured since the last call.
    func drain() -> [String] {
        lock.lock()
        defer { lines.removeAll(); lock.unlock() }
        return lines
    }
}
