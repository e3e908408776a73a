import Foundation
import Synchronization

/// Progress: a one-line bar on stderr when it is a terminal (frames done, rate, ETA), or one
/// JSON line a second on stdout for scripts.
final class ProgressReporter: Sendable {
    private let enabled: Bool
    private let json: Bool
    private let started = Date()
    /// When the last line was printed, and whether a bar is on the terminal.
    private let shown = Mutex<(lastPrint: Date, printed: Bool)>((.distantPast, false))

    init(style: ProgressStyle?) {
        json = style == .json
        enabled = style == .json || (style == .bar && isatty(STDERR_FILENO) == 1)
    }

    func update(done: Int, of total: Int) {
        guard enabled else { return }
        shown.withLock { shown in print(done: done, of: total, shown: &shown) }
    }

    private func print(done: Int, of total: Int, shown: inout (lastPrint: Date, printed: Bool)) {
        let now = Date()
        guard now.timeIntervalSince(shown.lastPrint) >= (json ? 1 : 0.2) || (done == total && !json) else { return }
        shown.lastPrint = now
        let elapsed = now.timeIntervalSince(started)
        let rate = Double(done) / max(elapsed, 1e-9)
        let eta = rate > 0 ? Double(total - done) / rate : 0
        if json {
            Swift.print(
                String(format: "{\"frames_done\": %d, \"frames\": %d, \"fps\": %.1f, \"elapsed_s\": %.1f, \"eta_s\": %.1f}", done, total, rate, elapsed, eta))
            fflush(nil)  // all streams: `stdout` is a C global Swift 6 will not read
            return
        }
        let width = 30, filled = total > 0 ? width * done / total : width
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        FileHandle.standardError.write(Data(String(format: "\r[%@] %d/%d frames  %.1f fps  ETA %.0f s ", bar, done, total, rate, eta).utf8))
        shown.printed = true
    }

    func finish() {
        shown.withLock { shown in
            if shown.printed && !json { FileHandle.standardError.write(Data("\n".utf8)) }
            shown.printed = false
        }
    }
}
