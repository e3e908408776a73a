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

    /// The start of bar `number` (1-based) in seconds, counting bars with the time signatures
    /// (4/4 before the first); a signature change starts a new bar. Nil for SMPTE files, which
    /// have no beats, and for bar numbers below 1.
    public func startSeconds(ofBar number: Int) -> Double? {
        guard number >= 1, case .ticksPerQuarter(let ticksPerQuarter) = division else { return nil }
        var signatures = timeSignatures.filter { $0.tick > 0 }.map { (tick: $0.tick, numerator: $0.numerator, denominator: $0.denominator) }
        let first = timeSignatures.last { $0.tick == 0 }
        signatures.insert((0, first?.numerator ?? 4, first?.denominator ?? 4), at: 0)
        var barStart = 0, bar = 1
        for (index, signature) in signatures.enumerated() {
            let ticksPerBar = max(1, signature.numerator * ticksPerQuarter * 4 / max(signature.denominator, 1))
            let segmentEnd = index + 1 < signatures.count ? signatures[index + 1].tick : Int.max
            // Bars that start inside this segment.
            let barsHere = segmentEnd == Int.max ? Int.max : (segmentEnd - barStart + ticksPerBar - 1) / ticksPerBar
            if number - bar < barsHere {
                return seconds(atTick: barStart + (number - bar) * ticksPerBar)
            }
            bar += barsHere
            barStart = segmentEnd
        }
        return nil
    }
}
