import Foundation

/// Runs a program to completion and captures what it printed.
enum ProcessRunner {
    struct Result {
        var status: Int32
        /// True when the process was killed by a signal (abort, segfault) rather than exiting.
        var signaled: Bool
        var stdout: Data
        var stderr: String
        var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    }

    static func run(
        _ executable: URL, _ arguments: [String], currentDirectory: URL? = nil,
        environment: [String: String] = [:]
    ) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        // stderr goes to a file: an unread pipe would block the child once it fills.
        let errURL = FileManager.default.temporaryDirectory.appendingPathComponent("midiviz-test-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errURL) }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = try FileHandle(forWritingTo: errURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errData = (try? Data(contentsOf: errURL)) ?? Data()
        return Result(
            status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal,
            stdout: outData, stderr: String(decoding: errData, as: UTF8.self))
    }

    static func midiviz(_ arguments: [String], currentDirectory: URL? = nil, environment: [String: String] = [:]) throws -> Result {
        try run(TestEnvironment.binary, arguments, currentDirectory: currentDirectory, environment: environment)
    }
}

extension ProcessRunner {
    /// Starts `process` with SIGINT, SIGTERM and SIGHUP blocked or not in its first thread: a
    /// child starts with the mask of the thread that spawns it (Foundation's `Process` sets none),
    /// unblocked from a shell, blocked from a thread of a Dispatch queue (as a test's may be).
    /// Returns whether all three were blocked when it was spawned (nil: only some).
    @discardableResult
    static func start(_ process: Process, signalsBlocked: Bool) throws -> Bool? {
        var signals = sigset_t()
        sigemptyset(&signals)
        for number in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&signals, number) }
        var previous = sigset_t()
        pthread_sigmask(signalsBlocked ? SIG_BLOCK : SIG_UNBLOCK, &signals, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        var current = sigset_t()
        pthread_sigmask(SIG_BLOCK, nil, &current)
        let blocked = Set([SIGINT, SIGTERM, SIGHUP].map { sigismember(&current, $0) == 1 })
        try process.run()
        return blocked.count == 1 ? blocked.first : nil
    }
}
