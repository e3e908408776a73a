import Foundation

/// A look-ahead peak limiter: holds the louder channel's sample peaks at or below `threshold`
/// (linear) with no overshoot, by lowering the gain smoothly before each peak (over the
/// look-ahead) and letting it recover after (the release). Deterministic; the output is the
/// input delayed by `lookAhead - 1` frames, which `flush` plays out.
///
/// The gain that sample n needs is `r[n] = min(1, threshold / peak[n])`. The gain applied is the
/// average over the last `lookAhead` samples of the look-ahead minimum of r (with the release),
/// which is never above r at a peak: each value averaged is a minimum over a window holding it.
struct PeakLimiter {
    let threshold: Float
    let lookAhead: Int
    private let release: Double
    /// r of the last lookAhead frames, by frame index modulo lookAhead.
    private var needed: [Float]
    private var minima: [(index: Int, value: Float)] = []  // monotonic queue over the window
    private var queueStart = 0
    private var smoothed: [Float]  // released minima, ring of lookAhead
    private var smoothedSum: Float = 0
    /// In double precision: a float's steps near 1 are coarser than the recovery's.
    private var lastSmoothed: Double = 1
    private var left: [Float], right: [Float]  // delay lines
    private var pushed = 0

    init(threshold: Float, sampleRate: Int, lookAheadSeconds: Double = 0.005, releaseSeconds: Double = 0.08) {
        self.threshold = threshold
        lookAhead = max(2, Int(Double(sampleRate) * lookAheadSeconds))
        release = 1 - exp(-1 / (Double(sampleRate) * releaseSeconds))
        needed = [Float](repeating: 1, count: lookAhead)
        smoothed = [Float](repeating: 1, count: lookAhead)
        smoothedSum = Float(lookAhead)
        left = [Float](repeating: 0, count: lookAhead)
        right = [Float](repeating: 0, count: lookAhead)
        minima.reserveCapacity(lookAhead + 1)
        // Silence before the sound, so that the first peaks are lowered in time too.
        for _ in 0..<(lookAhead - 1) { _ = process(0, 0) }
    }

    /// Takes one frame; returns the limited frame `lookAhead - 1` frames back, once there is one.
    mutating func process(_ l: Float, _ r: Float) -> (Float, Float)? {
        let index = pushed
        pushed += 1
        let slot = index % lookAhead
        left[slot] = l
        right[slot] = r
        let peak = max(abs(l), abs(r))
        let need = peak > threshold ? threshold / peak : 1
        needed[slot] = need
        // The minimum of r over the last lookAhead frames: the look-ahead minimum of the frame
        // lookAhead - 1 back.
        while minima.count > queueStart, minima[minima.count - 1].value >= need { minima.removeLast() }
        minima.append((index, need))
        while minima[queueStart].index <= index - lookAhead { queueStart += 1 }
        if queueStart > 4096 { minima.removeFirst(queueStart); queueStart = 0 }
        let target = index - (lookAhead - 1)
        guard target >= 0 else { return nil }  // still filling the look-ahead
        let minimum = minima[queueStart].value
        // Recover towards 1 after a peak, never above the minimum.
        var recovered = lastSmoothed + (1 - lastSmoothed) * release
        if recovered > 0.9999 { recovered = 1 }  // back to unity, not forever a rounding short of it
        let released = min(minimum, Float(recovered))
        lastSmoothed = min(Double(minimum), recovered)
        let ring = target % lookAhead
        smoothedSum += released - smoothed[ring]
        smoothed[ring] = released
        if ring == 0 { smoothedSum = smoothed.reduce(0, +) }  // no drift from running sums
        // Never above what the frame itself needs (the average is not, but for rounding).
        let gain = min(1, smoothedSum / Float(lookAhead), needed[ring])
        // The first lookAhead - 1 frames are the silence put in front.
        guard target >= lookAhead - 1 else { return nil }
        return (clamped(left[ring] * gain), clamped(right[ring] * gain))
    }

    /// A last guard against rounding: no sample past the threshold.
    private func clamped(_ sample: Float) -> Float {
        max(-threshold, min(threshold, sample))
    }

    /// The frames still held back, played out.
    mutating func flush(into output: (Float, Float) -> Void) {
        for _ in 0..<(lookAhead - 1) {
            if let frame = process(0, 0) { output(frame.0, frame.1) }
        }
    }
}
