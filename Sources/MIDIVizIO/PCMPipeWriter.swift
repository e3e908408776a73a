import Foundation

/// Streams 16-bit little-endian stereo PCM into a FIFO that an encoder (ffmpeg) reads, so the
/// sound is encoded while it is being made. Opening waits for the reader; each write waits at
/// most `stallTimeoutSeconds` for room. The corresponding C functions are `open`, `poll`,
/// `write` and `close`.
public final class PCMPipeWriter: SoundSink {
    private let path: String
    private var descriptor: Int32 = -1
    private let stallTimeoutSeconds: Double
    public private(set) var framesWritten = 0
    private var buffer: [Int16] = []

    /// Opens the FIFO at `path` for writing once a reader has it open.
    /// - Parameter shouldStop: asked while waiting; yes throws `.stopped`.
    public init(fifo path: String, stallTimeoutSeconds: Double, shouldStop: () -> Bool) throws(AudioError) {
        self.path = path
        self.stallTimeoutSeconds = stallTimeoutSeconds
        let deadline = Date().addingTimeInterval(stallTimeoutSeconds)
        while true {
            descriptor = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
            if descriptor >= 0 { break }
            guard errno == ENXIO || errno == EINTR else { throw .cannotWrite(path: path, reason: String(cString: strerror(errno))) }
            if shouldStop() { throw .stopped }
            guard Date() < deadline else { throw .encoderStalled(seconds: stallTimeoutSeconds) }
            usleep(2_000)
        }
        _ = fcntl(descriptor, 1031 /* F_SETPIPE_SZ */, 1 << 20)
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    public func append(left: UnsafePointer<Float>, right: UnsafePointer<Float>, count: Int) throws(AudioError) {
        if buffer.count < count * 2 { buffer = [Int16](repeating: 0, count: count * 2) }
        let bytes = count * 4
        let failure: AudioError? = buffer.withUnsafeMutableBufferPointer { samples in
            for index in 0..<count {
                samples[2 * index] = WAVWriter.sample(left[index]).littleEndian
                samples[2 * index + 1] = WAVWriter.sample(right[index]).littleEndian
            }
            let raw = UnsafeRawPointer(samples.baseAddress!)
            var offset = 0
            while offset < bytes {
                var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                let polled = poll(&ready, 1, Int32(min(stallTimeoutSeconds * 1000, Double(Int32.max))))
                if polled < 0 && errno == EINTR { continue }
                if polled == 0 { return .encoderStalled(seconds: stallTimeoutSeconds) }
                let written = write(descriptor, raw + offset, bytes - offset)
                if written < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    return errno == EPIPE ? .encoderGone : .cannotWrite(path: path, reason: String(cString: strerror(errno)))
                }
                offset += written
            }
            return nil
        }
        if let failure { throw failure }
        framesWritten += count
    }

    /// Closes the FIFO: the encoder sees the end of the sound.
    public func finish() throws(AudioError) {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
    }
}
