/// Where piano keys lie along the keyboard, in two measures:
/// - white-key units (`whiteKeySpan`), for a drawn piano: white keys of equal width 1, black
///   keys 0.58 wide, centred as on a real keyboard (C# left of the C|D line, D# right of D|E,
///   F# and A# off the F|G and A|B lines, G# on G|A): each group of black keys splits its white
///   keys (C–E, F–B) into equal slots;
/// - semitone units (`semitoneSpan`), for a piano roll whose rows are one semitone each: black
///   keys fill their row, white keys share the rows of their group (C–E: 5/3 rows each, F–B:
///   7/4), so every key lines up with its notes.
package enum PianoKeys {
    package static func isBlack(_ pitch: Int) -> Bool { (0b0101_0100_1010 >> (pitch % 12)) & 1 == 1 }

    /// The lowest and highest keys of an 88-key piano: A0 and C8.
    package static let eightyEight = 21...108

    package static let blackKeyWidth: Float = 0.58
    /// Black keys reach this far along a white key's length.
    package static let blackKeyLength: Float = 0.63

    /// The white keys below `pitch` from C-1 (MIDI 0): for a white key, its left edge.
    package static func whiteKeyIndex(_ pitch: Int) -> Int {
        pitch / 12 * 7 + whitesBefore[pitch % 12]
    }

    private static let whitesBefore = [0, 1, 1, 2, 2, 3, 4, 4, 5, 5, 6, 6]

    /// The key's extent in white-key units from C-1's left edge.
    package static func whiteKeySpan(_ pitch: Int) -> (lower: Float, upper: Float) {
        guard isBlack(pitch) else {
            let left = Float(whiteKeyIndex(pitch))
            return (left, left + 1)
        }
        let centre = Float(pitch / 12 * 7) + blackKeyCentres[pitch % 12]
        return (centre - blackKeyWidth / 2, centre + blackKeyWidth / 2)
    }

    /// Black key centres in an octave, in white-key units: C–E splits 3 whites into 5 slots,
    /// F–B splits 4 into 7.
    private static let blackKeyCentres: [Float] = [0, 1.5 * 3 / 5, 0, 3.5 * 3 / 5, 0, 0, 3 + 1.5 * 4 / 7, 0, 3 + 3.5 * 4 / 7, 0, 3 + 5.5 * 4 / 7, 0]

    /// White key edges in an octave, in semitone rows.
    private static let whiteKeyRows: [(Float, Float)] = [
        (0, 5.0 / 3), (0, 0), (5.0 / 3, 10.0 / 3), (0, 0), (10.0 / 3, 5), (5, 6.75), (0, 0),
        (6.75, 8.5), (0, 0), (8.5, 10.25), (0, 0), (10.25, 12),
    ]

    /// The key's extent in semitone rows from C-1's lower edge.
    package static func semitoneSpan(_ pitch: Int) -> (lower: Float, upper: Float) {
        if isBlack(pitch) { return (Float(pitch), Float(pitch) + 1) }
        let octave = Float(pitch / 12 * 12), edge = whiteKeyRows[pitch % 12]
        return (octave + edge.0, octave + edge.1)
    }

    /// The black keys touching white key `pitch` (its neighbours a semitone away).
    package static func blackNeighbours(of pitch: Int) -> [Int] {
        [pitch - 1, pitch + 1].filter { $0 >= 0 && $0 < 128 && isBlack($0) }
    }

    /// `range` widened to whole octaves, C to B, within 0...127.
    package static func wholeOctaves(around range: ClosedRange<Int>) -> ClosedRange<Int> {
        (range.lowerBound / 12 * 12)...min(127, range.upperBound / 12 * 12 + 11)
    }

    /// The keys to draw over a keyboard at rest, in order, when the keys with a colour in `lit`
    /// are lit: the lit white keys, then every black key that is lit or lies over a lit white
    /// key (which would otherwise cover it).
    static func keysToRedraw(in keys: ClosedRange<Int>, lit: [RGBA?]) -> [Int] {
        var order: [Int] = []
        var blackToDraw = [Bool](repeating: false, count: 128)
        for pitch in keys where lit[pitch] != nil {
            if isBlack(pitch) {
                blackToDraw[pitch] = true
            } else {
                order.append(pitch)
                for neighbour in blackNeighbours(of: pitch) where keys.contains(neighbour) { blackToDraw[neighbour] = true }
            }
        }
        for pitch in keys where blackToDraw[pitch] { order.append(pitch) }
        return order
    }
}
