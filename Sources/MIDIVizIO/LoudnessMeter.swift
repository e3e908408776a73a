import CEBUR128
import Foundation

/// EBU R128 loudness of a stereo sound, measured by libebur128 as it comes: the integrated
/// (gated) loudness and the true peak (4x oversampled), or the true peak alone of one channel.
/// Owns one `ebur128_state`.
package final class LoudnessMeter {
    private var state: UnsafeMutablePointer<ebur128_state>?
    private var interleaved: [Float] = []

    /// - Parameter truePeak: measure the true peak too (4x oversampled: most of the meter's cost).
    package init(sampleRate: Int, truePeak: Bool = true) throws(AudioError) {
        let mode = Int32(EBUR128_MODE_I.rawValue | (truePeak ? EBUR128_MODE_TRUE_PEAK.rawValue : 0))
        guard let state = ebur128_init(2, UInt(sampleRate), mode) else { throw .synthesizer("libebur128 could not start a meter") }
        self.state = state
        channels = 2
    }

    /// A meter of one channel's true peak alone: libebur128 follows each channel on its own, so
    /// this is the peak that channel has in a stereo meter.
    package init(truePeakOfOneChannelAt sampleRate: Int) throws(AudioError) {
        guard let state = ebur128_init(1, UInt(sampleRate), Int32(EBUR128_MODE_TRUE_PEAK.rawValue)) else {
            throw .synthesizer("libebur128 could not start a meter")
        }
        self.state = state
        channels = 1
    }

    private let channels: Int

    deinit { ebur128_destroy(&state) }

    package func add(left: UnsafePointer<Float>, right: UnsafePointer<Float>, count: Int) {
        guard count > 0 else { return }
        if interleaved.count < count * 2 { interleaved = [Float](repeating: 0, count: count * 2) }
        interleaved.withUnsafeMutableBufferPointer { samples in
            for index in 0..<count {
                samples[2 * index] = left[index]
                samples[2 * index + 1] = right[index]
            }
            add(interleaved: samples.baseAddress!, count: count)
        }
    }

    /// `count` frames, left and right samples alternating (or the one channel's samples).
    package func add(interleaved samples: UnsafePointer<Float>, count: Int) {
        guard count > 0 else { return }
        _ = ebur128_add_frames_float(state, samples, count)
    }

    /// Integrated loudness in LUFS; -infinity for silence (nothing above the -70 LUFS gate).
    package var integratedLUFS: Double {
        var value = -Double.infinity
        guard ebur128_loudness_global(state, &value) == EBUR128_SUCCESS.rawValue else { return -.infinity }
        return value
    }

    /// The true peak of the louder channel in dBTP; -infinity for silence.
    package var truePeakDBTP: Double { Self.decibels(truePeak) }

    /// The true peak of the louder channel, linear.
    package var truePeak: Double { louderChannel(ebur128_true_peak) }

    /// The true peak (linear) of the samples of the last `add` alone, of the louder channel.
    package var lastTruePeak: Double { louderChannel(ebur128_prev_true_peak) }

    /// The larger of the channels' values read by `read` (`ebur128_true_peak` or
    /// `ebur128_prev_true_peak`); 0 where it fails.
    private func louderChannel(
        _ read: (UnsafeMutablePointer<ebur128_state>?, UInt32, UnsafeMutablePointer<Double>?) -> Int32
    ) -> Double {
        var peak = 0.0
        for channel in 0..<channels {
            var value = 0.0
            if read(state, UInt32(channel), &value) == EBUR128_SUCCESS.rawValue { peak = max(peak, value) }
        }
        return peak
    }

    /// A linear peak in dB; -infinity for silence.
    package static func decibels(_ peak: Double) -> Double { peak > 0 ? 20 * log10(peak) : -.infinity }
}
