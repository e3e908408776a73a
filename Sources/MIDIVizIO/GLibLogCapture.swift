import CSMF
import Foundation

/// Routes GLib log lines (libsmf reports through `g_critical`/`g_warning`) into a buffer instead
/// of the terminal, so they reach the user as our warnings. The corresponding C function is
/// `g_log_set_default_handler`.
enum GLibLogCapture {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var lines: [String] = []
    nonisolated(unsafe) private static var isInstalled = false

    /// Installs the handler once per process.
    static func install() {
        lock.lock()
        defer { lock.unlock() }
        guard !isInstalled else { return }
        isInstalled = true
        _ = g_log_set_default_handler({ domain, _, message, _ in
            let text = message.map { String(cString: $0) } ?? ""
            let prefix = domain.map { String(cString: $0) + ": " } ?? ""
            GLibLogCapture.append(prefix + text)
        }, nil)
    }

    private static func append(_ line: String) {
        lock.lock()
        lines.append(line)
        lock.unlock()
    }

    /// Returns and clears the lines logged since the last call.
    static func drain() -> [String] {
        lock.lock()
        defer { lines.removeAll(); lock.unlock() }
        return lines
    }
}
