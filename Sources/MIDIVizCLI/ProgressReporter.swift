import Foundation

/// Progress: a one-line bar on stderr when it is a terminal (frames done, rate, ETA), or one
/// JSON line a second on stdout for scripts.
final class ProgressReporter: @unchecked Sendable {
    private var total = 0
    private let enabled: Bool
    private let json: Bool
    private let started = Date()
    private let lock = NSLock()
    private var lastPrint = Date.distantPast
    private var printed = false

    init(style: ProgressStyle?) {
        json = style == .json
        enabled = style == .json || (style == .bar && isatty(STDERR_FILENO) == 1)
    }

    func update(done: Int, of total: Int) {
        guard enabled else { return }
        lock.lock()
        defer { lock.unlock() }
        self.total = total
        let now = Date()
        guard now.timeIntervalSince(lastPrint) >= (json ? 1 : 0.2) || (done == total && !json) else { return }
        lastPrint = now
        let elapsed = now.timeIntervalSince(started)
        let rate = Double(done) / max(elapsed, 1e-9)
        let eta = rate > 0 ? Double(total - done) / rate : 0
        if json {
            print(String(format: "{\"frames_done\": %d, \"frames\": %d, \"fps\": %.1f, \"elapsed_s\": %.1f, \"eta_s\": %.1f}", done, total, rate, elapsed, eta))
            fflush(stdout)
            return
        }
        let width = 30, filled = total > 0 ? width * done / total : width
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        FileHandle.standardError.write(Data(String(format: "\r[%@] %d/%d frames  %.1f fps  ETA %.0f s ", bar, done, total, rate, eta).utf8))
        printed = true
    }

    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if printed && !json { FileHandle.standardError.write(Data("\n".utf8)) }
        printed = false
    }
}
