import Foundation

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
    package let sampleRate: Int
    private var buffer: [Float] = []
    package private(set) var framesWritten = 0

    /// Creates (or empties) the scratch file at `path`; the caller removes it.
    package init(path: String, sampleRate: Int) throws(AudioError) {
        self.path = path
        meter = try BackgroundMeter(sampleRate: sampleRate)
        self.sampleRate = sampleRate
        guard let file = fopen(path, "w+b") else { throw .cannotWrite(path: path, reason: systemError()) }
        self.file = file
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
    /// brings the kept sound to `target`: measured, then, when limited, measured again through
    /// the limiter and corrected until it is within 0.05 LU of the target, under the ceiling.
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
        guard peak + gain > target.truePeakCeilingDBTP else { return result }
        // Sample peaks held a little under the ceiling: peaks between samples rise above them.
        // A round's first pass measures the loudness and the true peak; on target at once (the
        // usual case), it is the last. Otherwise the gain is corrected on the loudness alone
        // (the true peak is most of the meter's cost), then one more pass measures both.
        var threshold = target.truePeakCeilingDBTP - 0.5
        for round in 0..<3 {
            var measured: MeteredSound? = nil
            for attempt in 0..<6 {
                let meter = MeteredSound(try LoudnessMeter(sampleRate: sampleRate, truePeak: attempt == 0))
                try replay(gainDB: gain, limiterThresholdDB: threshold, into: meter, shouldStop: shouldStop)
                let short = target.integratedLUFS - meter.meter.integratedLUFS
                if abs(short) <= 0.05 {
                    if attempt == 0 { measured = meter }
                    break
                }
                gain += short
            }
            let meter: MeteredSound
            if let measured {
                meter = measured
            } else {
                meter = MeteredSound(try LoudnessMeter(sampleRate: sampleRate))
                try replay(gainDB: gain, limiterThresholdDB: threshold, into: meter, shouldStop: shouldStop)
            }
            result = LoudnessMeasurement(
                measuredLUFS: integrated, truePeakDBTP: peak, gainDB: gain, limiterThresholdDB: threshold,
                resultLUFS: meter.meter.integratedLUFS, resultTruePeakDBTP: meter.meter.truePeakDBTP)
            let over = result.resultTruePeakDBTP - target.truePeakCeilingDBTP
            if over <= 0 { return result }
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

    /// Plays the kept sound into `sink` with `gainDB` applied (then limited at `limiterThresholdDB`
    /// dBFS, if given), and finishes the sink.
    package func replay(
        gainDB: Double, limiterThresholdDB: Double? = nil, into sink: some SoundSink,
        shouldStop: () -> Bool = { false }
    ) throws(AudioError) {
        guard fseek(file, 0, SEEK_SET) == 0 else { throw .cannotWrite(path: path, reason: systemError()) }
        let factor = Float(pow(10, gainDB / 20))
        var limiter = limiterThresholdDB.map { PeakLimiter(threshold: Float(pow(10, $0 / 20)), sampleRate: sampleRate) }
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
                if limiter != nil {
                    guard let frame = limiter!.process(l, r) else { continue }
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
        if limiter != nil {
            var out = 0
            limiter!.flush { l, r in
                left[out] = l
                right[out] = r
                out += 1
            }
            try emit(out)
        }
        try sink.finish()
    }
}

/// A sound sink that only measures loudness.
final class MeteredSound: SoundSink {
    let meter: LoudnessMeter
    private(set) var framesWritten = 0
    init(_ meter: LoudnessMeter) { self.meter = meter }
    func append(left: UnsafePointer<Float>, right: UnsafePointer<Float>, count: Int) throws(AudioError) {
        meter.add(left: left, right: right, count: count)
        framesWritten += count
    }
    func finish() throws(AudioError) {}
}
