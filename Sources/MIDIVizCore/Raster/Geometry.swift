/// A point in canvas pixels.
public struct Point: Sendable, Hashable {
    public var x: Float
    public var y: Float
    public init(_ x: Float, _ y: Float) { self.x = x; self.y = y }
}

/// An axis-aligned rectangle in canvas pixels.
public struct Rect: Sendable, Hashable {
    public var minX: Float
    public var minY: Float
    public var width: Float
    public var height: Float

    public init(x: Float, y: Float, width: Float, height: Float) {
        minX = x; minY = y; self.width = width; self.height = height
    }

    public var maxX: Float { minX + width }
    public var maxY: Float { minY + height }

    public func contains(_ other: Rect) -> Bool {
        other.minX >= minX && other.maxX <= maxX && other.minY >= minY && other.maxY <= maxY
    }
}
