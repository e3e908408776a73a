import Dispatch

/// A loudness meter fed on a thread of its own: the synthesizer hands each block over and goes
/// on, so measuring the kept sound (its true peak is most of the cost) overlaps with making it.
/// Blocks are measured in the order given, so the results are those of measuring them in turn.
// @unchecked Sendable: the meter is used only on `queue`, and read after `finish` has waited
// for it.
final class BackgroundMeter: @unchecked Sendable {
    private let meter: LoudnessMeter
    private let queue = DispatchQueue(label: "midiviz.loudness-meter")
    /// At most this many blocks wait for the meter: the synthesizer waits beyond that.
    private let room = DispatchSemaphore(value: 32)

    init(sampleRate: Int, truePeak: Bool = true) throws(AudioError) {
        meter = try LoudnessMeter(sampleRate: sampleRate, truePeak: truePeak)
    }

    /// Hands over `count` interleaved stereo frames (copied).
    func add(interleaved samples: UnsafePointer<Float>, count: Int) {
        guard count > 0 else { return }
        let block = Array(UnsafeBufferPointer(start: samples, count: count * 2))
        room.wait()
        queue.async { [self] in
            block.withUnsafeBufferPointer { meter.add(interleaved: $0.baseAddress!, count: count) }
            room.signal()
        }
    }

    /// Waits for every block handed over, then gives the meter.
    func finish() -> LoudnessMeter {
        queue.sync {}
        return meter
    }
}
