/// One rasterized glyph: an 8-bit coverage mask and its metrics, in pixels.
package struct Glyph: Sendable {
    package var width: Int
    package var height: Int
    /// From the pen position to the mask's left edge.
    package var left: Int
    /// From the baseline up to the mask's top edge.
    package var top: Int
    package var advance: Float
    /// `width × height` coverage values, row by row.
    package var coverage: [UInt8]

    package init(width: Int, height: Int, left: Int, top: Int, advance: Float, coverage: [UInt8]) {
        self.width = width
        self.height = height
        self.left = left
        self.top = top
        self.advance = advance
        self.coverage = coverage
    }
}

/// The glyphs of one font at one pixel size for the Latin-1 code points, rasterized once before
/// any frame is drawn (by the I/O layer, with FreeType) and then shared read-only by all workers.
package struct GlyphSet: Sendable {
    package let pixelSize: Int
    /// Distance from the baseline up to the top of capitals and down to the lowest descender.
    package let ascender: Float
    package let descender: Float
    /// Indexed by Latin-1 code point; nil where the font has no glyph.
    package let glyphs: [Glyph?]
    /// Glyphs beyond Latin-1 that some text needs (the lyrics' characters), by code point.
    package let extraGlyphs: [UInt32: Glyph]
    /// How far any glyph's ink reaches above and below the baseline, left of its pen position
    /// and right of its advance (combining marks, tall scripts): what text's bounds must hold.
    package let inkAbove: Float
    package let inkBelow: Float
    package let inkLeft: Float
    package let inkRight: Float

    package init(pixelSize: Int, ascender: Float, descender: Float, glyphs: [Glyph?], extraGlyphs: [UInt32: Glyph] = [:]) {
        precondition(glyphs.count == 256, "a glyph set covers the 256 Latin-1 code points")
        self.pixelSize = pixelSize
        self.ascender = ascender
        self.descender = descender
        self.glyphs = glyphs
        self.extraGlyphs = extraGlyphs
        var above = ascender, below = descender, left: Float = 0, right: Float = 0
        for glyph in glyphs.compactMap({ $0 }) + Array(extraGlyphs.values) where glyph.width > 0 && glyph.height > 0 {
            above = max(above, Float(glyph.top))
            below = max(below, Float(glyph.height - glyph.top))
            left = max(left, Float(-glyph.left))
            right = max(right, Float(glyph.left + glyph.width) - glyph.advance)
        }
        (inkAbove, inkBelow, inkLeft, inkRight) = (above, below, left, right)
    }

    /// The glyph of a code point, or nil.
    @inline(__always)
    package func glyph<Code: FixedWidthInteger & UnsignedInteger>(_ code: Code) -> Glyph? {
        code < 256 ? glyphs[Int(code)] : extraGlyphs[UInt32(truncatingIfNeeded: code)]
    }

    /// A set without glyphs: text draws nothing and measures zero (for tests without a font).
    package static func empty(pixelSize: Int) -> GlyphSet {
        GlyphSet(
            pixelSize: pixelSize, ascender: Float(pixelSize) * 0.75, descender: Float(pixelSize) * 0.25,
            glyphs: Array(repeating: nil, count: 256))
    }

    /// The advance width of text: Latin-1 bytes or Unicode code points.
    package func width<Text: Collection>(of text: Text) -> Float where Text.Element: FixedWidthInteger & UnsignedInteger {
        text.reduce(0) { $0 + (glyph($1)?.advance ?? 0) }
    }

    /// The ellipsis a cut text ends with.
    package static let ellipsis = Array("...".utf8)

    /// How much of Latin-1 `text` fits in `room` pixels across: nil when all of it does, else
    /// the length of its longest beginning that fits with `ellipsis` after it (measured, not
    /// estimated: 64 `W`s are twice as wide as 64 `e`s). Allocates nothing (it runs each frame).
    package func keptLength(of text: [UInt8], within room: Float) -> Int? {
        guard width(of: text) > room else { return nil }
        let dotsWidth = width(of: Self.ellipsis)
        var advances = 0 as Float, kept = 0
        for byte in text {
            let next = advances + (glyph(byte)?.advance ?? 0)
            guard next + dotsWidth <= room else { break }
            (advances, kept) = (next, kept + 1)
        }
        return kept
    }
}

extension Canvas {
    /// Draws text (Latin-1 bytes or code points) with its baseline starting at `origin`;
    /// glyphs snap to whole pixels.
    package mutating func drawText<Text: Collection>(_ text: Text, glyphs: GlyphSet, origin: Point, _ color: RGBA)
    where Text.Element: FixedWidthInteger & UnsignedInteger {
        guard color.a > 0 else { return }
        let ink = Ink(color)
        let width = self.width, height = self.height
        var penX = origin.x
        let baseline = Int(origin.y.rounded())
        pixels.withUnsafeMutableBufferPointer { buffer in
            for code in text {
                guard let glyph = glyphs.glyph(code) else { continue }
                let left = Int(penX.rounded()) + glyph.left
                let top = baseline - glyph.top
                penX += glyph.advance
                guard glyph.width > 0, glyph.height > 0 else { continue }
                let rowStart = max(0, -top), rowEnd = min(glyph.height, height - top)
                let columnStart = max(0, -left), columnEnd = min(glyph.width, width - left)
                guard rowEnd > rowStart, columnEnd > columnStart else { continue }
                glyph.coverage.withUnsafeBufferPointer { mask in
                    for row in rowStart..<rowEnd {
                        let target = (top + row) * width + left
                        let source = row * glyph.width
                        for column in columnStart..<columnEnd {
                            let value = mask[source + column]
                            if value == 0 { continue }
                            let weight = ink.weight(Float(value) / 255)
                            buffer[target + column] = Canvas.blend(buffer[target + column], ink, weight)
                        }
                    }
                }
            }
        }
    }
}
