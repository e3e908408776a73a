import Foundation

/// A look-ahead peak limiter: holds the louder channel's sample peaks at or below `threshold`
/// (linear) with no overshoot, by lowering the gain smoothly before each peak (over the
/// look-ahead) and letting it recover after (the release). Deterministic; the output is the
/// input delayed by `lookAhead - 1` frames, which `flush` plays out.
///
/// The gain that sample n needs is `r[n] = min(1, threshold / peak[n])`. The gain applied is the
/// average over the last `lookAhead` samples of the look-ahead minimum of r (with the release),
/// which is never above r at a peak: each value averaged is a minimum over a window holding it.
/// Its rings live in one buffer it owns (a class: per sample, no array checks or copies).
final class PeakLimiter {
    let threshold: Float
    let lookAhead: Int
    private let release: Double
    private let storage: UnsafeMutablePointer<Float>
    /// r of the last lookAhead frames, the released minima, and the delay lines: rings of
    /// lookAhead, by frame index modulo lookAhead.
    private let needed: UnsafeMutablePointer<Float>
    private let smoothed: UnsafeMutablePointer<Float>
    private let left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>
    /// The monotonic queue of the window's minima: a ring of lookAhead + 1 (index, value).
    private let queueIndex: UnsafeMutablePointer<Int>
    private let queueValue: UnsafeMutablePointer<Float>
    private var queueHead = 0, queueCount = 0
    private var smoothedSum: Float
    /// In double precision: a float's steps near 1 are coarser than the recovery's.
    private var lastSmoothed: Double = 1
    private var pushed = 0
    /// `pushed` modulo lookAhead.
    private var slot = 0

    init(threshold: Float, sampleRate: Int, lookAheadSeconds: Double = 0.005, releaseSeconds: Double = 0.08) {
        self.threshold = threshold
        let lookAhead = max(2, Int(Double(sampleRate) * lookAheadSeconds))
        self.lookAhead = lookAhead
        release = 1 - exp(-1 / (Double(sampleRate) * releaseSeconds))
        storage = .allocate(capacity: 5 * lookAhead + 1)
        needed = storage
        smoothed = storage + lookAhead
        left = storage + 2 * lookAhead
        right = storage + 3 * lookAhead
        queueValue = storage + 4 * lookAhead
        needed.initialize(repeating: 1, count: lookAhead)
        smoothed.initialize(repeating: 1, count: lookAhead)
        left.initialize(repeating: 0, count: 2 * lookAhead)
        queueValue.initialize(repeating: 0, count: lookAhead + 1)
        queueIndex = .allocate(capacity: lookAhead + 1)
        queueIndex.initialize(repeating: 0, count: lookAhead + 1)
        smoothedSum = Float(lookAhead)
        // Silence before the sound, so that the first peaks are lowered in time too.
        for _ in 0..<(lookAhead - 1) { _ = process(0, 0) }
    }

    deinit {
        storage.deallocate()
        queueIndex.deallocate()
    }

    /// Takes one frame; returns the limited frame `lookAhead - 1` frames back, once there is one.
    func process(_ l: Float, _ r: Float) -> (Float, Float)? {
        let index = pushed
        pushed += 1
        let slot = self.slot
        self.slot = slot + 1 == lookAhead ? 0 : slot + 1
        left[slot] = l
        right[slot] = r
        let peak = max(abs(l), abs(r))
        let need = peak > threshold ? threshold / peak : 1
        needed[slot] = need
        // The minimum of r over the last lookAhead frames: the look-ahead minimum of the frame
        // lookAhead - 1 back.
        let capacity = lookAhead + 1
        while queueCount > 0 {
            let last = Self.wrapped(queueHead + queueCount - 1, capacity)
            guard queueValue[last] >= need else { break }
            queueCount -= 1
        }
        let tail = Self.wrapped(queueHead + queueCount, capacity)
        queueIndex[tail] = index
        queueValue[tail] = need
        queueCount += 1
        while queueIndex[queueHead] <= index - lookAhead {
            queueHead = queueHead + 1 == capacity ? 0 : queueHead + 1
            queueCount -= 1
        }
        let target = index - (lookAhead - 1)
        guard target >= 0 else { return nil }  // still filling the look-ahead
        let minimum = queueValue[queueHead]
        // Recover towards 1 after a peak, never above the minimum.
        var recovered = lastSmoothed + (1 - lastSmoothed) * release
        if recovered > 0.9999 { recovered = 1 }  // back to unity, not forever a rounding short of it
        let released = min(minimum, Float(recovered))
        lastSmoothed = min(Double(minimum), recovered)
        let ring = self.slot  // (index + 1) modulo lookAhead: the frame lookAhead - 1 back
        smoothedSum += released - smoothed[ring]
        smoothed[ring] = released
        if ring == 0 {  // no drift from running sums
            var sum: Float = 0
            for position in 0..<lookAhead { sum += smoothed[position] }
            smoothedSum = sum
        }
        // Never above what the frame itself needs (the average is not, but for rounding).
        let gain = min(1, smoothedSum / Float(lookAhead), needed[ring])
        // The first lookAhead - 1 frames are the silence put in front.
        guard target >= lookAhead - 1 else { return nil }
        return (clamped(left[ring] * gain), clamped(right[ring] * gain))
    }

    /// A position in a ring, one turn at most past its end.
    private static func wrapped(_ position: Int, _ capacity: Int) -> Int {
        position >= capacity ? position - capacity : position
    }

    /// A last guard against rounding: no sample past the threshold.
    private func clamped(_ sample: Float) -> Float {
        max(-threshold, min(threshold, sample))
    }

    /// The frames still held back, played out.
    func flush(into output: (Float, Float) -> Void) {
        for _ in 0..<(lookAhead - 1) {
            if let frame = process(0, 0) { output(frame.0, frame.1) }
        }
    }
}
