import Dispatch
import Foundation
import MIDIVizIO

/// On SIGINT, SIGTERM or SIGHUP, runs a cleanup and exits with 130, 143 or 129 (128 + the signal),
/// unless the cleanup finds the work already finished (its outputs committed): then the signal
/// came too late to interrupt anything, and the command ends as it would have. The work it
/// interrupts may fail on its own meanwhile (ffmpeg gone, a broken pipe, a call cut short):
/// such a failure must call `yieldIfInterrupted()`, so that the exit status is the signal's and
/// the cleanup finishes. The signals come through `SignalPipe`, one pipe for the process: make
/// one at a time, on the main thread (`cancel` gives the signals their default action again).
// @unchecked Sendable: Dispatch's sources are not Sendable; `received` is under `lock`, `source`
// is set and cleared (by `cancel`) on the main thread, and its handler does not use it.
final class Interruption: @unchecked Sendable {
    private var source: DispatchSourceRead?
    private let lock = NSLock()
    private var received: Int32?

    static let signals = [SIGINT, SIGTERM, SIGHUP]

    /// - Parameter cleanup: stops the work; returns whether it had already finished.
    init(cleanup: @escaping @Sendable (Int32) -> Bool) {
        // Without the pipe (no descriptor left) the signals keep their default action.
        guard let descriptor = SignalPipe.route(Self.signals) else { return }
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: .global())
        source.setEventHandler { [self] in
            guard let signalNumber = SignalPipe.take(from: descriptor) else { return }
            lock.lock()
            received = signalNumber
            lock.unlock()
            if cleanup(signalNumber) {
                lock.lock()
                received = nil
                lock.unlock()
                return
            }
            exit(128 + signalNumber)
        }
        source.resume()
        self.source = source
    }

    /// If a signal has arrived, waits for its handler to clean up and exit; returns otherwise.
    func yieldIfInterrupted() {
        lock.lock()
        let interrupted = received != nil
        lock.unlock()
        guard interrupted else { return }
        while true { pause() }
    }

    func cancel() {
        source?.cancel()
        source = nil
        SignalPipe.restoreDefaults(Self.signals)
    }
}

extension Interruption {
    /// Runs `body`, which may run the score tools (reading a score, engraving sheet music), so
    /// that a signal stops them, removes their temporary folders (`ToolRuns.stopAll()`) and
    /// exits with 128 + the signal, as a render does.
    static func stoppingScoreTools<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        let interruption = Interruption { _ in
            ToolRuns.shared.stopAll()
            return false
        }
        defer { interruption.cancel() }
        do {
            return try body()
        } catch {
            // A tool stopped by the signal fails the body: the handler exits meanwhile.
            interruption.yieldIfInterrupted()
            throw error
        }
    }
}
