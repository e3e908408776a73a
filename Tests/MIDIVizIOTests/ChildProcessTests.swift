import Foundation
import MIDIVizIO
import Testing

/// One child process: its end waited for (not polled), its output and last words read in full
/// by then, a hung one stopped.
@Suite(.timeLimit(.minutes(30)))
struct ChildProcessTests {
    static let shell = "/bin/sh"

    /// A tool that writes a great deal on both pipes, then fails: its output is complete and its
    /// last stderr line is there as soon as `waitForExit` returns, every time.
    @Test(arguments: 0..<20)
    func outputAndLastWordsAreThereWhenItHasExited(round: Int) throws {
        let script = "head -c 300000 /dev/zero; i=0; while [ $i -lt 2000 ]; do echo line $i >&2; i=$((i+1)); done; echo 'last words' >&2; exit 3"
        let child = try ChildProcess(executable: Self.shell, arguments: ["-c", script], readsOutput: true)
        #expect(child.waitForExit() == .exited(3))
        #expect(child.standardOutput.count == 300_000)
        #expect(child.lastErrorLines(1) == ["last words"])
        #expect(child.lastErrorLines(2).first == "line 1999")
    }

    @Test func aChildStillRunningAfterTheTimeoutIsStopped() throws {
        let child = try ChildProcess(executable: Self.shell, arguments: ["-c", "exec sleep 30"])
        let started = Date()
        #expect(child.waitForExit(timeoutSeconds: 0.2) == nil)
        #expect(child.isRunning)
        child.stop()
        #expect(!child.isRunning)
        // SIGTERM, not SIGKILL a second later: the child starts with nothing blocked, whatever
        // the test's thread (a Dispatch worker) blocks (`aChildStartsWithNoSignalBlocked`).
        let termination = child.waitForExit(timeoutSeconds: 1)
        #expect(termination == .signalled(SIGTERM), "\(String(describing: termination))")
        #expect(Date().timeIntervalSince(started) < 5)
    }

    /// A child starts with no signal blocked, whatever the thread starting it blocks (a
    /// Dispatch worker, as in `batch`, blocks nearly all): else SIGTERM and SIGINT would not
    /// stop it. Read from its own `/proc/self/status`.
    @Test func aChildStartsWithNoSignalBlocked() throws {
        var all = sigset_t(), previous = sigset_t()
        sigfillset(&all)
        pthread_sigmask(SIG_BLOCK, &all, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        let child = try ChildProcess(executable: "/bin/cat", arguments: ["/proc/self/status"], readsOutput: true)
        // The thread's own mask is as it was.
        var current = sigset_t()
        pthread_sigmask(SIG_BLOCK, nil, &current)
        #expect(sigismember(&current, SIGTERM) == 1 && sigismember(&current, SIGINT) == 1)
        #expect(child.waitForExit() == .exited(0))
        let status = String(decoding: child.standardOutput, as: UTF8.self)
        let blocked = try #require(status.split(separator: "\n").first { $0.hasPrefix("SigBlk:") })
        #expect(UInt64(blocked.dropFirst("SigBlk:".count).trimmingCharacters(in: .whitespaces), radix: 16) == 0, "\(blocked)")
    }

    @Test func itsInputIsAPipeWeClose() throws {
        let child = try ChildProcess(executable: Self.shell, arguments: ["-c", "wc -c"], writesInput: true, readsOutput: true)
        let descriptor = try #require(child.inputDescriptor)
        let bytes = [UInt8](repeating: 65, count: 4096)
        #expect(bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == 4096)
        child.closeInput()
        #expect(child.waitForExit(timeoutSeconds: 10) == .exited(0))
        #expect(String(decoding: child.standardOutput, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "4096")
    }

    @Test func aMissingToolCannotStart() {
        #expect(throws: (any Error).self) { try ChildProcess(executable: "/nonexistent/tool", arguments: []) }
        #expect(ChildProcess.locate("sh", variable: "MIDIVIZ_TEST_NO_SUCH_VARIABLE") != nil)
        #expect(ChildProcess.locate("sh", variable: "X", environment: ["X": "/nonexistent/sh"]) == nil)
    }
}
