/// A point in canvas pixels.
package struct Point: Sendable, Hashable {
    package var x: Float
    package var y: Float
    package init(_ x: Float, _ y: Float) { self.x = x; self.y = y }
}

/// An axis-aligned rectangle in canvas pixels.
package struct Rect: Sendable, Hashable {
    package var minX: Float
    package var minY: Float
    package var width: Float
    package var height: Float

    package init(x: Float, y: Float, width: Float, height: Float) {
        minX = x; minY = y; self.width = width; self.height = height
    }

    package var maxX: Float { minX + width }
    package var maxY: Float { minY + height }

    package func contains(_ other: Rect) -> Bool {
        other.minX >= minX && other.maxX <= maxX && other.minY >= minY && other.maxY <= maxY
    }
}
