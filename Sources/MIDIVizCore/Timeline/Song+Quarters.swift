extension Song {
    /// Quarter notes from the song's start (tick 0) at `seconds`, through the song's own tempo
    /// map: the inverse of `seconds(atTick:)` divided by the ticks per quarter. SMPTE files,
    /// which have no quarters, count two a second.
    package func quarters(atSeconds seconds: Double) -> Double {
        guard case .ticksPerQuarter(let ticksPerQuarter) = division else { return seconds * 2 }
        guard let change = tempoChanges.last(where: { $0.seconds <= seconds }) ?? tempoChanges.first else {
            return seconds * 2
        }
        let ticks = Double(change.tick) + (seconds - change.seconds) * change.beatsPerMinute / 60 * Double(ticksPerQuarter)
        return ticks / Double(ticksPerQuarter)
    }

    /// The ticks per quarter note (480 for SMPTE files, as a notation of them counts).
    package var ticksPerQuarter: Int {
        if case .ticksPerQuarter(let ticks) = division { return ticks }
        return 480
    }
}
