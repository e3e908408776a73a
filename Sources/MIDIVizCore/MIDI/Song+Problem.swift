/// What a render reads of a song, checked: a song the loader made always passes; one made or
/// changed by hand through the public fields may not, and is refused instead of drawn wrongly
/// or trapping mid-render.
extension Song {
    /// Nil when every value a render reads is in range; else the first that is not.
    public var problem: String? {
        guard durationSeconds.isFinite, durationSeconds >= 0 else { return "its duration is \(durationSeconds) s" }
        var previousStart = -Double.infinity
        for (index, note) in notes.enumerated() {
            guard note.startSeconds.isFinite, note.endSeconds.isFinite, note.startSeconds <= note.endSeconds else {
                return "note \(index) runs from \(note.startSeconds) to \(note.endSeconds) s: not two finite times, the start first"
            }
            guard note.pitch <= 127, note.velocity <= 127, note.channel <= 15, note.program <= 127 else {
                return "note \(index) has pitch \(note.pitch), velocity \(note.velocity), channel \(note.channel), program \(note.program): "
                    + "MIDI allows 0-127, 0-127, 0-15 and 0-127"
            }
            guard note.startSeconds >= previousStart else { return "its notes are not sorted by start (note \(index))" }
            previousStart = note.startSeconds
        }
        for change in tempoChanges where !change.seconds.isFinite || !change.beatsPerMinute.isFinite || change.beatsPerMinute <= 0 {
            return "a tempo change of \(change.beatsPerMinute) bpm at \(change.seconds) s"
        }
        for signature in timeSignatures
        where !signature.seconds.isFinite || !TimeSignature.numerators.contains(signature.numerator)
            || !TimeSignature.denominatorPowers.map({ 1 << $0 }).contains(signature.denominator)
        {
            return "a time signature of \(signature.numerator)/\(signature.denominator): MIDI allows 1-255 over a power of two up to 65536"
        }
        for key in keySignatures where !key.seconds.isFinite || !KeySignature.sharpsRange.contains(key.sharps) {
            return "a key signature of \(key.sharps) sharps: MIDI allows -7 to 7"
        }
        if let event = synthEvents.first(where: { !$0.seconds.isFinite }) { return "a MIDI event at \(event.seconds) s" }
        if let text = texts.first(where: { !$0.seconds.isFinite }) { return "a text event at \(text.seconds) s" }
        return nil
    }
}
