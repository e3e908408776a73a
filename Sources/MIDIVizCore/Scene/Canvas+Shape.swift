/// Draws the model's shapes with the rasterizer's primitives.
extension Canvas {
    package mutating func draw(_ shapes: [Shape], fonts: TextFonts) {
        for shape in shapes { draw(shape, fonts: fonts) }
    }

    /// Draws `shape` where it lies within `clip`: a note (a rounded rectangle) only there,
    /// anything else whole. The pixels in `clip` are the same as when drawn whole.
    mutating func draw(_ shape: Shape, fonts: TextFonts, within clip: PixelBox) {
        switch shape {
        case .roundedRect(let rect, let radius, let top, let bottom):
            fillRoundedRect(rect, radius: radius, top: top, bottom: bottom, within: clip)
        case .partlyHiddenRoundedRect(let rect, let radius, let top, let bottom, let hidden):
            fillRoundedRect(rect, radius: radius, top: top, bottom: bottom, hidden: hidden, within: clip)
        default:
            draw(shape, fonts: fonts)
        }
    }

    package mutating func draw(_ shape: Shape, fonts: TextFonts) {
        switch shape {
        case .background(let top, let bottom):
            fillVerticalGradient(top: top, bottom: bottom)
        case .rect(let rect, let color):
            fillRect(rect, color)
        case .roundedRect(let rect, let radius, let top, let bottom):
            fillRoundedRect(rect, radius: radius, top: top, bottom: bottom)
        case .partlyHiddenRoundedRect(let rect, let radius, let top, let bottom, let hidden):
            fillRoundedRect(rect, radius: radius, top: top, bottom: bottom, hidden: hidden)
        case .circle(let center, let radius, let color):
            fillCircle(center: center, radius: radius, color)
        case .glow(let center, let radius, let hole, let color):
            fillGlow(center: center, radius: radius, hole: hole, color)
        case .ring(let center, let radius, let lineWidth, let color):
            strokeCircle(center: center, radius: radius, lineWidth: lineWidth, color)
        case .line(let from, let to, let lineWidth, let color):
            drawLine(from: from, to: to, lineWidth: lineWidth, color)
        case .text(let label, let size, let center, let color, let alignment):
            let glyphs = fonts[size]
            let bytes = label.bytes(in: fonts.store)
            // Measured once: what is kept of it, then the ellipsis when it was cut.
            let kept = alignment.keptLength(of: bytes, glyphs: glyphs)
            let shown = bytes[..<(kept ?? bytes.count)], shownWidth = glyphs.width(of: shown)
            let width = shownWidth + (kept == nil ? 0 : glyphs.width(of: GlyphSet.ellipsis))
            let origin = Point(alignment.left(ofWidth: width, at: center.x), center.y + glyphs.capHeight / 2)
            drawText(shown, glyphs: glyphs, origin: origin, color)
            if kept != nil { drawText(GlyphSet.ellipsis, glyphs: glyphs, origin: Point(origin.x + shownWidth, origin.y), color) }
        case .lyricLine(let line, let size, let center):
            let glyphs = fonts[size]
            let characters = fonts.store.characters(of: line.line)
            var x = center.x - glyphs.width(of: characters) / 2
            let y = center.y + glyphs.capHeight / 2
            let sungEnd = min(max(0, line.sungEnd), characters.count), lightingEnd = min(max(sungEnd, line.lightingEnd), characters.count)
            for (part, color) in [(0..<sungEnd, line.sung), (sungEnd..<lightingEnd, line.lighting), (lightingEnd..<characters.count, line.unsung)]
            where !part.isEmpty {
                drawText(characters[part], glyphs: glyphs, origin: Point(x, y), color)
                x += glyphs.width(of: characters[part])
            }
        case .sheet(let view):
            // The store's music, when it is the one the view shows.
            if let music = fonts.store.sheet, music.fingerprint == view.fingerprint { draw(view, music: music) }
        }
    }
}

extension GlyphSet {
    /// The height of a capital letter, from the `H` glyph, or an estimate.
    var capHeight: Float {
        if let glyph = glyphs[Int(UInt8(ascii: "H"))] { return Float(glyph.top) }
        return ascender * 0.95
    }
}
