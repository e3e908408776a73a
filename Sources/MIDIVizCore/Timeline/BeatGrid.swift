import Algorithms

/// The song's bar and beat lines in seconds, from the time signatures and the tempo map: each
/// line's time is converted from its tick, never accumulated, so a tempo change does not make
/// the grid drift. Built once; a query is a binary search, whatever the song's length.
package struct BeatGrid: Sendable {
    package struct Line: Sendable, Equatable {
        package var seconds: Double
        package var tick: Int
        /// The bar this line is in (1-based).
        package var bar: Int
        /// True for the first beat of a bar.
        package var isBarStart: Bool
    }

    package let lines: [Line]

    init(lines: [Line]) { self.lines = lines }

    /// Lines from the start until `seconds` (SMPTE files have none). Lines closer than
    /// `minimumGap` to the one before are left out (a bar start replaces a beat), so a
    /// degenerate meter or tempo cannot fill the frame or the memory.
    package init(song: Song, until seconds: Double) {
        var lines: [Line] = []
        var clock = TickClock(song: song)
        var candidates = 0
        segments: for segment in song.meterSegments() {
            var bar = 0
            while segment.tick(ofBar: bar) < segment.endTick {
                for beat in 0..<segment.beatsPerBar {
                    let tick = segment.tick(ofBar: bar, beat: beat)
                    guard tick < segment.endTick else { break }
                    candidates += 1
                    let time = clock.seconds(atTick: tick)
                    if time > seconds || candidates > Self.candidateLimit { break segments }
                    let line = Line(seconds: time, tick: tick, bar: segment.firstBar + bar, isBarStart: beat == 0)
                    if let last = lines.last, tick <= last.tick || time - last.seconds < Self.minimumGap {
                        if line.isBarStart && !last.isBarStart { lines[lines.count - 1] = line }
                        continue
                    }
                    lines.append(line)
                }
                bar += 1
            }
        }
        self.lines = lines
    }

    /// Lines this close (in seconds) are one line on screen: 1.2 frames at 60 fps.
    static let minimumGap = 0.02
    static let candidateLimit = 2_000_000

    /// Calls `body` with each line in `range`, in time order.
    package func forEachLine(in range: ClosedRange<Double>, _ body: (Line) -> Void) {
        var low = lines.partitioningIndex { $0.seconds >= range.lowerBound }
        while low < lines.count, lines[low].seconds <= range.upperBound {
            body(lines[low])
            low += 1
        }
    }
}

/// Converts increasing ticks to seconds in one walk over the tempo changes (the same formula as
/// `Song.seconds(atTick:)`, without its search).
struct TickClock {
    private let song: Song
    private var next = 0

    init(song: Song) { self.song = song }

    mutating func seconds(atTick tick: Int) -> Double {
        guard case .ticksPerQuarter(let ticksPerQuarter) = song.division, !song.tempoChanges.isEmpty else {
            return song.seconds(atTick: tick)
        }
        let changes = song.tempoChanges
        while next < changes.count, changes[next].tick <= tick { next += 1 }
        let change = changes[max(0, next - 1)]
        return change.seconds + Double(tick - change.tick) * 60 / (change.beatsPerMinute * Double(ticksPerQuarter))
    }
}
