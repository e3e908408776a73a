/// How much room a character takes in a line of text, judged without the font (lyrics are laid
/// out before any glyph is measured): none for combining marks (kana's voicing marks and
/// Hangul's vowel and final jamo among them), zero-width spaces, joiners, direction marks,
/// variation selectors and skin tones; a full em for the East Asian wide and fullwidth
/// characters (CJK, kana, Hangul syllables, fullwidth forms, the pictographic emoji blocks);
/// about 0.6 em for the rest (an estimate: the font decides).
package enum CharacterWidth: Sendable {
    case zero, narrow, wide

    package init(_ character: UInt32) {
        switch character {
        case 0x0300...0x036F, 0x1160...0x11FF, 0x200B...0x200F, 0x20D0...0x20FF, 0x3099...0x309A, 0xFE00...0xFE0F, 0xFE20...0xFE2F,
            0xFEFF, 0x1F3FB...0x1F3FF:
            self = .zero
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F680...0x1F6FF, 0x1F900...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x3FFFD:
            self = .wide
        default:
            self = .narrow
        }
    }

    /// Columns, as a terminal counts them: a wide character takes two narrow ones' room (a
    /// little more than it needs: 1 em against 1.2).
    package var columns: Int {
        switch self {
        case .zero: return 0
        case .narrow: return 1
        case .wide: return 2
        }
    }

    /// The width in ems.
    package var ems: Float {
        switch self {
        case .zero: return 0
        case .narrow: return 0.6
        case .wide: return 1
        }
    }

    /// The columns of `characters`.
    package static func columns<Characters: Sequence>(of characters: Characters) -> Int where Characters.Element == Unicode.Scalar {
        characters.reduce(0) { $0 + CharacterWidth($1.value).columns }
    }
}
