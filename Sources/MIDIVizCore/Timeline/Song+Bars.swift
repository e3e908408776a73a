/// Times of ticks and bars, from the tempo map and time signatures resolved at load.
extension Song {
    /// Seconds at `tick`, from the tempo changes (or the SMPTE rate).
    public func seconds(atTick tick: Int) -> Double {
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
    /// starts) to the next signature's tick.
    struct MeterSegment {
        var startTick: Int
        var endTick: Int
        var numerator: Int
        var denominator: Int
        /// The number of the segment's first bar (1-based).
        var firstBar: Int
        var ticksPerBar: Int
        /// The beat the grid shows: the denominator's note, or a dotted one in 6/8, 9/8, 12/8.
        var ticksPerBeat: Int

        /// Bars starting in this segment (`Int.max` for the last).
        var barCount: Int {
            endTick == Int.max ? Int.max : (endTick - startTick + ticksPerBar - 1) / ticksPerBar
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
            let ticksPerUnit = max(1, ticksPerQuarter * 4 / denominator)
            let compound = denominator >= 8 && numerator > 3 && numerator % 3 == 0
            let segment = MeterSegment(startTick: segments.last?.endTick ?? 0,
                                       endTick: index + 1 < signatures.count ? signatures[index + 1].tick : Int.max,
                                       numerator: numerator, denominator: denominator, firstBar: bar,
                                       ticksPerBar: max(1, numerator * ticksPerQuarter * 4 / denominator),
                                       ticksPerBeat: compound ? 3 * ticksPerUnit : ticksPerUnit)
            segments.append(segment)
            if segment.barCount != Int.max { bar += segment.barCount }
        }
        return segments
    }

    /// The start of bar `number` (1-based) in seconds, counting bars with the time signatures
    /// (4/4 before the first); a signature change starts a new bar. Nil for SMPTE files, which
    /// have no beats, and for bar numbers below 1.
    public func startSeconds(ofBar number: Int) -> Double? {
        guard number >= 1 else { return nil }
        for segment in meterSegments() where number - segment.firstBar < segment.barCount {
            return seconds(atTick: segment.startTick + (number - segment.firstBar) * segment.ticksPerBar)
        }
        return nil
    }
}
