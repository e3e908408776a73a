/// Which pixels a rounded rectangle touches and which it covers wholly, on a canvas: the
/// integer ranges `Canvas.fillRoundedRect` draws with, shared with `Occlusion`, which must know
/// exactly where a shape replaces every pixel.
package struct RoundedRectPixels: Sendable {
    package let rect: Rect
    package let radius: Float
    /// The rows and columns touched, clipped to the canvas.
    package let rows: Range<Int>
    package let columns: Range<Int>
    /// Columns whose centres are at least half a pixel inside both straight sides.
    package let inner: Range<Int>
    /// Columns wholly inside the rectangle.
    package let whole: Range<Int>
    let centerX: Float, centerY: Float
    let halfWidth: Float, halfHeight: Float

    /// `firstRow`: the canvas's rows start there (below 0 for a layer whose rows above the
    /// frame count: `Occlusion`).
    package init(_ rect: Rect, radius: Float, canvasWidth: Int, canvasHeight: Int, firstRow: Int = 0) {
        self.rect = rect
        let radius = max(0, min(radius, rect.width / 2, rect.height / 2))
        self.radius = radius
        let rowStart = max(firstRow, Int(rect.minY.rounded(.down))), rowEnd = min(canvasHeight, Int(rect.maxY.rounded(.up)))
        let columnStart = max(0, Int(rect.minX.rounded(.down))), columnEnd = min(canvasWidth, Int(rect.maxX.rounded(.up)))
        rows = rowStart..<max(rowStart, rowEnd)
        columns = columnStart..<max(columnStart, columnEnd)
        centerX = (rect.minX + rect.maxX) / 2
        centerY = (rect.minY + rect.maxY) / 2
        halfWidth = rect.width / 2 - radius
        halfHeight = rect.height / 2 - radius
        let innerStart = max(columnStart, Int((rect.minX + radius + 0.5).rounded(.up)))
        let innerEnd = min(columnEnd, Int((rect.maxX - radius - 0.5).rounded(.down)))
        inner = innerStart..<max(innerStart, innerEnd)
        let wholeStart = max(columnStart, Int(rect.minX.rounded(.up)))
        let wholeEnd = min(columnEnd, Int(rect.maxX.rounded(.down)))
        whole = wholeStart..<max(wholeStart, wholeEnd)
    }

    /// How far row `y`'s centre is beyond the straight sides' reach (0 between the corners).
    @inline(__always)
    func dy(row y: Int) -> Float { max(abs(Float(y) + 0.5 - centerY) - halfHeight, 0) }

    /// The share of row `y` inside the rectangle's top and bottom.
    @inline(__always)
    func rowCoverage(_ y: Int) -> Float { max(0, min(1, min(Float(y + 1), rect.maxY) - max(Float(y), rect.minY))) }

    /// The coverage of pixel (x, y) whose row is `dy` from the straight part.
    @inline(__always)
    func coverage(_ x: Int, dy: Float, rowCoverage: Float) -> Float {
        let px = Float(x) + 0.5
        let dx = max(abs(px - centerX) - halfWidth, 0)
        if dx > 0 && dy > 0 {
            return max(0, min(1, radius + 0.5 - (dx * dx + dy * dy).squareRoot()))
        }
        let columnCoverage = max(0, min(1, min(Float(x + 1), rect.maxX) - max(Float(x), rect.minX)))
        let horizontal = dx > 0 ? max(0, min(1, radius + 0.5 - dx)) : columnCoverage
        let vertical = dy > 0 ? max(0, min(1, radius + 0.5 - dy)) : rowCoverage
        return min(horizontal, vertical)
    }

    /// The columns a row draws with one coverage, and that coverage: between the corners the
    /// whole columns at the row's own coverage, in corner rows the inner ones at the straight
    /// top or bottom edge's.
    @inline(__always)
    func span(dy: Float, rowCoverage: Float) -> (columns: Range<Int>, coverage: Float) {
        dy > 0 ? (inner, max(0, min(1, radius + 0.5 - dy))) : (whole, rowCoverage)
    }

    /// Rows between the corners and wholly inside: there every whole column is covered.
    package var straightRows: Range<Int> { middleRows { dy(row: $0) == 0 && rowCoverage($0) >= 1 } }

    /// Rows where every inner column is covered: between the corners wholly inside rows, in
    /// the corners rows whose straight top or bottom edge still covers fully.
    package var fullRows: Range<Int> {
        middleRows { y in
            let d = dy(row: y)
            return d > 0 ? radius + 0.5 - d >= 1 : rowCoverage(y) >= 1
        }
    }

    /// The rows meeting `test`, which the rows near the middle meet if any do: found from
    /// both ends (the rows that fail are the few near the top and bottom edges).
    private func middleRows(_ test: (Int) -> Bool) -> Range<Int> {
        var first = rows.lowerBound, end = rows.upperBound
        while first < end && !test(first) { first += 1 }
        while end > first && !test(end - 1) { end -= 1 }
        return first..<end
    }
}
