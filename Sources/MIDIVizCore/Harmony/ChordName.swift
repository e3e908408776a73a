/// A chord symbol: root, quality and, for an inversion, the bass (`C`, `F#m7`, `Bbmaj7/D`).
/// Chords are named from pitch classes only; `identify` knows the eleven qualities below and
/// names nothing else.
package struct ChordName: Sendable, Equatable, CustomStringConvertible {
    package enum Quality: String, Sendable, CaseIterable {
        case major = "", minor = "m", diminished = "dim", augmented = "aug", sus2, sus4
        case major7 = "maj7", minor7 = "m7", dominant7 = "7", diminished7 = "dim7", halfDiminished7 = "m7b5"

        /// Semitones above the root.
        package var intervals: [Int] {
            switch self {
            case .major: return [0, 4, 7]
            case .minor: return [0, 3, 7]
            case .diminished: return [0, 3, 6]
            case .augmented: return [0, 4, 8]
            case .sus2: return [0, 2, 7]
            case .sus4: return [0, 5, 7]
            case .major7: return [0, 4, 7, 11]
            case .minor7: return [0, 3, 7, 10]
            case .dominant7: return [0, 4, 7, 10]
            case .diminished7: return [0, 3, 6, 9]
            case .halfDiminished7: return [0, 3, 6, 10]
            }
        }

        /// The intervals as a 12-bit set, bit 0 the root.
        var mask: UInt16 { intervals.reduce(0) { $0 | 1 << UInt16($1) } }
    }

    /// How accidentals are written.
    package enum Spelling: Sendable, Equatable {
        /// C# D# F# G# A#: in keys with sharps.
        case sharps
        /// Db Eb Gb Ab Bb: in keys with flats.
        case flats
        /// Db Eb F# Ab Bb, the usual chord-chart spelling: when the key is C/Am or unknown.
        case common

        /// The spelling for a key signature with `sharps` sharps (negative: flats).
        package init(keySharps sharps: Int?) {
            guard let sharps, sharps != 0 else { self = .common; return }
            self = sharps > 0 ? .sharps : .flats
        }

        func name(ofPitchClass pitchClass: Int) -> String {
            let names: [String]
            switch self {
            case .sharps: names = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"]
            case .flats: names = ["C", "Db", "D", "Eb", "E", "F", "Gb", "G", "Ab", "A", "Bb", "B"]
            case .common: names = ["C", "Db", "D", "Eb", "E", "F", "F#", "G", "Ab", "A", "Bb", "B"]
            }
            return names[pitchClass % 12]
        }
    }

    /// Pitch classes, C = 0.
    package var root: Int
    package var quality: Quality
    /// The lowest sounding pitch class when it is not the root.
    package var bass: Int?
    package var spelling: Spelling

    package init(root: Int, quality: Quality, bass: Int? = nil, spelling: Spelling = .common) {
        self.root = root
        self.quality = quality
        self.bass = bass
        self.spelling = spelling
    }

    package var symbol: String {
        let name = spelling.name(ofPitchClass: root) + quality.rawValue
        guard let bass else { return name }
        return name + "/" + spelling.name(ofPitchClass: bass)
    }

    package var description: String { symbol }

    /// The chord's pitch classes as a 12-bit set, bit 0 = C.
    package var pitchClasses: UInt16 { Self.rotated(quality.mask, down: (12 - root % 12) % 12) }

    /// The chord made by `pitchClasses` (a 12-bit set, bit 0 = C) over the bass pitch class
    /// `bass`, or nil when the set is not exactly one of the qualities (fewer than three pitch
    /// classes never is). When the set reads as more than one chord (an augmented triad or a
    /// diminished seventh is symmetric; Csus2 is Gsus4), the reading rooted on the bass wins,
    /// then the first quality in `Quality.allCases`.
    package static func identify(pitchClasses: UInt16, bass: Int, spelling: Spelling = .common) -> ChordName? {
        let set = pitchClasses & 0xFFF
        guard set.nonzeroBitCount >= 3, set & (1 << UInt16(bass % 12)) != 0 else { return nil }
        var best: ChordName?
        for (root, quality) in readings[Int(set)] {
            let chord = ChordName(root: root, quality: quality, bass: root == bass % 12 ? nil : bass % 12, spelling: spelling)
            if chord.bass == nil { return chord }
            if best == nil { best = chord }
        }
        return best
    }

    /// For each 12-bit set, the chords it is, by quality (in `Quality.allCases` order) then root.
    private static let readings: [[(root: Int, quality: Quality)]] = {
        var table = [[(root: Int, quality: Quality)]](repeating: [], count: 4096)
        for quality in Quality.allCases {
            for root in 0..<12 { table[Int(rotated(quality.mask, down: (12 - root) % 12))].append((root, quality)) }
        }
        return table
    }()

    /// The chord sounding in `pitches` (MIDI numbers, any order, doublings allowed). When all of
    /// them name no chord, the top voice is read as a melody over the chord and left out, if no
    /// lower note doubles its pitch class (C E G under a D names C).
    package static func identify<Pitches: Sequence>(pitches: Pitches, spelling: Spelling = .common) -> ChordName? where Pitches.Element == Int {
        var set: UInt16 = 0, lowerSet: UInt16 = 0
        var lowest = Int.max, highest = Int.min
        for pitch in pitches {
            set |= 1 << UInt16(pitch % 12)
            if pitch > highest {
                if highest != Int.min { lowerSet |= 1 << UInt16(highest % 12) }
                highest = pitch
            } else if pitch < highest {
                lowerSet |= 1 << UInt16(pitch % 12)
            }
            lowest = min(lowest, pitch)
        }
        guard lowest != Int.max else { return nil }
        if let chord = identify(pitchClasses: set, bass: lowest % 12, spelling: spelling) { return chord }
        let top: UInt16 = 1 << UInt16(highest % 12)
        guard highest != lowest, lowerSet & top == 0 else { return nil }
        return identify(pitchClasses: set & ~top, bass: lowest % 12, spelling: spelling)
    }

    /// The set transposed down by `semitones`, so that pitch class `semitones` becomes bit 0.
    static func rotated(_ set: UInt16, down semitones: Int) -> UInt16 {
        guard semitones % 12 != 0 else { return set }
        let shift = UInt16(semitones % 12)
        return ((set >> shift) | (set << (12 - shift))) & 0xFFF
    }
}
