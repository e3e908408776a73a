import Foundation

/// One child process (ffmpeg, ffprobe, any tool), started with an argument array, never a shell.
/// Its stdin is a pipe we write to or nothing; its stdout is read whole or discarded; the tail of
/// its stderr is kept by a reader thread. Its end is waited for, never polled: `waitForExit`
/// returns when the child has exited and both readers have reached the end of their pipes.
///
/// `@unchecked Sendable`: `Foundation.Process` is not Sendable; every access to it and to the
/// readers' buffers is under `lock` or after `exited` has been signalled.
package final class ChildProcess: @unchecked Sendable {
    /// How a child ended.
    package enum Termination: Sendable, Equatable {
        case exited(Int32)
        case signalled(Int32)
    }

    private let process = Process()
    private let input: Pipe?
    private let lock = NSLock()
    private var errorTail = Data()
    private var output = Data()
    /// Signalled once: the child has exited and both readers are done.
    private let exited = DispatchGroup()
    /// How much of stderr is kept: the last `errorTailBytes` (at least half that).
    private static let errorTailBytes = 16_384

    /// The path of `tool`: `$VARIABLE` when set (it must be executable), else the first on PATH.
    package static func locate(
        _ tool: String, variable: String,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String? {
        var name = tool
        if let path = environment[variable], !path.isEmpty {
            // A name without a slash is looked up on PATH, as a shell does.
            guard !path.contains("/") else { return isProgram(path) ? path : nil }
            name = path
        }
        for directory in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if isProgram(candidate) { return candidate }
        }
        return nil
    }

    /// An executable regular file, not a folder (which `isExecutableFile` also says yes to).
    private static func isProgram(_ path: String) -> Bool {
        RegularFile.problem(at: path) == nil && FileManager.default.isExecutableFile(atPath: path)
    }

    /// For a message that a tool is missing: what `variable` says when it is set (it then names
    /// no program), else nothing.
    package static func unrunnable(_ variable: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        guard let value = environment[variable], !value.isEmpty else { return "" }
        return "; \(variable)=\(value) names no program"
    }

    /// Starts `executable` with `arguments`.
    /// - Parameters:
    ///   - writesInput: give it a pipe on stdin (`inputDescriptor`), else /dev/null.
    ///   - inputBytes: give it these bytes on stdin, then its end (written by a thread of their
    ///     own; a child that stops reading them ends the writing, not this process).
    ///   - readsOutput: keep what it writes on stdout (`standardOutput`), else discard it.
    ///   - outputChunks: called with what it writes on stdout as it writes it, on a reader thread
    ///     (instead of keeping it).
    /// - Throws: when it cannot be started; the error says why.
    package init(
        executable: String, arguments: [String], writesInput: Bool = false, inputBytes: [UInt8]? = nil, readsOutput: Bool = false,
        outputChunks: (@Sendable (Data) -> Void)? = nil
    ) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        input = writesInput || inputBytes != nil ? Pipe() : nil
        process.standardInput = input ?? FileHandle.nullDevice
        let errors = Pipe()
        let out = readsOutput || outputChunks != nil ? Pipe() : nil
        process.standardOutput = out ?? FileHandle.nullDevice
        process.standardError = errors
        exited.enter()
        process.terminationHandler = { [exited] _ in exited.leave() }
        do {
            // Started with nothing blocked, from whichever thread: it stops when told to.
            try SignalMask.withNoneBlocked { try process.run() }
        } catch {
            exited.leave()
            throw error
        }
        // Both pipes are read as the child writes: a full pipe would stop it.
        let errorReader = errors.fileHandleForReading
        exited.enter()
        Thread.detachNewThread { [self] in
            while true {
                let chunk = errorReader.availableData
                if chunk.isEmpty { break }
                lock.withLock {
                    errorTail.append(chunk)
                    if errorTail.count > Self.errorTailBytes { errorTail.removeFirst(errorTail.count - Self.errorTailBytes / 2) }
                }
            }
            exited.leave()
        }
        if let out {
            let outputReader = out.fileHandleForReading
            exited.enter()
            Thread.detachNewThread { [self] in
                if let outputChunks {
                    while true {
                        let chunk = outputReader.availableData
                        if chunk.isEmpty { break }
                        outputChunks(chunk)
                    }
                } else {
                    let data = outputReader.readDataToEndOfFile()
                    lock.withLock { output = data }
                }
                exited.leave()
            }
        }
        if let inputBytes, let descriptor = inputDescriptor {
            signal(SIGPIPE, SIG_IGN)  // a child that stops reading is an error from write, not a signal
            Thread.detachNewThread { [self] in
                _ = inputBytes.withUnsafeBytes { bytes in
                    bytes.baseAddress.map { PipeWriting.writeAll(descriptor, $0, count: bytes.count, timeoutSeconds: 3600) }
                }
                closeInput()
            }
        }
    }

    /// The write end of its stdin; nil when it reads nothing.
    package var inputDescriptor: Int32? { input?.fileHandleForWriting.fileDescriptor }

    /// Closes its stdin: the end of its input.
    package func closeInput() { try? input?.fileHandleForWriting.close() }

    /// Whether it is still running.
    package var isRunning: Bool { process.isRunning }

    /// Waits until it has exited and its output has been read, at most `timeoutSeconds`
    /// (nil: as long as it takes). Nil when it is still running then.
    package func waitForExit(timeoutSeconds: Double? = nil) -> Termination? {
        if let timeoutSeconds {
            guard exited.wait(timeout: .now() + timeoutSeconds) == .success else { return nil }
        } else {
            exited.wait()
        }
        return process.terminationReason == .uncaughtSignal ? .signalled(process.terminationStatus) : .exited(process.terminationStatus)
    }

    /// Stops it (SIGTERM, then SIGKILL after a second) and waits for its end. Safe from any thread.
    /// The signals go to its process group, which Foundation's `Process` makes for each child on
    /// Linux: a wrapper script's own children stop with it.
    package func stop() {
        guard process.isRunning else { return }
        let pid = process.processIdentifier
        let target = getpgid(pid) == pid ? -pid : pid
        kill(target, SIGTERM)
        if waitForExit(timeoutSeconds: 1) == nil {
            kill(target, SIGKILL)
            _ = waitForExit()
        }
    }

    /// What it wrote on stdout (complete once it has exited).
    package var standardOutput: Data { lock.withLock { output } }

    /// The last `count` lines it wrote on stderr.
    package func lastErrorLines(_ count: Int) -> [String] {
        let text = lock.withLock { String(decoding: errorTail, as: UTF8.self) }
        return text.split(separator: "\n").suffix(count).map(String.init)
    }
}
