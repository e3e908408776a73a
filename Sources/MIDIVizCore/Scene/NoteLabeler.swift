import Algorithms

/// Names for notes and keys under `--labels`: the key signature in force at a moment decides
/// the spelling (as for chord names), and a name is written only where it fits.
struct NoteLabeler: Sendable {
    let labels: RenderSettings.Labels
    /// Key signature changes: when, and how they spell.
    private let keyChanges: [(seconds: Double, spelling: ChordName.Spelling)]
    /// The names' text size (`TextSize.small`) in pixels, and the height of its capitals.
    let pixels: Float
    let capHeight: Float

    /// A capital's height in ems (DejaVu Sans).
    static let capHeightEms: Float = 0.73

    init(song: Song, settings: RenderSettings) {
        labels = settings.labels
        keyChanges = song.keySignatures.map { ($0.seconds, ChordName.Spelling(keySharps: $0.sharps)) }
        pixels = Float(TextSize.small.pixelSize(canvasSide: settings.textSide))
        capHeight = pixels * Self.capHeightEms
    }

    var isOn: Bool { labels != .off }

    func spelling(at seconds: Double) -> ChordName.Spelling {
        let low = keyChanges.partitioningIndex { $0.seconds > seconds + 1e-9 }
        return low == 0 ? .common : keyChanges[low - 1].spelling
    }

    /// The label of `pitch` at `seconds` if it fits `room` pixels across: with its octave
    /// (letters only) when that fits, else without, else nil.
    func label(_ pitch: UInt8, at seconds: Double, room: Float) -> TextLabel? {
        guard isOn else { return nil }
        let spelling = spelling(at: seconds)
        let solfege = labels == .solfege
        for octave in solfege ? [false] : [true, false] {
            let naming = NoteNaming(solfege: solfege, spelling: spelling, octave: octave)
            let width = Float(NoteName.tables[naming.tableIndex][Int(pitch & 0x7F)].count) * Overlay.averageCharacterEms * pixels
            if width <= room { return .spelledNote(pitch, naming) }
        }
        return nil
    }

    /// The name of `pitch` at `seconds` whatever its width (with the octave unless `octave` is
    /// false or the names are solfège), or nil when labels are off.
    /// - Parameter written: the note's spelling as a score engraves it: named so when it spells
    ///   `pitch` (not a transposing instrument's written note), else by the key.
    func name(_ pitch: UInt8, at seconds: Double, octave: Bool = true, written: SheetMusic.Spelling? = nil) -> TextLabel? {
        guard isOn else { return nil }
        let solfege = labels == .solfege
        if let written, let note = WrittenNote(pitch: pitch, step: written.step, alter: written.alter) {
            return .writtenNote(note, solfege: solfege, octave: octave && !solfege)
        }
        return .spelledNote(pitch, NoteNaming(solfege: solfege, spelling: spelling(at: seconds), octave: octave && !solfege))
    }

    /// Ink that reads on `fill`.
    static func ink(on fill: RGBA, alpha: Float = 0.92) -> RGBA {
        (fill.luma > 0.55 ? RGBA(0.03, 0.03, 0.06) : RGBA(1, 1, 1)).withAlpha(alpha)
    }
}
