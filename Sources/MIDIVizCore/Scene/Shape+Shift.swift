/// Shapes moved sideways by whole pixels, for frames that scroll (`ScrolledShapes`). A shape
/// moved by `dx` draws the pixels it drew before, moved by `dx`, only when the rasterizer's
/// arithmetic on its columns is exact: every horizontal coordinate on a grid of 1/256 pixel and
/// small enough that sums and halves of them are exact in a `Float`. Other shapes are not moved.
extension Shape {
    /// This shape `dx` (whole) pixels to the right, or nil when it would not draw exactly the
    /// same pixels moved (off the grid, text, a whole-canvas shape).
    func shifted(by dx: Int) -> Shape? {
        let offset = Float(dx)
        func moved(_ point: Point) -> Point? {
            guard Self.isOnGrid(point.x), Self.isOnGrid(point.x + offset) else { return nil }
            return Point(point.x + offset, point.y)
        }
        switch self {
        case .rect(let rect, let color):
            return Self.moved(rect, by: dx).map { .rect($0, color) }
        case .roundedRect(let rect, let radius, let top, let bottom):
            guard let rect = Self.moved(rect, radius: radius, by: dx) else { return nil }
            return .roundedRect(rect, radius: radius, top: top, bottom: bottom)
        case .partlyHiddenRoundedRect(let rect, let radius, let top, let bottom, let hidden):
            guard let rect = Self.moved(rect, radius: radius, by: dx) else { return nil }
            let columns = (hidden.columns.lowerBound + Int32(dx))..<(hidden.columns.upperBound + Int32(dx))
            return .partlyHiddenRoundedRect(rect, radius: radius, top: top, bottom: bottom, hidden: PixelBox(rows: hidden.rows, columns: columns))
        case .line(let from, let to, let lineWidth, let color):
            guard Self.isOnGrid(lineWidth / 2), let from = moved(from), let to = moved(to) else { return nil }
            return .line(from: from, to: to, lineWidth: lineWidth, color)
        case .background, .circle, .glow, .ring, .text, .lyricLine, .sheet:
            return nil
        }
    }

    /// Whether `other` is this shape `shifted(by: dx)`: the same answer, without making the
    /// shifted shape for the notes of a dense frame.
    func isShape(_ other: Shape, shiftedBy dx: Int) -> Bool {
        if case .roundedRect(let rect, let radius, let top, let bottom) = self,
            case .roundedRect(let otherRect, let otherRadius, let otherTop, let otherBottom) = other
        {
            return radius == otherRadius && top == otherTop && bottom == otherBottom && Self.moved(rect, radius: radius, by: dx) == otherRect
        }
        return shifted(by: dx) == other
    }

    /// `rect` `dx` pixels to the right, when its columns are on the grid there and here.
    private static func moved(_ rect: Rect, by dx: Int) -> Rect? {
        let offset = Float(dx)
        guard isOnGrid(rect.minX), isOnGrid(rect.width), isOnGrid(rect.minX + offset) else { return nil }
        return Rect(x: rect.minX + offset, y: rect.minY, width: rect.width, height: rect.height)
    }

    /// A rounded rectangle moved likewise, when the radius it is drawn with is on the grid too.
    private static func moved(_ rect: Rect, radius: Float, by dx: Int) -> Rect? {
        isOnGrid(clampedRadius(radius, rect)) ? moved(rect, by: dx) : nil
    }

    /// The radius `fillRoundedRect` draws `rect` with.
    private static func clampedRadius(_ radius: Float, _ rect: Rect) -> Float {
        max(0, min(radius, rect.width / 2, rect.height / 2))
    }

    /// Whether `value` is a multiple of 1/256 within ±16,384: then sums of two such values,
    /// halves of them and whole numbers plus a half are exact in a `Float`'s 24 bits.
    static func isOnGrid(_ value: Float) -> Bool {
        let scaled = value * 256
        return abs(value) < 16384 && scaled.rounded() == scaled
    }

    /// `pixels` on that grid.
    static func onGrid(_ pixels: Double) -> Float { Float((pixels * 256).rounded() / 256) }
}
