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

    /// A quiet song whose soft part is under EBU R128's -70 LUFS gate as synthesized, and over
    /// it once the gain lifts the song: measured again with the gain, it reaches the target
    /// (measured before the gain alone, it came out 8 LU short and said it was on target).
    @Test func aSoftPartLiftedOverTheGateIsMeasured() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("midiviz-gate-\(getpid()).f32").path
        defer { unlink(path) }
        // 1 s of a 1 kHz sine at about -60 LUFS, then 10 s at -72.
        let count = 48_000 * 11
        var left = [Float](repeating: 0, count: count)
        for index in 0..<count { left[index] = (index < 48_000 ? 0.001 : 0.00025) * sin(Float(index) * 2 * .pi * 1000 / 48_000) }
        let spool = try Self.spool(left, left, at: path)
        let plan = try spool.normalization(for: LoudnessTarget(integratedLUFS: -14, truePeakCeilingDBTP: -1))
        #expect(plan.measuredLUFS < -58 && plan.limiterThresholdDB == nil, "\(plan)")
        let written = MeteredSound(try LoudnessMeter(sampleRate: 48_000))
        try spool.replay(gainDB: plan.gainDB, into: written)
        #expect(abs(written.meter.integratedLUFS + 14) <= 0.05, "written at \(written.meter.integratedLUFS) LUFS")
        #expect(abs(plan.resultLUFS - written.meter.integratedLUFS) < 0.01, "says \(plan.resultLUFS), measures \(written.meter.integratedLUFS)")
        #expect(plan.gainDB > -14 - plan.measuredLUFS + 3, "more gain than the first measurement asked: \(plan)")
    }

    /// A target the limiter cannot reach: the gain stops where more of it no longer makes the
    /// sound louder, so a louder target never gives a quieter sound (at 0 LUFS the gain ran to
    /// +80 dB and the result came out quieter than at -7).
    @Test func anUnreachableTargetDoesNotRunTheGainAway() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("midiviz-reach-\(getpid()).f32").path
        defer { unlink(path) }
        let (left, right) = Self.signal(count: 48_000 * 6)
        let spool = try Self.spool(left, right, at: path)
        var plans: [Double: LoudnessMeasurement] = [:]
        for target in [-9.0, -6.0, 0.0] {
            plans[target] = try spool.normalization(for: LoudnessTarget(integratedLUFS: target, truePeakCeilingDBTP: -1))
        }
        let reachable = try #require(plans[-9]), louder = try #require(plans[-6]), loudest = try #require(plans[0])
        #expect(abs(reachable.resultLUFS + 9) <= 0.05, "\(reachable)")
        #expect(loudest.resultLUFS >= louder.resultLUFS - 0.05 && louder.resultLUFS >= reachable.resultLUFS - 0.05, "\(plans)")
        #expect(loudest.gainDB < reachable.gainDB + 20, "\(loudest.gainDB) dB against \(reachable.gainDB) dB for -9")
        #expect(loudest.resultTruePeakDBTP <= -1)
    }

    /// A lone struck note, quiet on the whole but for its attack: the limiter's first
    /// threshold, half a dB under the ceiling, left it short of the target with that half dB
    /// unused; the sample peaks are let up to the ceiling, and it reaches the target.
    @Test func aLoneNoteUsesTheRoomUnderTheCeiling() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("midiviz-note-\(getpid()).f32").path
        defer { unlink(path) }
        let count = 48_000 * 2
        var left = [Float](repeating: 0, count: count)
        for index in 0..<48_000 * 3 / 2 {
            let t = Float(index) / 48_000
            left[index] = 0.02 * exp(-4 * t) * sin(2 * .pi * 440 * t) + (index < 240 ? 0.2 * sin(2 * .pi * 3000 * t) : 0)
        }
        let spool = try Self.spool(left, left, at: path)
        let plan = try spool.normalization(for: LoudnessTarget(integratedLUFS: -14, truePeakCeilingDBTP: -1))
        #expect(plan.limiterThresholdDB != nil, "limited: \(plan)")
        #expect(abs(plan.resultLUFS + 14) <= 0.05 && plan.resultTruePeakDBTP <= -1, "\(plan)")
        let written = MeteredSound(try LoudnessMeter(sampleRate: 48_000))
        try spool.replay(gainDB: plan.gainDB, limiterThresholdDB: plan.limiterThresholdDB, into: written)
        #expect(abs(written.meter.integratedLUFS + 14) <= 0.05 && written.meter.truePeakDBTP <= -1, "\(written.meter.integratedLUFS) LUFS")
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
