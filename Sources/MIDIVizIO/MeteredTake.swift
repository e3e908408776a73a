import Foundation
import Synchronization

/// One take of a normalization: the sound as it would be written (gain and limiter applied),
/// its loudness measured on a thread of its own while it is kept in an unnamed scratch file.
/// The take that meets the target has its true peak measured from the file (both channels at
/// once) and is written by copying it instead of making it again.
// @unchecked Sendable: owns a FILE handle, used by one thread at a time.
final class MeteredTake: SoundSink, @unchecked Sendable {
    let gainDB: Double
    let limiterThresholdDB: Double?
    private let meter: BackgroundMeter
    private var file: UnsafeMutablePointer<FILE>?
    private let path: String
    private let sampleRate: Int
    private var buffer: [Float] = []
    private(set) var framesWritten = 0

    /// The scratch file is made at `path` and unlinked at once: it goes with the take.
    init(gainDB: Double, limiterThresholdDB: Double?, path: String, sampleRate: Int) throws(AudioError) {
        self.gainDB = gainDB
        self.limiterThresholdDB = limiterThresholdDB
        self.path = path
        meter = try BackgroundMeter(sampleRate: sampleRate, truePeak: false)
        self.sampleRate = sampleRate
        guard let file = fopen(path, "w+b") else { throw .cannotWrite(path: path, reason: systemError()) }
        unlink(path)
        self.file = file
    }

    deinit { if let file { fclose(file) } }

    func append(left: UnsafePointer<Float>, right: UnsafePointer<Float>, count: Int) throws(AudioError) {
        if buffer.count < count * 2 { buffer = [Float](repeating: 0, count: count * 2) }
        let written = buffer.withUnsafeMutableBufferPointer { samples in
            for index in 0..<count {
                samples[2 * index] = left[index]
                samples[2 * index + 1] = right[index]
            }
            meter.add(interleaved: samples.baseAddress!, count: count)
            return fwrite(samples.baseAddress, 8, count, file)
        }
        guard written == count else { throw .cannotWrite(path: path, reason: systemError()) }
        framesWritten += count
    }

    func finish() throws(AudioError) {
        guard fflush(file) == 0 else { throw .cannotWrite(path: path, reason: systemError()) }
    }

    /// The take's integrated loudness, once every block is measured.
    func integratedLUFS() -> Double { meter.finish().integratedLUFS }

    /// The take's true peak in dBTP, each channel measured from the file on a thread of its own.
    func truePeakDBTP() throws(AudioError) -> Double {
        guard let file else { return -.infinity }
        let descriptor = fileno(file), frames = framesWritten, rate = sampleRate
        // Each thread feeds only its own meter.
        nonisolated(unsafe) let meters = [
            try LoudnessMeter(truePeakOfOneChannelAt: rate), try LoudnessMeter(truePeakOfOneChannelAt: rate),
        ]
        let failed = Atomic<Bool>(false)
        DispatchQueue.concurrentPerform(iterations: 2) { channel in
            if !Self.measure(channel: channel, of: descriptor, frames: frames, into: meters[channel]) {
                failed.store(true, ordering: .relaxed)
            }
        }
        if failed.load(ordering: .relaxed) { throw .cannotWrite(path: path, reason: "the kept sound could not be read back") }
        return LoudnessMeter.decibels(max(meters[0].truePeak, meters[1].truePeak))
    }

    /// Feeds one channel of the take's file (read with `pread`, so both channels can be read at
    /// once) into `meter`; false if the file ended early.
    private static func measure(channel: Int, of descriptor: Int32, frames: Int, into meter: LoudnessMeter) -> Bool {
        let block = 16_384
        var interleaved = [Float](repeating: 0, count: block * 2)
        var samples = [Float](repeating: 0, count: block)
        var done = 0
        while done < frames {
            let count = min(block, frames - done)
            let bytes = count * 8
            let read = interleaved.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, bytes, off_t(done * 8)) }
            guard read == bytes else { return false }
            for index in 0..<count { samples[index] = interleaved[2 * index + channel] }
            samples.withUnsafeBufferPointer { meter.add(interleaved: $0.baseAddress!, count: count) }
            done += count
        }
        return true
    }

    /// Whether the take is the sound that `gainDB` and `limiterThresholdDB` make.
    func isMade(gainDB: Double, limiterThresholdDB: Double?) -> Bool {
        self.gainDB == gainDB && self.limiterThresholdDB == limiterThresholdDB
    }

    /// Plays the take into `sink`, as it was taken, and finishes the sink.
    func play(into sink: some SoundSink, shouldStop: () -> Bool) throws(AudioError) {
        guard fseek(file, 0, SEEK_SET) == 0 else { throw .cannotWrite(path: path, reason: systemError()) }
        let block = 4096
        var interleaved = [Float](repeating: 0, count: block * 2)
        var left = [Float](repeating: 0, count: block), right = [Float](repeating: 0, count: block)
        var remaining = framesWritten
        while remaining > 0 {
            if shouldStop() { throw .stopped }
            let count = min(block, remaining)
            let read = interleaved.withUnsafeMutableBufferPointer { fread($0.baseAddress, 8, count, file) }
            guard read == count else { throw .cannotWrite(path: path, reason: "the kept sound ended early") }
            for index in 0..<count {
                left[index] = interleaved[2 * index]
                right[index] = interleaved[2 * index + 1]
            }
            try left.withUnsafeBufferPointer { l throws(AudioError) in
                try right.withUnsafeBufferPointer { r throws(AudioError) in
                    try sink.append(left: l.baseAddress!, right: r.baseAddress!, count: count)
                }
            }
            remaining -= count
        }
        try sink.finish()
    }
}
