/// One thing to draw: the model's output for a frame, in drawing order.
public enum Shape: Sendable, Equatable {
    case background(top: RGBA, bottom: RGBA)
    case rect(Rect, RGBA)
    case roundedRect(Rect, radius: Float, top: RGBA, bottom: RGBA)
    case circle(center: Point, radius: Float, RGBA)
    /// A soft halo; pixels within `hole` of the centre are skipped (covered by an opaque shape).
    case glow(center: Point, radius: Float, hole: Float, RGBA)
    case ring(center: Point, radius: Float, lineWidth: Float, RGBA)
    case line(from: Point, to: Point, lineWidth: Float, RGBA)
    /// Text centred horizontally on `center.x`, its capitals centred vertically on `center.y`.
    case text(TextLabel, TextSize, center: Point, RGBA)
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
        case .roundedRect(let rect, _, _, _): return Rect(x: rect.minX - 1, y: rect.minY - 1, width: rect.width + 2, height: rect.height + 2)
        case .circle(let center, let radius, _): return square(center, radius + 2)
        case .glow(let center, let radius, _, _): return square(center, radius + 2)
        case .ring(let center, let radius, let lineWidth, _): return square(center, radius + lineWidth / 2 + 2)
        case .line(let from, let to, let lineWidth, _):
            let pad = lineWidth / 2 + 2
            return Rect(x: min(from.x, to.x) - pad, y: min(from.y, to.y) - pad,
                        width: abs(to.x - from.x) + 2 * pad, height: abs(to.y - from.y) + 2 * pad)
        case .text(let label, let size, let center, _):
            let glyphs = fonts[size]
            let halfWidth = glyphs.width(of: label.bytes) / 2 + Float(glyphs.pixelSize)
            let halfHeight = glyphs.ascender + glyphs.descender + 2
            return Rect(x: center.x - halfWidth, y: center.y - halfHeight, width: 2 * halfWidth, height: 2 * halfHeight)
        }
    }
}

/// Text a shape can show, referred to by value so that no `String` is built per frame.
public enum TextLabel: Sendable, Equatable {
    /// `C#4`
    case noteName(UInt8)
    /// `C#`
    case pitchClass(UInt8)

    var bytes: [UInt8] {
        switch self {
        case .noteName(let pitch): return NoteName.all[Int(pitch & 0x7F)]
        case .pitchClass(let pitchClass): return NoteName.classes[Int(pitchClass) % 12]
        }
    }
}

public enum TextSize: Int, Sendable, CaseIterable {
    case small, medium, large

    /// The pixel size of this text on a canvas `height` pixels high.
    public func pixelSize(canvasHeight height: Int) -> Int {
        let fraction: Double = [0.016, 0.021, 0.028][rawValue]
        return max(8, Int((Double(height) * fraction).rounded()))
    }
}

/// The glyph sets for each `TextSize`, made once before rendering.
public struct TextFonts: Sendable {
    public let sets: [GlyphSet]

    public init(sets: [GlyphSet]) {
        precondition(sets.count == TextSize.allCases.count, "one glyph set per text size")
        self.sets = sets
    }

    /// Fonts without glyphs, for tests that do not look at text.
    public static func empty(canvasHeight: Int) -> TextFonts {
        TextFonts(sets: TextSize.allCases.map { GlyphSet.empty(pixelSize: $0.pixelSize(canvasHeight: canvasHeight)) })
    }

    public subscript(size: TextSize) -> GlyphSet { sets[size.rawValue] }
}
