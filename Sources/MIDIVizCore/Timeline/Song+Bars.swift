/// Times of ticks and bars, from the tempo map and time signatures resolved at load.
extension Song {
    /// Seconds at `tick`, from the tempo changes (or the SMPTE rate).
    package func seconds(atTick tick: Int) -> Double {
        switch division {
        case .smpte(let fps, let ticksPerFrame):
            return Double(tick) / (fps * Double(ticksPerFrame))
        case .ticksPerQuarter(let ticksPerQuarter):
            guard let change = tempoChanges.last(where: { $0.tick <= tick }) ?? tempoChanges.first else {
                return Double(tick) * 0.5 / Double(ticksPerQuarter)
            }
            return change.seconds + Double(tick - change.tick) * 60 / (change.beatsPerMinute * Double(ticksPerQuarter))
        }
    }

    /// A stretch of the song in one time signature, from `startTick` (where its first bar
    /// starts) to the next signature's tick. Every bar and beat tick is computed from the
    /// segment's start (never by adding up rounded lengths), so odd divisions do not drift.
    struct MeterSegment {
        var startTick: Int
        var endTick: Int
        var numerator: Int
        var denominator: Int
        /// Ticks in a whole note (four quarters).
        var ticksPerWhole: Int
        /// The number of the segment's first bar (1-based).
        var firstBar: Int
        /// The beat the grid shows, in denominator notes: 1, or 3 (a dotted quarter) in 6/8,
        /// 9/8, 12/8.
        var notesPerBeat: Int

        var beatsPerBar: Int { max(1, numerator / notesPerBeat) }

        /// The tick where beat `beat` of the segment's bar `bar` (both 0-based) starts. A bar
        /// is never shorter than one tick.
        /// Saturates far past any song (`--from bar:N` with a huge N) instead of overflowing.
        func tick(ofBar bar: Int, beat: Int = 0) -> Int {
            guard bar <= Int.max / (4 * numerator) else { return Int.max / 2 }
            let notes = bar * numerator + beat * notesPerBeat
            let (product, overflow) = notes.multipliedReportingOverflow(by: ticksPerWhole)
            guard !overflow, product / denominator <= Int.max / 2 - startTick else { return Int.max / 2 }
            return startTick + (beat == 0 ? max(bar, product / denominator) : product / denominator)
        }

        /// Bars starting in this segment (`Int.max` for the last).
        var barCount: Int {
            guard endTick != Int.max else { return Int.max }
            let length = endTick - startTick, perBar = numerator * ticksPerWhole
            // floor(k * perBar / denominator) < length  <=>  k < length * denominator / perBar.
            return perBar >= denominator ? (length * denominator + perBar - 1) / perBar : length
        }
    }

    /// The time signatures as segments (4/4 before the first); a signature change starts a new
    /// bar. Empty for SMPTE files, which have no beats.
    func meterSegments() -> [MeterSegment] {
        guard case .ticksPerQuarter(let ticksPerQuarter) = division else { return [] }
        var signatures = timeSignatures.filter { $0.tick > 0 }.map { (tick: $0.tick, numerator: $0.numerator, denominator: $0.denominator) }
        let first = timeSignatures.last { $0.tick == 0 }
        signatures.insert((0, first?.numerator ?? 4, first?.denominator ?? 4), at: 0)
        var segments: [MeterSegment] = []
        var bar = 1
        for (index, signature) in signatures.enumerated() {
            let numerator = max(1, signature.numerator), denominator = max(1, signature.denominator)
            let compound = denominator >= 8 && numerator > 3 && numerator % 3 == 0
            let segment = MeterSegment(
                startTick: segments.last?.endTick ?? 0,
                endTick: index + 1 < signatures.count ? signatures[index + 1].tick : Int.max,
                numerator: numerator, denominator: denominator,
                ticksPerWhole: 4 * ticksPerQuarter, firstBar: bar,
                notesPerBeat: compound ? 3 : 1)
            segments.append(segment)
            if segment.barCount != Int.max { bar += segment.barCount }
        }
        return segments
    }

    /// The start of bar `number` (1-based) in seconds, counting bars with the time signatures
    /// (4/4 before the first); a signature change starts a new bar. Nil for SMPTE files, which
    /// have no beats, and for bar numbers below 1.
    package func startSeconds(ofBar number: Int) -> Double? {
        guard number >= 1 else { return nil }
        for segment in meterSegments() where number - segment.firstBar < segment.barCount {
            return seconds(atTick: segment.tick(ofBar: number - segment.firstBar))
        }
        return nil
    }
}
