/// What shapes refer to by number instead of holding: the texts, lines of lyrics and engraved
/// music of one scene. A shape then holds no array and no reference, and is copied as plain
/// bytes with nothing to count: a dense frame passes some 100,000 shapes through its steps,
/// and the counted copies of shapes that held arrays took a fifth of the roll's frame at
/// 50,000 notes on screen. Filled while the scene is made, then only read (`TextFonts.store`).
package struct ShapeStore: Sendable {
    private var texts: [[UInt8]] = []
    private var textIndices: [[UInt8]: Int32] = [:]
    private var lines: [[UInt32]] = []
    /// The engraved music that `Shape.sheet` shows.
    package var sheet: SheetMusic?

    package init() {}

    /// A label for `bytes` (Latin-1), stored once however often it is added.
    package mutating func add(_ bytes: [UInt8]) -> TextLabel {
        if let index = textIndices[bytes] { return .stored(StoredText(index: index)) }
        let index = Int32(texts.count)
        texts.append(bytes)
        textIndices[bytes] = index
        return .stored(StoredText(index: index))
    }

    /// A label for `text` in Latin-1, the glyphs the font tables hold; other characters
    /// become `?`.
    package mutating func latin1(_ text: String) -> TextLabel { add(Self.latin1Bytes(text)) }

    /// `text` in Latin-1, other characters as `?`, and a control character that spaces words
    /// (a tab, a line break: no glyph, so it would join them) as a space.
    package static func latin1Bytes(_ text: String) -> [UInt8] {
        text.unicodeScalars.map { scalar in
            guard scalar.value < 256 else { return UInt8(ascii: "?") }
            let isSpacingControl = scalar.properties.isWhitespace && (scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value))
            return isSpacingControl ? UInt8(ascii: " ") : UInt8(scalar.value)
        }
    }

    /// The label of `bytes` when they have been added.
    package func label(of bytes: [UInt8]) -> TextLabel? {
        textIndices[bytes].map { .stored(StoredText(index: $0)) }
    }

    /// Adds lines of lyrics (code points); returns the first one's number, the others following.
    package mutating func add(lines added: [[UInt32]]) -> StoredLine {
        let first = StoredLine(index: Int32(lines.count))
        lines.append(contentsOf: added)
        return first
    }

    /// The bytes of a stored text; none for a number this store did not give.
    package func bytes(of text: StoredText) -> [UInt8] {
        texts.indices.contains(Int(text.index)) ? texts[Int(text.index)] : []
    }

    /// The code points of a stored line; none for a number this store did not give.
    package func characters(of line: StoredLine) -> [UInt32] {
        lines.indices.contains(Int(line.index)) ? lines[Int(line.index)] : []
    }
}

/// A text in a `ShapeStore`, by number.
package struct StoredText: Sendable, Hashable {
    package let index: Int32
}

/// A line of lyrics in a `ShapeStore`, by number.
package struct StoredLine: Sendable, Hashable {
    package let index: Int32

    /// The line `offset` lines after this one.
    package func advanced(by offset: Int) -> StoredLine { StoredLine(index: index + Int32(offset)) }
}
