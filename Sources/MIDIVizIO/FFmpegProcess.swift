import Foundation
import Synchronization

/// One ffmpeg child process (a `ChildProcess`): its stdin a pipe we write raw frames to, the
/// last lines of its stderr kept for the message when it fails (no log file), its progress
/// reports (`-progress pipe:1`) read as they come. The watchdog: if for `stallTimeoutSeconds`
/// ffmpeg neither accepts data nor reports progress (more frames, bytes or time), whether it is
/// taking frames or finishing on its own (a mux, the encoder's last frames), it is stopped and
/// the call throws `.ffmpegStalled`.
package final class FFmpegProcess: Sendable {
    private let child: ChildProcess
    private let inputDescriptor: Int32
    package let stallTimeoutSeconds: Double
    /// The bytes of each write copied into the pipe: its capacity and a page. The rest is
    /// spliced (see `PipeWriting.spliceAll`).
    private let copiedTail: Int
    /// The pipe's capacity (0: not known).
    private let capacity: Int
    /// Whether the last write was spliced whole (`write(_:untilNextWrite:)`).
    private let lastWasSplicedWhole = Mutex(false)
    /// Its progress reports, and when it last got further.
    private let progress = FFmpegProgressWatch()

    /// `path` as ffmpeg must be given it to read or write that file, whatever its name: `file:`
    /// and the path as it is. Without it a name such as `pipe:0` or `http:x.png` is a protocol,
    /// and `-x.mp4` an option.
    package static func file(_ path: String) -> String { "file:" + path }

    /// An ffmpeg line about the input `file(path)` without that name before it: messages name
    /// the file as the user gave it, not as ffmpeg was told it.
    package static func line(_ line: String, aboutFile path: String) -> String {
        let prefix = file(path) + ": "
        return line.hasPrefix(prefix) ? String(line.dropFirst(prefix.count)) : line
    }

    /// ffmpeg from `$MIDIVIZ_FFMPEG`, else the first on PATH.
    package static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) throws(VideoError) -> String {
        guard let path = ChildProcess.locate("ffmpeg", variable: "MIDIVIZ_FFMPEG", environment: environment) else { throw .ffmpegMissing }
        return path
    }

    /// Starts `ffmpeg -nostdin -loglevel error -y -progress pipe:1 ARGUMENTS`.
    /// - Parameter onProgress: called with each progress report, on a reader thread.
    package init(
        executable: String, arguments: [String], stallTimeoutSeconds: Double = 60,
        onProgress: (@Sendable (FFmpegProgress) -> Void)? = nil
    ) throws(VideoError) {
        self.stallTimeoutSeconds = stallTimeoutSeconds
        let progress = self.progress
        // Twice a second (ffmpeg's default), or a few times within a shorter stall timeout.
        let period = stallTimeoutSeconds < 2 ? ["-stats_period", String(format: "%.3f", max(0.05, stallTimeoutSeconds / 4))] : []
        do {
            child = try ChildProcess(
                executable: executable, arguments: ["-nostdin", "-loglevel", "error", "-y", "-progress", "pipe:1"] + period + arguments,
                writesInput: true,
                outputChunks: { chunk in
                    let reports = progress.feed(chunk)
                    if let onProgress { for report in reports { onProgress(report) } }
                })
        } catch {
            throw .ffmpegMissing
        }
        // A 1 MiB pipe costs far less system time per frame than the default 64 KiB.
        let descriptor = child.inputDescriptor ?? -1
        inputDescriptor = descriptor
        _ = fcntl(descriptor, PipeWriting.setPipeSize, 1 << 20)
        let capacity = fcntl(descriptor, PipeWriting.getPipeSize)
        self.capacity = max(0, Int(capacity))
        copiedTail = capacity > 0 ? Int(capacity) + Int(sysconf(Int32(_SC_PAGESIZE))) : Int.max
        // Non-blocking, so that a write never waits past the watchdog's poll.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    /// Whether ffmpeg is still running.
    package var isRunning: Bool { child.isRunning }

    /// Writes all of `bytes` to ffmpeg's stdin; they are the caller's again once this returns.
    /// With `untilNextWrite`, once the next `write` or `drain` has returned: bytes at least the
    /// pipe's capacity are then handed to the pipe by reference, none copied (when the next
    /// write has put as many after them, or the pipe is empty, ffmpeg has read them all).
    package func write(_ bytes: UnsafeRawBufferPointer, untilNextWrite: Bool = false) throws(VideoError) {
        guard let base = bytes.baseAddress else { return }
        let splicesWhole = untilNextWrite && capacity > 0 && bytes.count >= capacity
        // Fewer bytes after a whole splice would not push it all out of the pipe.
        if !splicesWhole, lastWasSplicedWhole.withLock({ $0 }) { try drain() }
        let written = PipeWriting.spliceAll(
            inputDescriptor, base, count: bytes.count, copiedTail: splicesWhole ? 0 : copiedTail, timeoutSeconds: stallTimeoutSeconds,
            moreSeconds: { self.secondsLeft(since: .now - .seconds(self.stallTimeoutSeconds)) })
        switch written {
        case .written:
            lastWasSplicedWhole.withLock { $0 = splicesWhole }
            return
        case .stalled:
            stop()
            throw .ffmpegStalled(seconds: stallTimeoutSeconds, doing: "accepted no frame")
        case .failed:
            // EPIPE: ffmpeg has gone; its own message says why.
            try finish()
            throw .ffmpegFailed(status: -1, lastLines: "it stopped reading frames")
        }
    }

    /// Waits until ffmpeg has read every byte handed over by reference (the pipe is empty, when
    /// the last write was spliced whole), while it runs and reports progress.
    package func drain() throws(VideoError) {
        // A write that copied its tail returned once every byte before it had been read.
        guard lastWasSplicedWhole.withLock({ $0 }) else { return }
        let start = ContinuousClock.now
        while child.isRunning {
            var unread: Int32 = 0
            guard ioctl(inputDescriptor, UInt(FIONREAD), &unread) == 0, unread > 0 else { break }
            guard secondsLeft(since: start) > 0 else {
                stop()
                throw .ffmpegStalled(seconds: stallTimeoutSeconds, doing: "read no more of the last frame")
            }
            usleep(500)
        }
        lastWasSplicedWhole.withLock { $0 = false }
    }

    /// Closes stdin and waits for ffmpeg to exit, as long as it reports progress; throws with its
    /// last stderr lines if it failed.
    package func finish() throws(VideoError) {
        child.closeInput()
        let closed = ContinuousClock.now
        var termination = child.waitForExit(timeoutSeconds: stallTimeoutSeconds)
        while termination == nil {
            let left = secondsLeft(since: closed)
            guard left > 0 else {
                stop()
                throw .ffmpegStalled(seconds: stallTimeoutSeconds, doing: "did not finish")
            }
            termination = child.waitForExit(timeoutSeconds: left)
        }
        guard let termination else { return }
        switch termination {
        case .exited(0): return
        case .exited(let status): throw .ffmpegFailed(status: status, lastLines: child.lastErrorLines(3).joined(separator: " | "))
        case .signalled(let signal): throw .ffmpegFailed(status: -1, lastLines: "killed by signal \(signal)")
        }
    }

    /// Stops ffmpeg (SIGTERM, then SIGKILL after a second) and waits for it. Safe from any thread.
    package func stop() { child.stop() }

    /// The seconds left before ffmpeg counts as stalled: the stall timeout from its last
    /// progress, or from `start` when that is later; 0 or less when it has stalled.
    private func secondsLeft(since start: ContinuousClock.Instant) -> Double {
        let idle = ContinuousClock.now - max(progress.advanced, start)
        let seconds = Double(idle.components.seconds) + Double(idle.components.attoseconds) / 1e18
        return stallTimeoutSeconds - seconds
    }
}
