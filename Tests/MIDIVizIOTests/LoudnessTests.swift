import Foundation
import Testing

@testable import MIDIVizIO

/// The sound's normalization: libebur128's measurement, the look-ahead limiter and the kept
/// sound played back with a gain.
@Suite(.timeLimit(.minutes(30))) struct LoudnessTests {
    /// Quiet sines with a loud, sharp 10 ms burst every second.
    static func signal(count: Int) -> (left: [Float], right: [Float]) {
        var left = [Float](repeating: 0, count: count), right = left
        for index in 0..<count {
            let loud: Float = (index / 480) % 100 == 0 ? 0.95 : 0.05
            left[index] = loud * sin(Float(index) * 0.07)
            right[index] = loud * 0.8 * sin(Float(index) * 0.05 + 1)
        }
        return (left, right)
    }

    /// A spool at `path` holding the sound.
    static func spool(_ left: [Float], _ right: [Float], at path: String) throws -> SoundSpool {
        let spool = try SoundSpool(path: path, sampleRate: 48_000)
        try left.withUnsafeBufferPointer { l in
            try right.withUnsafeBufferPointer { r in
                try spool.append(left: l.baseAddress!, right: r.baseAddress!, count: l.count)
            }
        }
        try spool.finish()
        return spool
    }

    @Test func theLimiterHoldsEveryPeakAndKeepsTheLengthAndTheQuietParts() {
        let (left, right) = Self.signal(count: 96_000)
        let limiter = PeakLimiter(threshold: 0.5, sampleRate: 48_000)
        var out: [(Float, Float)] = []
        for index in 0..<left.count { if let frame = limiter.process(left[index], right[index]) { out.append(frame) } }
        limiter.flush { out.append(($0, $1)) }
        #expect(out.count == left.count, "as long as the input")
        #expect(out.allSatisfy { abs($0.0) <= 0.5 + 1e-5 && abs($0.1) <= 0.5 + 1e-5 }, "max \(out.map { max(abs($0.0), abs($0.1)) }.max()!)")
        // A quiet passage well after a loud one passes unchanged, in place.
        for index in 44_000..<47_000 { #expect(out[index].0 == left[index] && out[index].1 == right[index]) }
        // A loud one is lowered, not silenced.
        #expect(out[0..<480].map { abs($0.0) }.max()! > 0.45)
    }

    @Test func aSpoolReplaysWithTheGainThatReachesTheTargetUnderTheCeiling() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("midiviz-spool-\(getpid()).f32").path
        defer { unlink(path) }
        let (left, right) = Self.signal(count: 48_000 * 6)
        let spool = try Self.spool(left, right, at: path)
        let plan = try spool.normalization(for: LoudnessTarget(integratedLUFS: -14, truePeakCeilingDBTP: -1))
        #expect(plan.measuredLUFS.isFinite && plan.truePeakDBTP > -1, "loud enough to need limiting: \(plan)")
        #expect(plan.limiterThresholdDB != nil)
        // Measured again on what is written.
        let written = MeteredSound(try LoudnessMeter(sampleRate: 48_000))
        try spool.replay(gainDB: plan.gainDB, limiterThresholdDB: plan.limiterThresholdDB, into: written)
        #expect(written.framesWritten == left.count)
        #expect(
            abs(written.meter.integratedLUFS + 14) <= 0.1 && written.meter.truePeakDBTP <= -1,
            "\(written.meter.integratedLUFS) LUFS, \(written.meter.truePeakDBTP) dBTP")
        // A quiet target needs no limiting: a plain gain.
        let quiet = try spool.normalization(for: LoudnessTarget(integratedLUFS: -30, truePeakCeilingDBTP: -1))
        #expect(quiet.limiterThresholdDB == nil && abs(quiet.resultLUFS + 30) < 1e-9)
    }

    @Test func theTakeOnTargetIsWrittenAsTheLimiterMakesIt() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("midiviz-take-\(getpid()).f32").path
        defer { unlink(path) }
        let (left, right) = Self.signal(count: 48_000 * 3)
        let spool = try Self.spool(left, right, at: path)
        let plan = try spool.normalization(for: LoudnessTarget(integratedLUFS: -14, truePeakCeilingDBTP: -1))
        let threshold = try #require(plan.limiterThresholdDB)
        // What the spool writes (its kept take) against the limiter run here on the same samples.
        let written = RecordedSound()
        try spool.replay(gainDB: plan.gainDB, limiterThresholdDB: threshold, into: written)
        let factor = Float(pow(10, plan.gainDB / 20))
        let limiter = PeakLimiter(threshold: Float(pow(10, threshold / 20)), sampleRate: 48_000)
        var expected: [Float] = []
        for index in 0..<left.count {
            if let frame = limiter.process(left[index] * factor, right[index] * factor) { expected += [frame.0, frame.1] }
        }
        limiter.flush { expected += [$0, $1] }
        #expect(written.samples.count == expected.count)
        #expect(written.samples == expected, "the written take differs from the limiter's output")
        // Another gain is made afresh, not copied.
        let other = RecordedSound()
        try spool.replay(gainDB: plan.gainDB - 6, limiterThresholdDB: threshold, into: other)
        #expect(other.samples.count == expected.count && other.samples != expected)
    }

    @Test func silenceIsLeftAsItIs() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("midiviz-silence-\(getpid()).f32").path
        defer { unlink(path) }
        let spool = try SoundSpool(path: path, sampleRate: 48_000)
        try spool.appendSilence(48_000)
        let plan = try spool.normalization(for: LoudnessTarget())
        #expect(plan.gainDB == 0 && !plan.measuredLUFS.isFinite)
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

/// A sound sink that keeps every sample, left and right alternating.
final class RecordedSound: SoundSink {
    private(set) var samples: [Float] = []
    var framesWritten: Int { samples.count / 2 }
    func append(left: UnsafePointer<Float>, right: UnsafePointer<Float>, count: Int) throws(AudioError) {
        for index in 0..<count { samples += [left[index], right[index]] }
    }
    func finish() throws(AudioError) {}
}
