import MIDIVizEngine
import MIDIVizIO
import Testing

/// A sound that missed its `--loudness` target (the limiter holding the true-peak ceiling caps
/// how loud it gets) is warned of, by `render` and in a batch's report; one on target, not
/// normalized or not measured is not.
@Suite(.timeLimit(.minutes(30))) struct LoudnessWarningTests {
    func measured(_ result: Double) -> LoudnessMeasurement {
        LoudnessMeasurement(measuredLUFS: -30, truePeakDBTP: -10, gainDB: 24, limiterThresholdDB: -1.5, resultLUFS: result, resultTruePeakDBTP: -1.2)
    }

    @Test func aSoundOffItsTargetIsWarnedOf() {
        var options = RenderOptions()
        options.loudness = .target(-6)
        #expect(options.loudnessWarning(measured(-6.04)) == nil)
        let warning = options.loudnessWarning(measured(-6.4))
        #expect(warning?.hasPrefix("--loudness -6: the sound reached -6.4 LUFS at -1.2 dBTP (+24.0 dB and limited)") == true, "\(warning ?? "none")")
        options.loudness = .off
        #expect(options.loudnessWarning(measured(-6.4)) == nil)
        options.loudness = .target(-14)
        #expect(options.loudnessWarning(nil) == nil)
        var silent = measured(-14)
        silent.measuredLUFS = -.infinity
        #expect(options.loudnessWarning(silent) == nil)
    }
}
