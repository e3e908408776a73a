import Foundation

/// One ffmpeg child process: started with an argument array (never a shell), its stdin a pipe
/// we write raw frames to, its stderr a pipe whose last lines a reader thread keeps (no log
/// file). If ffmpeg accepts no data for `stallTimeoutSeconds`, or does not exit that long after
/// its input has ended, it is stopped and the call throws `.ffmpegStalled`.
public final class FFmpegProcess: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let errors = Pipe()
    private let lock = NSLock()
    private var errorText = Data()
    public let stallTimeoutSeconds: Double
    /// The bytes of each write copied into the pipe: its capacity and a page. The rest is
    /// spliced (see `PipeWriting.spliceAll`).
    private var copiedTail = Int.max

    /// ffmpeg from `$MIDIVIZ_FFMPEG`, else the first on PATH.
    public static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) throws(VideoError) -> String {
        if let path = environment["MIDIVIZ_FFMPEG"], !path.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: path) else { throw .ffmpegMissing }
            return path
        }
        for directory in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(directory)/ffmpeg"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw .ffmpegMissing
    }

    /// Starts `ffmpeg -nostdin -loglevel error -y ARGUMENTS`.
    public init(executable: String, arguments: [String], stallTimeoutSeconds: Double = 60) throws(VideoError) {
        self.stallTimeoutSeconds = stallTimeoutSeconds
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["-nostdin", "-loglevel", "error", "-y"] + arguments
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        do {
            try process.run()
        } catch {
            throw .ffmpegMissing
        }
        // Keep the tail of what ffmpeg says; reading also keeps it from blocking on a full pipe.
        let reader = errors.fileHandleForReading
        Thread.detachNewThread { [self] in
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                lock.lock()
                errorText.append(chunk)
                if errorText.count > 16_384 { errorText.removeFirst(errorText.count - 8_192) }
                lock.unlock()
            }
        }
        // A 1 MiB pipe costs far less system time per frame than the default 64 KiB.
        let descriptor = input.fileHandleForWriting.fileDescriptor
        _ = fcntl(descriptor, 1031 /* F_SETPIPE_SZ */, 1 << 20)
        let capacity = fcntl(descriptor, 1032 /* F_GETPIPE_SZ */)
        if capacity > 0 { copiedTail = Int(capacity) + Int(sysconf(Int32(_SC_PAGESIZE))) }
        // Non-blocking, so that a write never waits past the watchdog's poll.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    /// Whether ffmpeg is still running.
    public var isRunning: Bool { process.isRunning }

    /// Writes all of `bytes` to ffmpeg's stdin; they are the caller's again once this returns.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(VideoError) {
        switch PipeWriting.spliceAll(input.fileHandleForWriting.fileDescriptor, bytes.baseAddress!, count: bytes.count,
                                     copiedTail: copiedTail, timeoutSeconds: stallTimeoutSeconds) {
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
    public func finish() throws(VideoError) {
        try? input.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(stallTimeoutSeconds)
        while process.isRunning && Date() < deadline { usleep(5_000) }
        if process.isRunning {
            stop()
            throw .ffmpegStalled(seconds: stallTimeoutSeconds, doing: "did not finish")
        }
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            usleep(20_000)  // let the reader take ffmpeg's last words
            if process.terminationReason == .uncaughtSignal {
                throw .ffmpegFailed(status: -1, lastLines: "killed by signal \(process.terminationStatus)")
            }
            throw .ffmpegFailed(status: process.terminationStatus, lastLines: lastLines())
        }
    }

    /// Stops ffmpeg (SIGTERM, then SIGKILL after a second) and waits for it. Safe from any thread.
    public func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(1)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    private func lastLines() -> String {
        lock.lock()
        let text = String(decoding: errorText, as: UTF8.self)
        lock.unlock()
        return text.split(separator: "\n").suffix(3).joined(separator: " | ")
    }
}
