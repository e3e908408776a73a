import CPipe
import Glibc

/// Signals as bytes on a pipe, to be read where it is safe to act on them: a signal handler may
/// do almost nothing, so it only writes the signal's number. The pipe lasts as long as the
/// process. The corresponding C functions are `pipe2`, `sigaction` and `pthread_sigmask`.
///
/// A handler, unlike `SIG_IGN` with a Dispatch signal source (a `signalfd` on Linux), works
/// whatever the threads block: the kernel drops an ignored signal that the thread it is sent to
/// does not block, before any `signalfd` sees it.
package enum SignalPipe {
    /// The pipe's read end, with each of `signals` written to it as it arrives; nil if the pipe
    /// or a handler could not be set up (the signals then keep their default action). Call it
    /// from the main thread: that thread stops blocking them.
    package static func route(_ signals: [Int32]) -> Int32? {
        let descriptor = midiviz_signal_pipe()
        guard descriptor >= 0 else { return nil }
        for number in signals {
            guard midiviz_route_signal_to_pipe(number) == 0 else {
                restoreDefaults(signals)
                return nil
            }
        }
        return descriptor
    }

    /// Gives `signals` their default action again.
    package static func restoreDefaults(_ signals: [Int32]) {
        for number in signals { _ = midiviz_restore_default_signal(number) }
    }

    /// The first signal waiting on the pipe at `descriptor`, reading every one there; nil if
    /// none is.
    package static func take(from descriptor: Int32) -> Int32? {
        var bytes = [UInt8](repeating: 0, count: 16)
        var first: Int32?
        while true {
            let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return first }
            if first == nil { first = Int32(bytes[0]) }
        }
    }
}
