/// Shapes moved by whole pixels, for frames that scroll (`ScrolledShapes`): sideways in the
/// roll, down in the keyboard. A shape moved by `dx` (or `dy`) draws the pixels it drew before,
/// moved likewise, only when the rasterizer's arithmetic along that axis is exact: every
/// coordinate along it on a grid of 1/256 pixel and small enough that sums and halves of them
/// are exact in a `Float`. Other shapes are not moved.
extension Shape {
    /// This shape `dx` (whole) pixels to the right, or nil when it would not draw exactly the
    /// same pixels moved (off the grid, text, a whole-canvas shape).
    func shifted(by dx: Int) -> Shape? { shifted(by: Offset(dx: dx, dy: 0)) }

    /// This shape moved by `offset`, on the same terms.
    func shifted(by offset: Offset) -> Shape? {
        let dx = Float(offset.dx), dy = Float(offset.dy)
        func moved(_ point: Point) -> Point? {
            guard offset.dx == 0 || (Self.isOnGrid(point.x) && Self.isOnGrid(point.x + dx)) else { return nil }
            guard offset.dy == 0 || (Self.isOnGrid(point.y) && Self.isOnGrid(point.y + dy)) else { return nil }
            return Point(point.x + dx, point.y + dy)
        }
        switch self {
        case .rect(let rect, let color):
            return Self.moved(rect, by: offset).map { .rect($0, color) }
        case .roundedRect(let rect, let radius, let top, let bottom):
            guard let rect = Self.moved(rect, radius: radius, by: offset) else { return nil }
            return .roundedRect(rect, radius: radius, top: top, bottom: bottom)
        case .partlyHiddenRoundedRect(let rect, let radius, let top, let bottom, let hidden):
            guard let rect = Self.moved(rect, radius: radius, by: offset) else { return nil }
            return .partlyHiddenRoundedRect(rect, radius: radius, top: top, bottom: bottom, hidden: hidden.moved(by: offset))
        case .line(let from, let to, let lineWidth, let color):
            guard Self.isOnGrid(lineWidth / 2), let from = moved(from), let to = moved(to) else { return nil }
            return .line(from: from, to: to, lineWidth: lineWidth, color)
        case .background, .circle, .glow, .ring, .text, .lyricLine, .sheet:
            return nil
        }
    }

    /// Whether `other` is this shape `shifted(by: offset)`: the same answer, without making the
    /// shifted shape for the notes of a dense frame.
    func isShape(_ other: Shape, shiftedBy offset: Offset) -> Bool {
        if case .roundedRect(let rect, let radius, let top, let bottom) = self,
            case .roundedRect(let otherRect, let otherRadius, let otherTop, let otherBottom) = other
        {
            return radius == otherRadius && top == otherTop && bottom == otherBottom && Self.moved(rect, radius: radius, by: offset) == otherRect
        }
        // Most notes of a dense frame are partly hidden by the next one of their key.
        if case .partlyHiddenRoundedRect(let rect, let radius, let top, let bottom, let hidden) = self,
            case .partlyHiddenRoundedRect(let otherRect, let otherRadius, let otherTop, let otherBottom, let otherHidden) = other
        {
            return radius == otherRadius && top == otherTop && bottom == otherBottom && hidden.moved(by: offset) == otherHidden
                && Self.moved(rect, radius: radius, by: offset) == otherRect
        }
        return shifted(by: offset) == other
    }

    /// `rect` moved by `offset`, when its coordinates along each axis it moves on are on the
    /// grid there and here.
    private static func moved(_ rect: Rect, by offset: Offset) -> Rect? {
        let dx = Float(offset.dx), dy = Float(offset.dy)
        guard offset.dx == 0 || (isOnGrid(rect.minX) && isOnGrid(rect.width) && isOnGrid(rect.minX + dx)) else { return nil }
        guard offset.dy == 0 || (isOnGrid(rect.minY) && isOnGrid(rect.height) && isOnGrid(rect.minY + dy)) else { return nil }
        return Rect(x: rect.minX + dx, y: rect.minY + dy, width: rect.width, height: rect.height)
    }

    /// A rounded rectangle moved likewise, when the radius it is drawn with is on the grid too,
    /// or half a value on it (a short note's radius is half its height).
    static func moved(_ rect: Rect, radius: Float, by offset: Offset) -> Rect? {
        isOnGrid(2 * clampedRadius(radius, rect)) ? moved(rect, by: offset) : nil
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

    /// Whole pixels to move a shape by: right and down.
    struct Offset: Hashable, Sendable {
        let dx: Int, dy: Int
    }
}

extension PixelBox {
    /// The same box moved by whole pixels.
    func moved(by offset: Shape.Offset) -> PixelBox {
        let dx = Int32(offset.dx), dy = Int32(offset.dy)
        return PixelBox(rows: (rows.lowerBound + dy)..<(rows.upperBound + dy), columns: (columns.lowerBound + dx)..<(columns.upperBound + dx))
    }
}
