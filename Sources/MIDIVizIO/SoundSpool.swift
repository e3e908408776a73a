import Foundation
import Synchronization

/// Keeps a sound aside while measuring its loudness, then plays it once into a sink with a
/// gain: the whole sound must be measured before any of it can be normalized. The samples go
/// to a scratch file as interleaved 32-bit floats (a long song would not fit in memory).
/// The corresponding C functions are `fopen`, `fwrite`, `fread` and `fclose`.
// @unchecked Sendable: owns a FILE handle, used by one thread at a time (written by the
// sound's thread, then read back by the render once that thread has ended).
package final class SoundSpool: SoundSink, @unchecked Sendable {
    private let path: String
    private var file: UnsafeMutablePointer<FILE>?
    /// Measures the sound as it is kept, on a thread of its own.
    private let meter: BackgroundMeter
    /// The limited take that normalization settled on, written by copying it.
    private var take: MeteredTake?
    package let sampleRate: Int
    private var buffer: [Float] = []
    package private(set) var framesWritten = 0

    /// Creates (or empties) the scratch file at `path`; the caller removes it.
    /// - Parameter truePeak: measure the kept sound's true peak as it comes, besides its loudness.
    package init(path: String, sampleRate: Int, truePeak: Bool = true) throws(AudioError) {
        self.path = path
        meter = try BackgroundMeter(sampleRate: sampleRate, truePeak: truePeak)
        self.sampleRate = sampleRate
        guard let file = fopen(path, "w+b") else { throw .cannotWrite(path: path, reason: systemError()) }
        self.file = file
    }

    /// The loudness (and true peak, if asked) of everything kept, once it is all measured.
    func measurement() -> LoudnessMeter { meter.finish() }

    /// The kept sound's true peak in dBTP, each channel scanned from the file (`TruePeakScan`) on
    /// a thread of its own.
    func truePeakOfFileDBTP() throws(AudioError) -> Double {
        guard let file else { return -.infinity }
        let descriptor = fileno(file), frames = framesWritten, rate = sampleRate
        let peaks = Mutex<[Double?]>([nil, nil])
        let failure = Mutex<AudioError?>(nil)
        DispatchQueue.concurrentPerform(iterations: 2) { channel in
            do throws(AudioError) {
                let scan = try TruePeakScan.truePeak(channel: channel, of: descriptor, frames: frames, sampleRate: rate)
                peaks.withLock { $0[channel] = scan?.peak }
            } catch {
                failure.withLock { $0 = error }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        let found = peaks.withLock { $0 }
        guard let left = found[0], let right = found[1] else {
            throw .cannotWrite(path: path, reason: "the kept sound could not be read back")
        }
        return LoudnessMeter.decibels(max(left, right))
    }

    deinit { if let file { fclose(file) } }

    package func append(left: UnsafePointer<Float>, right: UnsafePointer<Float>, count: Int) throws(AudioError) {
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

    package func finish() throws(AudioError) {
        guard fflush(file) == 0 else { throw .cannotWrite(path: path, reason: systemError()) }
    }

    /// The gain (and, if the gain alone would pass the true-peak ceiling, the limiting) that
    /// brings the kept sound to `target`: measured (again with the gain, near EBU R128's gate),
    /// then, when limited, measured again through the limiter and corrected until it is within
    /// 0.05 LU of the target under the ceiling, or until more gain brings little (a target the
    /// limiter cannot reach).
    package func normalization(for target: LoudnessTarget, shouldStop: () -> Bool = { false }) throws(AudioError) -> LoudnessMeasurement {
        let measured = meter.finish()
        let integrated = measured.integratedLUFS, peak = measured.truePeakDBTP
        guard integrated.isFinite else {
            return LoudnessMeasurement(
                measuredLUFS: integrated, truePeakDBTP: peak, gainDB: 0, limiterThresholdDB: nil,
                resultLUFS: integrated, resultTruePeakDBTP: peak)
        }
        var gain = target.integratedLUFS - integrated
        var result = LoudnessMeasurement(
            measuredLUFS: integrated, truePeakDBTP: peak, gainDB: gain, limiterThresholdDB: nil,
            resultLUFS: integrated + gain, resultTruePeakDBTP: peak + gain)
        // EBU R128 leaves out the blocks under -70 LUFS by their level as measured: near it, a
        // gain that lifts a quiet song's soft blocks over it (or sinks them under it) changes
        // what is measured. There the gained sound is measured again and the gain corrected.
        if min(integrated, target.integratedLUFS) < Self.nearTheGateLUFS {
            for _ in 0..<6 where peak + gain <= target.truePeakCeilingDBTP {
                let take = try makeTake(gainDB: gain, limiterThresholdDB: nil, shouldStop: shouldStop)
                let reached = take.integratedLUFS()
                guard reached.isFinite else { break }
                self.take = take
                result.gainDB = gain
                result.resultLUFS = reached
                result.resultTruePeakDBTP = peak + gain
                let short = target.integratedLUFS - reached
                if abs(short) <= 0.05 { break }
                gain += short
            }
        }
        guard peak + gain > target.truePeakCeilingDBTP else { return result }
        // Sample peaks held a little under the ceiling: peaks between samples rise above them.
        // Each take's loudness is measured on a thread of its own while the next block is
        // limited, and the take is kept: only the one on target has its true peak measured (most
        // of the meter's cost), and it is the one written, by copying it.
        var threshold = target.truePeakCeilingDBTP - 0.5
        for round in 0..<3 {
            var accepted: MeteredTake? = nil
            var last: (gain: Double, loudness: Double, take: MeteredTake)? = nil
            for _ in 0..<6 {
                let take = try makeTake(gainDB: gain, limiterThresholdDB: threshold, shouldStop: shouldStop)
                let loudness = take.integratedLUFS()
                let short = target.integratedLUFS - loudness
                if abs(short) <= 0.05 {
                    accepted = take
                    break
                }
                // A target the limiter cannot reach: more gain raised the loudness by under a
                // quarter of itself (the limiter flattens what more gain brings), so more still
                // would only crush the quiet parts. The louder of the two takes is kept.
                if let last, short > 0, gain > last.gain, loudness - last.loudness < 0.25 * (gain - last.gain) {
                    if last.loudness > loudness { gain = last.gain }
                    accepted = last.loudness > loudness ? last.take : take
                    break
                }
                last = (gain, loudness, take)
                gain += short
            }
            let take: MeteredTake
            if let accepted { take = accepted } else { take = try makeTake(gainDB: gain, limiterThresholdDB: threshold, shouldStop: shouldStop) }
            self.take = take
            result = LoudnessMeasurement(
                measuredLUFS: integrated, truePeakDBTP: peak, gainDB: gain, limiterThresholdDB: threshold,
                resultLUFS: take.integratedLUFS(), resultTruePeakDBTP: try take.truePeakDBTP())
            let over = result.resultTruePeakDBTP - target.truePeakCeilingDBTP
            if over <= 0 {
                // Short of the target with room left under the ceiling (the sample peaks held
                // lower than the peaks between them need): let them up to it, once.
                guard round == 0, target.integratedLUFS - result.resultLUFS > 0.05, over < -0.1 else { return result }
                threshold -= over + 0.05
                continue
            }
            if round < 2 {
                // Over the ceiling between samples: hold the sample peaks lower, and again.
                threshold -= over + 0.05
            } else {
                // The last resort: gain and threshold lowered together scale the limited sound
                // as a whole, keeping the ceiling at the cost of a little loudness.
                result.gainDB -= over
                result.limiterThresholdDB = threshold - over
                result.resultLUFS -= over
                result.resultTruePeakDBTP -= over
            }
        }
        return result
    }

    /// Under this loudness (before or after the gain) EBU R128's absolute gate at -70 LUFS may
    /// leave out blocks its relative gate (10 LU under the song) would keep.
    static let nearTheGateLUFS = -55.0

    /// The kept sound with `gainDB` and the limiter at `limiterThresholdDB` (if any), measured and kept.
    private func makeTake(gainDB: Double, limiterThresholdDB: Double?, shouldStop: () -> Bool) throws(AudioError) -> MeteredTake {
        let take = try MeteredTake(
            gainDB: gainDB, limiterThresholdDB: limiterThresholdDB, path: path, sampleRate: sampleRate)
        try replay(gainDB: gainDB, limiterThresholdDB: limiterThresholdDB, into: take.sound, shouldStop: shouldStop)
        return take
    }

    /// Plays the kept sound into `sink` with `gainDB` applied (then limited at `limiterThresholdDB`
    /// dBFS, if given), and finishes the sink.
    package func replay(
        gainDB: Double, limiterThresholdDB: Double? = nil, into sink: some SoundSink,
        shouldStop: () -> Bool = { false }
    ) throws(AudioError) {
        if let take, take.isMade(gainDB: gainDB, limiterThresholdDB: limiterThresholdDB) {
            return try take.play(into: sink, shouldStop: shouldStop)
        }
        guard fseek(file, 0, SEEK_SET) == 0 else { throw .cannotWrite(path: path, reason: systemError()) }
        let factor = Float(pow(10, gainDB / 20))
        let limiter = limiterThresholdDB.map { PeakLimiter(threshold: Float(pow(10, $0 / 20)), sampleRate: sampleRate) }
        let block = 4096
        var interleaved = [Float](repeating: 0, count: block * 2)
        var left = [Float](repeating: 0, count: block), right = [Float](repeating: 0, count: block)
        func emit(_ count: Int) throws(AudioError) {
            guard count > 0 else { return }
            try left.withUnsafeBufferPointer { l throws(AudioError) in
                try right.withUnsafeBufferPointer { r throws(AudioError) in
                    try sink.append(left: l.baseAddress!, right: r.baseAddress!, count: count)
                }
            }
        }
        var remaining = framesWritten
        while remaining > 0 {
            if shouldStop() { throw .stopped }
            let count = min(block, remaining)
            let read = interleaved.withUnsafeMutableBufferPointer { fread($0.baseAddress, 8, count, file) }
            guard read == count else { throw .cannotWrite(path: path, reason: "the kept sound ended early") }
            var out = 0
            for index in 0..<count {
                let l = interleaved[2 * index] * factor, r = interleaved[2 * index + 1] * factor
                if let limiter {
                    guard let frame = limiter.process(l, r) else { continue }
                    left[out] = frame.0
                    right[out] = frame.1
                } else {
                    left[out] = l
                    right[out] = r
                }
                out += 1
            }
            try emit(out)
            remaining -= count
        }
        if let limiter {
            var out = 0
            limiter.flush { l, r in
                left[out] = l
                right[out] = r
                out += 1
            }
            try emit(out)
        }
        try sink.finish()
    }
}
