/// One thing to draw: the model's output for a frame, in drawing order. Plain bytes: texts,
/// lyrics and engraved music are referred to by number (`ShapeStore`).
package enum Shape: Sendable, Hashable {
    case background(top: RGBA, bottom: RGBA)
    case rect(Rect, RGBA)
    case roundedRect(Rect, radius: Float, top: RGBA, bottom: RGBA)
    /// A rounded rectangle whose pixels in `hidden` are not drawn: a later opaque shape covers
    /// them (made by `Occlusion` from `roundedRect`), or the roll's side keyboard does.
    case partlyHiddenRoundedRect(Rect, radius: Float, top: RGBA, bottom: RGBA, hidden: PixelBox)
    case circle(center: Point, radius: Float, RGBA)
    /// A soft halo; pixels within `hole` of the centre are skipped (covered by an opaque shape).
    case glow(center: Point, radius: Float, hole: Float, RGBA)
    case ring(center: Point, radius: Float, lineWidth: Float, RGBA)
    case line(from: Point, to: Point, lineWidth: Float, RGBA)
    /// Text placed by `alignment` at `center.x` (centred on it, starting or ending there), its
    /// capitals centred vertically on `center.y`.
    case text(TextLabel, TextSize, center: Point, RGBA, alignment: TextAlignment = .center)
    /// A line of lyrics centred on `center` like `text`, lit in parts (`LyricLine`).
    case lyricLine(LyricLine, TextSize, center: Point)
    /// The engraved music under the playhead (`--sheet`, `--style sheet`).
    case sheet(SheetView)
}

/// A line of lyrics (its code points stored in a `ShapeStore`): the first `sungEnd` characters
/// in `sung`, then up to `lightingEnd` in `lighting` (the syllable lighting up now), the rest in
/// `unsung`.
package struct LyricLine: Sendable, Hashable {
    package var line: StoredLine
    package var sungEnd: Int
    package var lightingEnd: Int
    package var sung: RGBA
    package var lighting: RGBA
    package var unsung: RGBA

    /// The whole line in one colour.
    package init(_ line: StoredLine, _ color: RGBA) {
        self.init(line, sungEnd: 0, lightingEnd: 0, sung: color, lighting: color, unsung: color)
    }

    package init(_ line: StoredLine, sungEnd: Int, lightingEnd: Int, sung: RGBA, lighting: RGBA, unsung: RGBA) {
        self.line = line
        self.sungEnd = sungEnd
        self.lightingEnd = lightingEnd
        self.sung = sung
        self.lighting = lighting
        self.unsung = unsung
    }
}

extension Shape {
    /// A rectangle holding every pixel the shape may change (nil: the whole canvas).
    func bounds(fonts: TextFonts) -> Rect? {
        func square(_ center: Point, _ half: Float) -> Rect {
            Rect(x: center.x - half, y: center.y - half, width: 2 * half, height: 2 * half)
        }
        switch self {
        case .background: return nil
        case .rect(let rect, _): return Rect(x: rect.minX - 1, y: rect.minY - 1, width: rect.width + 2, height: rect.height + 2)
        case .roundedRect(let rect, _, _, _), .partlyHiddenRoundedRect(let rect, _, _, _, _):
            return Rect(x: rect.minX - 1, y: rect.minY - 1, width: rect.width + 2, height: rect.height + 2)
        case .circle(let center, let radius, _): return square(center, radius + 2)
        case .glow(let center, let radius, _, _): return square(center, radius + 2)
        case .ring(let center, let radius, let lineWidth, _): return square(center, radius + lineWidth / 2 + 2)
        case .line(let from, let to, let lineWidth, _):
            let pad = lineWidth / 2 + 2
            return Rect(
                x: min(from.x, to.x) - pad, y: min(from.y, to.y) - pad,
                width: abs(to.x - from.x) + 2 * pad, height: abs(to.y - from.y) + 2 * pad)
        case .text(let label, let size, let center, _, let alignment):
            let glyphs = fonts[size]
            let width = alignment.width(of: label.bytes(in: fonts.store), glyphs: glyphs)
            return glyphs.bounds(ofTextFrom: alignment.left(ofWidth: width, at: center.x), width: width, centerY: center.y)
        case .lyricLine(let line, let size, let center):
            let glyphs = fonts[size]
            let width = glyphs.width(of: fonts.store.characters(of: line.line))
            return glyphs.bounds(ofTextFrom: center.x - width / 2, width: width, centerY: center.y)
        case .sheet(let view):
            return Rect(x: view.band.minX - 1, y: view.band.minY - 1, width: view.band.width + 2, height: view.band.height + 2)
        }
    }
}

extension GlyphSet {
    /// A rectangle holding all the ink of text `width` wide starting at `left`, its capitals
    /// centred on `centerY` (as `Shape.text` places it), whatever glyphs it holds.
    func bounds(ofTextFrom left: Float, width: Float, centerY: Float) -> Rect {
        let padLeft = max(Float(pixelSize), inkLeft + 2), padRight = max(Float(pixelSize), inkRight + 2)
        let baseline = centerY + capHeight / 2
        let halfHeight = ascender + descender + 2
        let top = min(centerY - halfHeight, baseline - inkAbove - 2), bottom = max(centerY + halfHeight, baseline + inkBelow + 2)
        return Rect(x: left - padLeft, y: top, width: width + padLeft + padRight, height: bottom - top)
    }
}

/// Text a shape can show, referred to by value so that no `String` is built per frame.
package enum TextLabel: Sendable, Hashable {
    /// `C#4`
    case noteName(UInt8)
    /// `C#`
    case pitchClass(UInt8)
    /// `Eb4`, `Mib`: named as `--labels` asks.
    case spelledNote(UInt8, NoteNaming)
    /// `D#4` under a notehead written so: named as the score writes it.
    case writtenNote(WrittenNote, solfege: Bool, octave: Bool)
    /// A whole number, e.g. a bar number.
    case number(Int)
    /// `Drums`, the roll's drum strip.
    case drums
    /// Any other text, as Latin-1 bytes in a `ShapeStore` (a title, a legend entry, a chord
    /// symbol such as `Am7/G`).
    case stored(StoredText)

    /// Its bytes, a stored text's from `store`.
    func bytes(in store: ShapeStore) -> [UInt8] {
        switch self {
        case .noteName(let pitch): return NoteName.all[Int(pitch & 0x7F)]
        case .pitchClass(let pitchClass): return NoteName.classes[Int(pitchClass) % 12]
        case .spelledNote(let pitch, let naming): return NoteName.tables[naming.tableIndex][Int(pitch & 0x7F)]
        case .writtenNote(let note, let solfege, let octave): return WrittenNote.table[note.tableIndex(solfege: solfege, octave: octave)]
        case .number(let number): return number >= 0 && number < Self.numbers.count ? Self.numbers[number] : Array(String(number).utf8)
        case .drums: return Self.drumsBytes
        case .stored(let text): return store.bytes(of: text)
        }
    }

    /// The numbers a frame is likely to show, written once rather than per frame.
    private static let numbers: [[UInt8]] = (0..<1000).map { Array(String($0).utf8) }
    private static let drumsBytes = Array("Drums".utf8)
}

/// Where text sits relative to its anchor's x.
package enum TextAlignment: Sendable, Hashable {
    case left, center, right
    /// Starting at `x`, cut with `...` to fit this many pixels across (the title, never mirrored).
    case leftWithin(Float)

    /// The x where text `width` wide starts when anchored at `x`.
    func left(ofWidth width: Float, at x: Float) -> Float {
        switch self {
        case .left, .leftWithin: return x
        case .center: return x - width / 2
        case .right: return x - width
        }
    }

    /// How much of Latin-1 `text` is drawn, then `GlyphSet.ellipsis`: nil for all of it (not
    /// cut, or not `leftWithin`).
    func keptLength(of text: [UInt8], glyphs: GlyphSet) -> Int? {
        if case .leftWithin(let room) = self { return glyphs.keptLength(of: text, within: room) }
        return nil
    }

    /// The width of Latin-1 `text` as drawn with this alignment.
    func width(of text: [UInt8], glyphs: GlyphSet) -> Float {
        guard let kept = keptLength(of: text, glyphs: glyphs) else { return glyphs.width(of: text) }
        return glyphs.width(of: text[..<kept]) + glyphs.width(of: GlyphSet.ellipsis)
    }
}

package enum TextSize: Int, Sendable, CaseIterable {
    /// Labels; `title` for the song's title, `display` for the chord name.
    case small, medium, large, title, display

    /// The pixel size of this text on a canvas whose shorter side is `side` pixels
    /// (`RenderSettings.textSide`).
    package func pixelSize(canvasSide side: Int) -> Int {
        let fraction: Double = [0.016, 0.021, 0.028, 0.034, 0.052][rawValue]
        return max(8, Int((Double(side) * fraction).rounded()))
    }
}

/// The glyph sets for each `TextSize`, made once before rendering, and the store of what the
/// shapes drawn with them refer to by number (`FrameRenderer` gives its scene's).
package struct TextFonts: Sendable {
    package let sets: [GlyphSet]
    package var store = ShapeStore()

    package init(sets: [GlyphSet]) {
        precondition(sets.count == TextSize.allCases.count, "one glyph set per text size")
        self.sets = sets
    }

    /// Fonts without glyphs, for tests that do not look at text.
    package static func empty(canvasSide: Int) -> TextFonts {
        TextFonts(sets: TextSize.allCases.map { GlyphSet.empty(pixelSize: $0.pixelSize(canvasSide: canvasSide)) })
    }

    package subscript(size: TextSize) -> GlyphSet { sets[size.rawValue] }
}
