/// Note names as Latin-1 bytes, with middle C (MIDI 60) as C4: `C#4`.
package enum NoteName {
    static let pitchClasses = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"]

    /// Names of the 128 MIDI pitches.
    package static let all: [[UInt8]] = (0..<128).map { Array(name(of: UInt8($0)).utf8) }

    /// Names of the 12 pitch classes without octave.
    package static let classes: [[UInt8]] = pitchClasses.map { Array($0.utf8) }

    /// The pitch a name like `C4`, `F#1`, `Bb6`, `c-1` or `G9` names, middle C being C4; nil
    /// for a name that is none (`H9`) or a key beyond MIDI's 0...127.
    package static func pitch(named name: String) -> Int? {
        var rest = Substring(name)
        guard let letter = rest.first, let step = ["C": 0, "D": 2, "E": 4, "F": 5, "G": 7, "A": 9, "B": 11][letter.uppercased()] else { return nil }
        rest = rest.dropFirst()
        var pitchClass = step
        if rest.first == "#" {
            pitchClass += 1
            rest = rest.dropFirst()
        } else if rest.first == "b" {
            pitchClass -= 1
            rest = rest.dropFirst()
        }
        guard !rest.isEmpty, rest.count <= 2, let octave = Int(rest), (-1...9).contains(octave) else { return nil }
        let pitch = (octave + 1) * 12 + pitchClass
        return (0...127).contains(pitch) ? pitch : nil
    }

    package static func name(of pitch: UInt8) -> String {
        pitchClasses[Int(pitch) % 12] + String(Int(pitch) / 12 - 1)
    }

    /// The names of the 128 pitches in each `NoteNaming`, by `NoteNaming.tableIndex`.
    static let tables: [[[UInt8]]] = NoteNaming.all.map { naming in (0..<128).map { Array(naming.name(of: UInt8($0)).utf8) } }
}

/// How `--labels` names a note: letters (C#4, Eb5) or fixed-do solfège (Do#, Mib), with
/// accidentals spelled by the key signature as chord names are, with or without the octave.
package struct NoteNaming: Sendable, Hashable {
    package var solfege: Bool
    package var spelling: ChordName.Spelling
    package var octave: Bool

    package init(solfege: Bool, spelling: ChordName.Spelling, octave: Bool) {
        self.solfege = solfege
        self.spelling = spelling
        self.octave = octave
    }

    static let all: [NoteNaming] = [false, true].flatMap { solfege in
        [ChordName.Spelling.sharps, .flats, .common].flatMap { spelling in
            [false, true].map { NoteNaming(solfege: solfege, spelling: spelling, octave: $0) }
        }
    }

    var tableIndex: Int {
        let spellingIndex: Int
        switch spelling {
        case .sharps: spellingIndex = 0
        case .flats: spellingIndex = 1
        case .common: spellingIndex = 2
        }
        return (solfege ? 6 : 0) + spellingIndex * 2 + (octave ? 1 : 0)
    }

    static let syllables: [Character: String] = ["C": "Do", "D": "Re", "E": "Mi", "F": "Fa", "G": "Sol", "A": "La", "B": "Si"]

    /// `F#5`, `Gb5`, `Sol b`-style `Solb`, with middle C as C4.
    package func name(of pitch: UInt8) -> String {
        var name = spelling.name(ofPitchClass: Int(pitch) % 12)
        if solfege, let letter = name.first { name = Self.syllables[letter]! + name.dropFirst() }
        return octave ? name + String(Int(pitch) / 12 - 1) : name
    }
}

/// A note named as a score writes it (`D#4` under a notehead written with a sharp, where the key
/// would spell it `Eb4`): its letter, its alteration and the octave that goes with them (`B#3`
/// is MIDI 60).
package struct WrittenNote: Sendable, Hashable {
    /// 0 (C) to 6 (B).
    package let step: UInt8
    /// -2 to 2 semitones.
    package let alter: Int8
    /// -1 to 9, middle C's being 4.
    package let octave: Int8

    package static let stepSemitones = [0, 2, 4, 5, 7, 9, 11]
    static let letters = ["C", "D", "E", "F", "G", "A", "B"]
    static let accidentals = ["bb", "b", "", "#", "##"]

    /// `pitch` spelled with letter `step` and `alter` semitones; nil when they name another pitch
    /// class (a transposing instrument's written note) or lie outside the names midiviz writes.
    package init?(pitch: UInt8, step: Int, alter: Int) {
        guard (0..<7).contains(step), (-2...2).contains(alter) else { return nil }
        let natural = Int(pitch) - alter - Self.stepSemitones[step]
        guard natural >= 0, natural % 12 == 0, (0...10).contains(natural / 12) else { return nil }
        self.step = UInt8(step)
        self.alter = Int8(alter)
        self.octave = Int8(natural / 12 - 1)
    }

    /// The MIDI pitch it names.
    package var pitch: Int { (Int(octave) + 1) * 12 + Self.stepSemitones[Int(step)] + Int(alter) }

    /// `D#4`, `Re#` (solfège, as `NoteNaming` writes it), with the octave or not.
    func name(solfege: Bool, octave showsOctave: Bool) -> String {
        let letter = Self.letters[Int(step)]
        let name = (solfege ? NoteNaming.syllables[Character(letter)]! : letter) + Self.accidentals[Int(alter) + 2]
        return showsOctave ? name + String(octave) : name
    }

    /// The names of every written note, by `tableIndex`.
    static let table: [[UInt8]] = (0..<7 * 5 * 11 * 4).map { index in
        let step = index / (5 * 11 * 4), alter = index / (11 * 4) % 5 - 2, octave = index / 4 % 11 - 1
        let note = WrittenNote(step: UInt8(step), alter: Int8(alter), octave: Int8(octave))
        return Array(note.name(solfege: index / 2 % 2 == 1, octave: index % 2 == 1).utf8)
    }

    private init(step: UInt8, alter: Int8, octave: Int8) { (self.step, self.alter, self.octave) = (step, alter, octave) }

    func tableIndex(solfege: Bool, octave showsOctave: Bool) -> Int {
        ((Int(step) * 5 + Int(alter) + 2) * 11 + Int(octave) + 1) * 4 + (solfege ? 2 : 0) + (showsOctave ? 1 : 0)
    }
}
