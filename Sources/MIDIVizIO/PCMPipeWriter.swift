import Foundation

/// Streams 16-bit little-endian stereo PCM into a FIFO that an encoder (ffmpeg) reads, so the
/// sound is encoded while it is being made. Opening waits for the reader; each write waits at
/// most `stallTimeoutSeconds` for room. The corresponding C functions are `open` and `close`.
package final class PCMPipeWriter: SoundSink {
    private let path: String
    private var descriptor: Int32 = -1
    private let stallTimeoutSeconds: Double
    package private(set) var framesWritten = 0
    private var buffer: [Int16] = []

    /// Opens the FIFO at `path` for writing once a reader has it open.
    /// - Parameter shouldStop: asked while waiting; yes throws `.stopped`.
    package init(fifo path: String, stallTimeoutSeconds: Double, shouldStop: () -> Bool) throws(AudioError) {
        self.path = path
        self.stallTimeoutSeconds = stallTimeoutSeconds
        let deadline = Date().addingTimeInterval(stallTimeoutSeconds)
        while true {
            descriptor = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
            if descriptor >= 0 { break }
            guard errno == ENXIO || errno == EINTR else { throw .cannotWrite(path: path, reason: systemError()) }
            if shouldStop() { throw .stopped }
            guard Date() < deadline else { throw .encoderStalled(seconds: stallTimeoutSeconds) }
            usleep(2_000)
        }
        _ = fcntl(descriptor, PipeWriting.setPipeSize, 1 << 20)
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    package func append(left: UnsafePointer<Float>, right: UnsafePointer<Float>, count: Int) throws(AudioError) {
        WAVWriter.interleave(left: left, right: right, count: count, into: &buffer)
        let outcome = buffer.withUnsafeBytes {
            PipeWriting.writeAll(descriptor, $0.baseAddress!, count: count * 4, timeoutSeconds: stallTimeoutSeconds)
        }
        switch outcome {
        case .written: framesWritten += count
        case .stalled: throw .encoderStalled(seconds: stallTimeoutSeconds)
        case .failed(let code) where code == EPIPE: throw .encoderGone
        case .failed(let code): throw .cannotWrite(path: path, reason: systemError(code))
        }
    }

    /// Closes the FIFO: the encoder sees the end of the sound.
    package func finish() throws(AudioError) {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
    }
}
