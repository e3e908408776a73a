extension RenderSettings {
    /// `--direction`: the way notes travel in `keyboard` (towards the keys, at that end) and
    /// `roll` (towards the playhead and the keys, at that side).
    public enum Direction: String, Sendable, CaseIterable {
        case up, down, left, right

        var isVertical: Bool { self == .up || self == .down }
    }
}

/// Where a style that travels one way (`StyleLayout.travel`) draws when notes are to travel
/// another: it lays out as always in a frame of its own (the frame itself, or the notes' area
/// turned a quarter), whose shapes this maps onto the frame. A mirror or a quarter turn; text
/// is placed, never turned or mirrored.
struct LayoutTransform: Sendable {
    /// x = xx·x' + xy·y' + x0, y = yx·x' + yy·y' + y0.
    private let xx: Float, xy: Float, x0: Float
    private let yx: Float, yy: Float, y0: Float
    /// The size of the frame the layout draws in, and whether it is the notes' area alone
    /// (turned a quarter: without the overlays' bands) rather than the whole frame.
    let layoutWidth: Int
    let layoutHeight: Int
    let isQuarterTurn: Bool

    /// The map from `natural` travel to `wanted`, for a frame `width` wide whose notes' area
    /// runs from `top` to `bottom`; nil when they are the same, or for a pair not handled.
    init?(natural: RenderSettings.Direction, wanted: RenderSettings.Direction, width: Int, height: Int, top: Float, bottom: Float) {
        guard natural != wanted else { return nil }
        let w = Float(width)
        let area = max(1, Int((bottom - top).rounded()))
        switch (natural, wanted) {
        case (.down, .up), (.up, .down):
            // A mirror within the notes' area.
            (xx, xy, x0, yx, yy, y0) = (1, 0, 0, 0, -1, top + bottom)
            (layoutWidth, layoutHeight, isQuarterTurn) = (width, height, false)
        case (.left, .right), (.right, .left):
            (xx, xy, x0, yx, yy, y0) = (-1, 0, w, 0, 1, 0)
            (layoutWidth, layoutHeight, isQuarterTurn) = (width, height, false)
        case (.down, .right), (.down, .left):
            // Travel down (y') becomes travel right (left); pitch across (x', low to high) runs
            // up. The keys' glow reaches past the lowest and highest keys: next to a band they
            // keep a margin from it (for at least 15 white keys).
            let margin = min((0.11 * Float(area) + 0.026 * w).rounded(), (Float(area) / 4).rounded(.down))
            let (marginAbove, marginBelow) = (top > 0 ? margin : 0, bottom < Float(height) ? margin : 0)
            (xx, xy, x0) = wanted == .right ? (0, 1, 0) : (0, -1, w)
            (yx, yy, y0) = (-1, 0, bottom - marginBelow)
            (layoutWidth, layoutHeight, isQuarterTurn) = (max(1, area - Int(marginAbove + marginBelow)), width, true)
        case (.left, .down):
            // Travel left (x') becomes travel down; pitch (y', high at the top) runs left to right.
            (xx, xy, x0, yx, yy, y0) = (0, -1, w, -1, 0, bottom)
            (layoutWidth, layoutHeight, isQuarterTurn) = (area, width, true)
        case (.left, .up):
            (xx, xy, x0, yx, yy, y0) = (0, -1, w, 1, 0, top)
            (layoutWidth, layoutHeight, isQuarterTurn) = (area, width, true)
        default:
            return nil
        }
    }

    func map(_ point: Point) -> Point {
        Point(xx * point.x + xy * point.y + x0, yx * point.x + yy * point.y + y0)
    }

    func map(_ rect: Rect) -> Rect {
        let a = map(Point(rect.minX, rect.minY)), b = map(Point(rect.maxX, rect.maxY))
        return Rect(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(b.x - a.x), height: abs(b.y - a.y))
    }

    /// Text stays beside its anchor: mirrored left to right, left and right alignment swap.
    private func map(_ alignment: TextAlignment) -> TextAlignment {
        guard xx < 0 else { return alignment }
        switch alignment {
        case .left: return .right
        case .right: return .left
        case .center, .leftWithin: return alignment
        }
    }

    func map(_ shape: Shape) -> Shape {
        switch shape {
        case .background: return shape
        case .rect(let rect, let color): return .rect(map(rect), color)
        case .roundedRect(let rect, let radius, let top, let bottom):
            // A mirror top to bottom turns the gradient over.
            return yy < 0
                ? .roundedRect(map(rect), radius: radius, top: bottom, bottom: top) : .roundedRect(map(rect), radius: radius, top: top, bottom: bottom)
        case .partlyHiddenRoundedRect(let rect, let radius, let top, let bottom, _):
            // A turned layout makes none (the roll hides the part of a note under its keys only
            // when not turned; `Occlusion` comes after this): drawn whole, as the painter would.
            return map(.roundedRect(rect, radius: radius, top: top, bottom: bottom))
        case .circle(let center, let radius, let color): return .circle(center: map(center), radius: radius, color)
        case .glow(let center, let radius, let hole, let color): return .glow(center: map(center), radius: radius, hole: hole, color)
        case .ring(let center, let radius, let lineWidth, let color): return .ring(center: map(center), radius: radius, lineWidth: lineWidth, color)
        case .line(let from, let to, let lineWidth, let color): return .line(from: map(from), to: map(to), lineWidth: lineWidth, color)
        case .text(let label, let size, let center, let color, let alignment):
            return .text(label, size, center: map(center), color, alignment: map(alignment))
        case .lyricLine(let line, let size, let center): return .lyricLine(line, size, center: map(center))
        case .sheet:
            // The scene adds the sheet music's band after the layout's shapes: never turned.
            return shape
        }
    }

    /// Maps `shapes[from...]` in place.
    func apply(to shapes: inout [Shape], from start: Int) {
        for index in start..<shapes.count { shapes[index] = map(shapes[index]) }
    }
}
