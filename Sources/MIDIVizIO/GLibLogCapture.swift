import CSMF
import Foundation

/// Routes GLib log lines (libsmf reports through `g_critical`/`g_warning`) into a buffer instead
/// of the terminal, so they reach the user as our warnings. The corresponding C function is
/// `g_log_set_default_handler`.
enum GLibLogCapture {
    static let lines = CapturedLines()
    /// Installs the handler once per process (a lazy static runs once, thread-safely).
    private static let installation: Void = {
        _ = g_log_set_default_handler(
            { domain, _, message, _ in
                let text = message.map { String(cString: $0) } ?? ""
                let prefix = domain.map { String(cString: $0) + ": " } ?? ""
                GLibLogCapture.lines.append(prefix + text)
            }, nil)
    }()

    static func install() { _ = installation }

    static func drain() -> [String] { lines.drain() }
}
