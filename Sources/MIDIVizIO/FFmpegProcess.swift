import Foundation

/// One ffmpeg child process: started with an argument array (never a shell), its stdin a pipe
/// we write raw frames to, its stderr a file (an unread pipe would block it once full).
public final class FFmpegProcess: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let stderrPath: String
    private let lock = NSLock()

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

    /// Starts `ffmpeg -nostdin -loglevel error ARGUMENTS`, reading stdin only if `arguments` say so.
    public init(executable: String, arguments: [String]) throws(VideoError) {
        stderrPath = NSTemporaryDirectory() + "midiviz-ffmpeg-\(getpid())-\(UUID().uuidString).log"
        guard FileManager.default.createFile(atPath: stderrPath, contents: nil),
              let errorFile = FileHandle(forWritingAtPath: stderrPath) else {
            throw .cannotWrite(path: stderrPath, reason: "cannot create ffmpeg's log")
        }
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["-nostdin", "-loglevel", "error", "-y"] + arguments
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errorFile
        do {
            try process.run()
        } catch {
            unlink(stderrPath)
            throw .ffmpegMissing
        }
        try? errorFile.close()
        // A 1 MiB pipe costs far less system time per frame than the default 64 KiB.
        _ = fcntl(input.fileHandleForWriting.fileDescriptor, 1031 /* F_SETPIPE_SZ */, 1 << 20)
    }

    deinit { unlink(stderrPath) }

    /// Writes all of `bytes` to ffmpeg's stdin. The corresponding C function is `write`.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(VideoError) {
        let descriptor = input.fileHandleForWriting.fileDescriptor
        var offset = 0
        while offset < bytes.count {
            let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                // EPIPE: ffmpeg has gone; its own message says why.
                try finish()
                throw .ffmpegFailed(status: -1, lastLines: "it stopped reading frames")
            }
            offset += written
        }
    }

    /// Closes stdin and waits; throws with ffmpeg's last stderr lines if it failed.
    public func finish() throws(VideoError) {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw .ffmpegFailed(status: process.terminationStatus, lastLines: lastLines())
        }
    }

    /// Stops ffmpeg (SIGTERM, then SIGKILL after a second) and waits for it.
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
        let text = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(3).joined(separator: " | ")
    }
}
