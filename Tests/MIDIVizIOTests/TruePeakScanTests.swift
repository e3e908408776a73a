import Foundation
import Testing

@testable import MIDIVizIO

/// `TruePeakScan` against libebur128 run over the whole sound, and the interpolator's reach it
/// relies on, measured on the installed library.
@Suite(.timeLimit(.minutes(30))) struct TruePeakScanTests {
    /// The whole sound's true peak of one channel, the way it was measured before the scan.
    func wholeTruePeak(_ samples: [Float], sampleRate: Int) throws -> Double {
        let meter = try LoudnessMeter(truePeakOfOneChannelAt: sampleRate)
        samples.withUnsafeBufferPointer { meter.add(interleaved: $0.baseAddress!, count: $0.count) }
        return meter.truePeak
    }

    func scanned(_ left: [Float], _ right: [Float], sampleRate: Int) throws -> [(peak: Double, measured: Int, blocks: Int)] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("midiviz-scan-\(UUID().uuidString).f32").path
        defer { unlink(path) }
        let spool = try SoundSpool(path: path, sampleRate: sampleRate, truePeak: false)
        try left.withUnsafeBufferPointer { l in
            try right.withUnsafeBufferPointer { r in try spool.append(left: l.baseAddress!, right: r.baseAddress!, count: l.count) }
        }
        try spool.finish()
        let file = try #require(fopen(path, "rb"))
        defer { fclose(file) }
        return try (0..<2).map { channel in
            try #require(try TruePeakScan.truePeak(channel: channel, of: fileno(file), frames: left.count, sampleRate: sampleRate))
        }
    }

    /// Quiet music with loud bursts, limited; one channel with peaks between its samples in a
    /// quiet stretch (a sine at a quarter of the rate, sampled 45° off its crests).
    static func limitedSound(count: Int, seed: UInt64) -> (left: [Float], right: [Float]) {
        var state = seed
        func random() -> Float {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(state >> 40) / Float(1 << 24) * 2 - 1
        }
        let (left, right) = LoudnessTests.signal(count: count)
        let limiter = PeakLimiter(threshold: 0.6, sampleRate: 48_000)
        var outLeft: [Float] = [], outRight: [Float] = []
        for index in 0..<count {
            let noise = 0.02 * random()
            if let frame = limiter.process(left[index] * 1.4 + noise, right[index] * 1.4 - noise) {
                outLeft.append(frame.0)
                outRight.append(frame.1)
            }
        }
        limiter.flush {
            outLeft.append($0)
            outRight.append($1)
        }
        for index in 30_000..<30_400 { outRight[index] = 0.7 * sin(Float.pi / 2 * Float(index) + Float.pi / 4) }
        return (outLeft, outRight)
    }

    @Test(arguments: [48_000, 44_100, 96_000])
    func theScanFindsTheWholeSoundsTruePeakToTheBit(sampleRate: Int) throws {
        for seed in 1...3 as ClosedRange<UInt64> {
            let (left, right) = Self.limitedSound(count: 48_000 * 4 + 123, seed: seed)
            let scans = try scanned(left, right, sampleRate: sampleRate)
            #expect(scans[0].peak == (try wholeTruePeak(left, sampleRate: sampleRate)), "left, seed \(seed)")
            #expect(scans[1].peak == (try wholeTruePeak(right, sampleRate: sampleRate)), "right, seed \(seed)")
            // The sine's peak between its samples (0.7, its samples ±0.49) is found: above every
            // sample, the limited bursts' 0.6 included.
            #expect(scans[1].peak > Double(right.map(abs).max()!))
            for scan in scans { #expect(scan.measured * 2 < scan.blocks, "\(scan.measured) of \(scan.blocks) blocks measured") }
        }
    }

    /// A loud block measured before the first one leaves its samples in the meter: the first
    /// block must still be measured as the sound's start, after silence.
    @Test func theFirstBlockIsMeasuredAfterSilenceWhateverWasMeasuredBefore() throws {
        // Two blocks: the second, louder, is measured first and ends loud; the first starts with
        // a short dip, loud enough to be measured next.
        var left = [Float](repeating: 0, count: TruePeakScan.blockFrames * 2)
        for index in 0..<100 { left[index] = -0.6 }
        for index in TruePeakScan.blockFrames..<2 * TruePeakScan.blockFrames { left[index] = 0.9 }
        let right = [Float](repeating: 0, count: left.count)
        let scans = try scanned(left, right, sampleRate: 48_000)
        #expect(scans[0].measured == 2, "the loud block, then the first")
        #expect(scans[0].peak == (try wholeTruePeak(left, sampleRate: 48_000)))
    }

    @Test func silenceHasNoPeak() throws {
        let silence = [Float](repeating: 0, count: 10_000)
        let scans = try scanned(silence, silence, sampleRate: 48_000)
        #expect(scans.allSatisfy { $0.peak == 0 && $0.measured == 0 })
    }

    /// libebur128's interpolator as the scan assumes it (49 taps, a Hann-windowed sinc, one
    /// phase per output): samples signed as one phase's coefficients drive that phase's output to
    /// the sum of their magnitudes, and no output of any such sound goes beyond the largest sum,
    /// which stays under `TruePeakScan.reach`.
    @Test(arguments: [(48_000, 4), (96_000, 2)])
    func theInterpolatorReachesWhatTheScanAllowsForAndNoMore(sampleRate: Int, factor: Int) throws {
        let taps = 49
        let coefficients = (0..<taps).map { j -> Double in
            let m = Double(j) - Double(taps - 1) / 2
            let sinc = abs(m) < 1e-6 ? 1 : sin(m * .pi / Double(factor)) / (m * .pi / Double(factor))
            return sinc * 0.5 * (1 - cos(2 * .pi * Double(j) / Double(taps - 1)))
        }
        let phases = (0..<factor).map { phase in stride(from: phase, to: taps, by: factor).map { coefficients[$0] } }
        let most = phases.map { $0.map(abs).reduce(0, +) }.max()!
        var highest = 0.0
        for (phase, own) in phases.enumerated() {
            // The newest sample meets the phase's first coefficient, the oldest its last.
            var samples = [Float](repeating: 0, count: 200)
            for (age, coefficient) in own.enumerated() { samples[100 - age] = coefficient < 0 ? -0.4 : 0.4 }
            let measured = try wholeTruePeak(samples, sampleRate: sampleRate)
            let sum = own.map(abs).reduce(0, +)
            #expect(measured >= 0.4 * sum - 1e-6, "phase \(phase) reaches \(measured), its coefficients add up to \(0.4 * sum)")
            #expect(measured <= 0.4 * most + 1e-6, "phase \(phase): \(measured) beyond \(0.4 * most)")
            highest = max(highest, measured)
        }
        #expect(abs(highest - 0.4 * most) < 1e-6)
        #expect(Float(most) < TruePeakScan.reach(sampleRate: sampleRate) * 0.95, "\(most)")
    }
}
