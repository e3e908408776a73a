import Foundation

/// One ffmpeg child process (a `ChildProcess`): its stdin a pipe we write raw frames to, the
/// last lines of its stderr kept for the message when it fails (no log file). If ffmpeg accepts
/// no data for `stallTimeoutSeconds`, or does not exit that long after its input has ended, it is
/// stopped and the call throws `.ffmpegStalled`.
package final class FFmpegProcess: Sendable {
    private let child: ChildProcess
    private let inputDescriptor: Int32
    package let stallTimeoutSeconds: Double
    /// The bytes of each write copied into the pipe: its capacity and a page. The rest is
    /// spliced (see `PipeWriting.spliceAll`).
    private let copiedTail: Int

    /// ffmpeg from `$MIDIVIZ_FFMPEG`, else the first on PATH.
    package static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) throws(VideoError) -> String {
        guard let path = ChildProcess.locate("ffmpeg", variable: "MIDIVIZ_FFMPEG", environment: environment) else { throw .ffmpegMissing }
        return path
    }

    /// Starts `ffmpeg -nostdin -loglevel error -y ARGUMENTS`.
    package init(executable: String, arguments: [String], stallTimeoutSeconds: Double = 60) throws(VideoError) {
        self.stallTimeoutSeconds = stallTimeoutSeconds
        do {
            child = try ChildProcess(executable: executable, arguments: ["-nostdin", "-loglevel", "error", "-y"] + arguments, writesInput: true)
        } catch {
            throw .ffmpegMissing
        }
        // A 1 MiB pipe costs far less system time per frame than the default 64 KiB.
        let descriptor = child.inputDescriptor ?? -1
        inputDescriptor = descriptor
        _ = fcntl(descriptor, PipeWriting.setPipeSize, 1 << 20)
        let capacity = fcntl(descriptor, PipeWriting.getPipeSize)
        copiedTail = capacity > 0 ? Int(capacity) + Int(sysconf(Int32(_SC_PAGESIZE))) : Int.max
        // Non-blocking, so that a write never waits past the watchdog's poll.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    /// Whether ffmpeg is still running.
    package var isRunning: Bool { child.isRunning }

    /// Writes all of `bytes` to ffmpeg's stdin; they are the caller's again once this returns.
    package func write(_ bytes: UnsafeRawBufferPointer) throws(VideoError) {
        guard let base = bytes.baseAddress else { return }
        switch PipeWriting.spliceAll(inputDescriptor, base, count: bytes.count, copiedTail: copiedTail, timeoutSeconds: stallTimeoutSeconds) {
        case .written:
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

    /// Closes stdin and waits for ffmpeg to exit; throws with its last stderr lines if it failed.
    package func finish() throws(VideoError) {
        child.closeInput()
        guard let termination = child.waitForExit(timeoutSeconds: stallTimeoutSeconds) else {
            stop()
            throw .ffmpegStalled(seconds: stallTimeoutSeconds, doing: "did not finish")
        }
        switch termination {
        case .exited(0): return
        case .exited(let status): throw .ffmpegFailed(status: status, lastLines: child.lastErrorLines(3).joined(separator: " | "))
        case .signalled(let signal): throw .ffmpegFailed(status: -1, lastLines: "killed by signal \(signal)")
        }
    }

    /// Stops ffmpeg (SIGTERM, then SIGKILL after a second) and waits for it. Safe from any thread.
    package func stop() { child.stop() }
}
