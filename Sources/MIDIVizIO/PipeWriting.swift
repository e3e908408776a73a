import CPipe
import Foundation

/// Writing to a pipe whose reader may stop reading: the descriptor is non-blocking and each
/// wait for room lasts at most `timeoutSeconds`. The corresponding C functions are `poll`,
/// `write` and `vmsplice`.
enum PipeWriting {
    /// `fcntl`'s `F_SETPIPE_SZ` and `F_GETPIPE_SZ` (Linux), which Glibc's Swift module leaves out.
    static let setPipeSize: Int32 = 1031
    static let getPipeSize: Int32 = 1032

    enum Outcome {
        case written
        /// No room for `timeoutSeconds`.
        case stalled
        /// `write` failed with this `errno` (`EPIPE`: the reader has gone).
        case failed(errno: Int32)
    }

    /// Writes `count` bytes, handing all but the last `copiedTail` to the pipe by reference
    /// (`vmsplice`) and copying that tail (`write`). When `copiedTail` is at least the pipe's
    /// capacity, the tail fills the whole pipe before this returns, so the reader has read every
    /// spliced byte by then: the caller may change `bytes` as soon as this returns. Splicing
    /// spares the copy into the pipe and the pipe's fresh pages (zeroed by the kernel).
    /// - Parameter moreSeconds: asked when there has been no room for `timeoutSeconds`: how much
    ///   longer to wait (the reader is busy but getting on), or 0 or less to give up.
    static func spliceAll(
        _ descriptor: Int32, _ bytes: UnsafeRawPointer, count: Int, copiedTail: Int,
        timeoutSeconds: Double, moreSeconds: () -> Double = { 0 }
    ) -> Outcome {
        var spliced = max(0, count - copiedTail)
        var offset = 0
        var timeout = timeoutSeconds
        while offset < count {
            var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            let polled = poll(&ready, 1, Int32(min(max(timeout, 0.001) * 1000, Double(Int32.max))))
            if polled < 0 && errno == EINTR { continue }
            if polled == 0 {
                timeout = moreSeconds()
                if timeout > 0 { continue }
                return .stalled
            }
            timeout = timeoutSeconds
            let splicing = offset < spliced
            let taken =
                splicing
                ? midiviz_vmsplice(descriptor, bytes + offset, spliced - offset)
                : write(descriptor, bytes + offset, count - offset)
            if taken < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                if splicing && (errno == EINVAL || errno == ENOSYS) {  // not a pipe: write the rest
                    spliced = offset
                    continue
                }
                return .failed(errno: errno)
            }
            offset += taken
        }
        return .written
    }

    /// Writes `count` bytes, all copied.
    static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawPointer, count: Int, timeoutSeconds: Double) -> Outcome {
        spliceAll(descriptor, bytes, count: count, copiedTail: count, timeoutSeconds: timeoutSeconds)
    }
}
