import Foundation

/// Writing to a pipe whose reader may stop reading: the descriptor is non-blocking and each
/// wait for room lasts at most `timeoutSeconds`. The corresponding C functions are `poll` and
/// `write`.
enum PipeWriting {
    enum Outcome {
        case written
        /// No room for `timeoutSeconds`.
        case stalled
        /// `write` failed with this `errno` (`EPIPE`: the reader has gone).
        case failed(errno: Int32)
    }

    static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawPointer, count: Int, timeoutSeconds: Double) -> Outcome {
        var offset = 0
        while offset < count {
            var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            let polled = poll(&ready, 1, Int32(min(timeoutSeconds * 1000, Double(Int32.max))))
            if polled < 0 && errno == EINTR { continue }
            if polled == 0 { return .stalled }
            let written = write(descriptor, bytes + offset, count - offset)
            if written < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return .failed(errno: errno)
            }
            offset += written
        }
        return .written
    }
}
