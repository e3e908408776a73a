import Foundation
import MIDIVizEngine
import Synchronization

/// Progress: a one-line bar on stderr when it is a terminal (frames done, rate, ETA; then the
/// mux of the video with its sound, in seconds), or one JSON line a second on stdout for scripts.
final class ProgressReporter: Sendable {
    private let enabled: Bool
    private let json: Bool
    private let started = Date()
    /// When the last line was printed, whether a bar is on the terminal, and when muxing began.
    private let shown = Mutex<(lastPrint: Date, printed: Bool, muxingSince: Date?)>((.distantPast, false, nil))

    init(style: ProgressStyle?) {
        json = style == .json
        enabled = style == .json || (style == .bar && isatty(STDERR_FILENO) == 1)
    }

    func update(_ progress: RenderProgress) {
        guard enabled else { return }
        shown.withLock { shown in
            switch progress.stage {
            case .frames: print(done: progress.framesDone, of: progress.frames, shown: &shown)
            case .muxing: printMuxing(progress, shown: &shown)
            }
        }
    }

    private func print(done: Int, of total: Int, shown: inout (lastPrint: Date, printed: Bool, muxingSince: Date?)) {
        let now = Date()
        guard now.timeIntervalSince(shown.lastPrint) >= (json ? 1 : 0.2) || (done == total && !json) else { return }
        shown.lastPrint = now
        let elapsed = now.timeIntervalSince(started)
        let rate = Double(done) / max(elapsed, 1e-9)
        let eta = rate > 0 ? Double(total - done) / rate : 0
        if json {
            Swift.print(
                String(
                    format: "{\"stage\": \"frames\", \"frames_done\": %d, \"frames\": %d, \"fps\": %.1f, \"elapsed_s\": %.1f, \"eta_s\": %.1f}",
                    done, total, rate, elapsed, eta))
            fflush(nil)  // all streams: `stdout` is a C global Swift 6 will not read
            return
        }
        let bar = Self.bar(total > 0 ? Double(done) / Double(total) : 1)
        FileHandle.standardError.write(Data(String(format: "\r[%@] %d/%d frames  %.1f fps  ETA %.0f s ", bar, done, total, rate, eta).utf8))
        shown.printed = true
    }

    /// The mux at the end: how many of the video's seconds are put together with the sound.
    /// Its first report is printed at once, so the change of stage shows.
    private func printMuxing(_ progress: RenderProgress, shown: inout (lastPrint: Date, printed: Bool, muxingSince: Date?)) {
        let now = Date()
        let first = shown.muxingSince == nil
        let since = shown.muxingSince ?? now
        shown.muxingSince = since
        guard first || now.timeIntervalSince(shown.lastPrint) >= (json ? 1 : 0.2) else { return }
        shown.lastPrint = now
        let done = progress.muxedSeconds, total = progress.durationSeconds
        let rate = done / max(now.timeIntervalSince(since), 1e-9)
        let eta = rate > 0 ? max(0, total - done) / rate : 0
        if json {
            Swift.print(
                String(
                    format:
                        "{\"stage\": \"muxing\", \"frames_done\": %d, \"frames\": %d, \"muxed_s\": %.1f, \"duration_s\": %.1f, \"elapsed_s\": %.1f, \"eta_s\": %.1f}",
                    progress.framesDone, progress.frames, done, total, now.timeIntervalSince(started), eta))
            fflush(nil)
            return
        }
        let bar = Self.bar(total > 0 ? done / total : 1)
        FileHandle.standardError.write(Data(String(format: "\r[%@] muxing %.1f/%.1f s  ETA %.0f s       ", bar, done, total, eta).utf8))
        shown.printed = true
    }

    private static func bar(_ fraction: Double) -> String {
        let width = 30, filled = max(0, min(width, Int(Double(width) * fraction)))
        return String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
    }

    func finish() {
        shown.withLock { shown in
            if shown.printed && !json { FileHandle.standardError.write(Data("\n".utf8)) }
            shown.printed = false
        }
    }
}
