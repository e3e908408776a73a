import Algorithms

/// Converts ticks to seconds: resolved once at load from every tempo event of every track, or a
/// fixed rate for SMPTE division.
package struct TempoMap: Sendable {
    /// One stretch of constant tempo.
    struct Segment: Sendable {
        var startTick: Int
        var startSeconds: Double
        var microsecondsPerQuarter: Int
    }

    private let segments: [Segment]
    private let ticksPerQuarter: Int
    /// Set for SMPTE division: seconds per tick, tempo ignored.
    private let fixedSecondsPerTick: Double?

    package static let defaultMicrosecondsPerQuarter = 500_000

    /// - Parameters:
    ///   - division: the file's time division.
    ///   - changes: (tick, microseconds per quarter note) from every track, in any order.
    package init(division: Division, changes: [(tick: Int, microsecondsPerQuarter: Int)]) {
        switch division {
        case .smpte(let fps, let ticksPerFrame):
            fixedSecondsPerTick = 1.0 / (fps * Double(ticksPerFrame))
            ticksPerQuarter = 1
            segments = []
        case .ticksPerQuarter(let ticks):
            fixedSecondsPerTick = nil
            ticksPerQuarter = ticks
            var built = [Segment(startTick: 0, startSeconds: 0, microsecondsPerQuarter: Self.defaultMicrosecondsPerQuarter)]
            // A stable sort keeps file order among changes at one tick: the last one wins.
            for change in changes.enumerated().sorted(by: { ($0.element.tick, $0.offset) < ($1.element.tick, $1.offset) }).map(\.element) {
                let last = built[built.count - 1]
                if change.tick == last.startTick {
                    built[built.count - 1].microsecondsPerQuarter = change.microsecondsPerQuarter
                } else if change.microsecondsPerQuarter != last.microsecondsPerQuarter {
                    let seconds = last.startSeconds + Double(change.tick - last.startTick) * Double(last.microsecondsPerQuarter) / (1_000_000 * Double(ticks))
                    built.append(Segment(startTick: change.tick, startSeconds: seconds, microsecondsPerQuarter: change.microsecondsPerQuarter))
                }
            }
            segments = built
        }
    }

    package func seconds(atTick tick: Int) -> Double {
        if let fixedSecondsPerTick { return Double(tick) * fixedSecondsPerTick }
        // The last segment starting at or before `tick` (the first, before any).
        let segment = segments[max(0, segments.partitioningIndex { $0.startTick > tick } - 1)]
        return segment.startSeconds + Double(tick - segment.startTick) * Double(segment.microsecondsPerQuarter) / (1_000_000 * Double(ticksPerQuarter))
    }

    /// The tempo changes as (seconds, beats per minute), starting with the tempo at 0; empty for SMPTE.
    package var changes: [TempoChange] {
        segments.map {
            TempoChange(
                seconds: $0.startSeconds, tick: $0.startTick,
                beatsPerMinute: 60_000_000 / Double(max($0.microsecondsPerQuarter, 1)))
        }
    }
}
