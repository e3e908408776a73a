/// Filled and anti-aliased primitives. Coordinates are in pixels with (0, 0) the top-left
/// corner of the top-left pixel; pixel (x, y) covers [x, x+1) × [y, y+1) and is sampled at its
/// centre. Everything is clipped to the canvas. Inner loops blend whole spans at one weight and
/// compute coverage only for edge pixels.
extension Canvas {
    /// Fills the whole canvas with a vertical gradient from `top` to `bottom` (opaque).
    package mutating func fillVerticalGradient(top: RGBA, bottom: RGBA) {
        let width = self.width, height = self.height
        pixels.withUnsafeMutableBufferPointer { buffer in
            for y in 0..<height {
                let amount = height > 1 ? Float(y) / Float(height - 1) : 0
                let value = top.mixed(with: bottom, amount).withAlpha(1).pixel
                buffer.baseAddress!.advanced(by: y * width).update(repeating: value, count: width)
            }
        }
    }

    /// Replaces every pixel with those of `other` (same size).
    package mutating func copyPixels(from other: Canvas) {
        precondition(other.width == width && other.height == height, "canvas sizes differ")
        pixels.withUnsafeMutableBufferPointer { target in
            other.pixels.withUnsafeBufferPointer { source in
                target.baseAddress!.update(from: source.baseAddress!, count: source.count)
            }
        }
    }

    /// Moves the pixels of `columns` left by `shift` (right when negative), in every row; the
    /// columns uncovered at the end keep what they held.
    package mutating func moveColumns(_ columns: Range<Int>, left shift: Int) {
        let width = self.width, height = self.height
        pixels.withUnsafeMutableBufferPointer { buffer in
            ColumnMove.move(buffer.baseAddress!, stride: width, rows: height, columns: columns, left: shift)
        }
    }

    /// Replaces the pixels of `columns` × `rows` `down` rows lower (0: in the same place) with
    /// those of `other` (as wide).
    package mutating func copyPixels(from other: Canvas, columns: Range<Int>, rows: Range<Int>, down: Int = 0) {
        precondition(other.width == width, "canvas widths differ")
        precondition(
            rows.isEmpty || (rows.lowerBound >= 0 && rows.upperBound <= other.height && rows.lowerBound + down >= 0 && rows.upperBound + down <= height),
            "rows beyond a canvas")
        let width = self.width
        pixels.withUnsafeMutableBufferPointer { target in
            other.pixels.withUnsafeBufferPointer { source in
                for y in rows {
                    target.baseAddress!.advanced(by: (y + down) * width + columns.lowerBound)
                        .update(from: source.baseAddress!.advanced(by: y * width + columns.lowerBound), count: columns.count)
                }
            }
        }
    }

    /// Fills a rectangle; fractional edges are anti-aliased by their coverage.
    package mutating func fillRect(_ rect: Rect, _ color: RGBA) {
        let x0 = max(rect.minX, 0), x1 = min(rect.maxX, Float(width))
        let y0 = max(rect.minY, 0), y1 = min(rect.maxY, Float(height))
        guard x1 > x0, y1 > y0, color.a > 0 else { return }
        let ink = Ink(color)
        let width = self.width
        let firstColumn = Int(x0), lastColumn = Int(x1.rounded(.up)) - 1
        let leftCoverage = min(Float(firstColumn + 1), x1) - x0
        let rightCoverage = x1 - max(Float(lastColumn), x0)
        // Rows wholly inside share one set of weights (thin vertical lines are mostly such rows).
        let inside = (left: ink.weight(leftCoverage), middle: ink.weight(1), right: ink.weight(rightCoverage))
        pixels.withUnsafeMutableBufferPointer { buffer in
            for y in Int(y0)..<Int(y1.rounded(.up)) {
                let rowCoverage = min(Float(y + 1), y1) - max(Float(y), y0)
                let weights =
                    rowCoverage == 1
                    ? inside
                    : (left: ink.weight(rowCoverage * leftCoverage), middle: ink.weight(rowCoverage), right: ink.weight(rowCoverage * rightCoverage))
                let row = buffer.baseAddress!.advanced(by: y * width)
                row[firstColumn] = Canvas.blend(row[firstColumn], ink, weights.left)
                guard lastColumn > firstColumn else { continue }
                if lastColumn > firstColumn + 1 { Canvas.blendSpan(row, from: firstColumn + 1, to: lastColumn, ink, weights.middle) }
                row[lastColumn] = Canvas.blend(row[lastColumn], ink, weights.right)
            }
        }
    }

    /// Fills a rounded rectangle with a vertical gradient from `top` to `bottom`; straight edges
    /// and corners are anti-aliased from the distance to the outline. Pixels in `hidden` are left
    /// as they are (a later opaque shape covers them: `Occlusion`), as are those outside `clip`
    /// (nil: none); the others are the same pixels as without it.
    package mutating func fillRoundedRect(
        _ rect: Rect, radius: Float, top: RGBA, bottom: RGBA, hidden: PixelBox = .empty, within clip: PixelBox? = nil
    ) {
        let shape = RoundedRectPixels(rect, radius: radius, canvasWidth: width, canvasHeight: height)
        guard !shape.rows.isEmpty, !shape.columns.isEmpty, max(top.a, bottom.a) > 0 else { return }
        let clipRows = clip.map { Int($0.rows.lowerBound)..<Int($0.rows.upperBound) } ?? shape.rows
        let clipColumns = clip.map { Int($0.columns.lowerBound)..<Int($0.columns.upperBound) } ?? shape.columns
        let width = self.width
        let hiddenRows = Int(hidden.rows.lowerBound)..<Int(hidden.rows.upperBound)
        let hiddenColumns = Int(hidden.columns.lowerBound)..<Int(max(hidden.columns.lowerBound, hidden.columns.upperBound))
        // Rows the hidden box covers across every column are skipped at once: the rows left
        // are those above it and those below.
        let coversColumns = hiddenColumns.lowerBound <= shape.columns.lowerBound && shape.columns.upperBound <= hiddenColumns.upperBound
        let skipped = coversColumns ? hiddenRows.clamped(to: shape.rows) : shape.rows.lowerBound..<shape.rows.lowerBound
        // Between the corners, in the rows wholly inside, the side columns' coverages are the
        // same in every row: found once, then read. A gradient whose ends have one alpha gives
        // every row's ink that alpha: the sides' weights are then found once too.
        let sides = SideCoverages(shape, everyRow: top.a == bottom.a ? Ink(top) : nil)
        pixels.withUnsafeMutableBufferPointer { buffer in
            func drawRow(_ y: Int) {
                let isHidden = hiddenRows.contains(y) && !hiddenColumns.isEmpty
                let py = Float(y) + 0.5
                let amount = rect.height > 0 ? max(0, min(1, (py - rect.minY) / rect.height)) : 0
                let ink = Ink(mixing: top, with: bottom, amount)
                let dy = shape.dy(row: y)
                let rowCoverage = shape.rowCoverage(y)
                let row = buffer.baseAddress!.advanced(by: y * width)
                let (span, spanCoverage) = shape.span(dy: dy, rowCoverage: rowCoverage)
                let readsSides = sides.rows.contains(y)
                let readsWeights = readsSides && sides.alphaWeight == ink.weight
                /// The weight of side column `x`, whose coverage in a straight row is `straight`
                /// (its weight there `straightWeight`, when every row's ink has one alpha).
                func sideWeight(_ x: Int, straight: Float, straightWeight: UInt32) -> UInt32 {
                    readsWeights ? straightWeight : ink.weight(readsSides ? straight : shape.coverage(x, dy: dy, rowCoverage: rowCoverage))
                }
                /// Columns `part` of this row: between the corners one coverage, elsewhere each its own.
                func draw(_ part: Range<Int>) {
                    let part = part.clamped(to: clipColumns)
                    guard !part.isEmpty else { return }
                    guard !span.isEmpty else {
                        for x in part { row[x] = Canvas.blend(row[x], ink, ink.weight(shape.coverage(x, dy: dy, rowCoverage: rowCoverage))) }
                        return
                    }
                    for x in part.lowerBound..<max(part.lowerBound, min(part.upperBound, span.lowerBound)) {
                        row[x] = Canvas.blend(row[x], ink, sideWeight(x, straight: sides.left, straightWeight: sides.leftWeight))
                    }
                    let middle = part.clamped(to: span)
                    if !middle.isEmpty {
                        Canvas.blendSpan(row, from: middle.lowerBound, to: middle.upperBound, ink, ink.weight(spanCoverage))
                    }
                    for x in min(part.upperBound, max(part.lowerBound, span.upperBound))..<part.upperBound {
                        row[x] = Canvas.blend(row[x], ink, sideWeight(x, straight: sides.right, straightWeight: sides.rightWeight))
                    }
                }
                // A later opaque shape replaces the hidden box's pixels: they are not drawn.
                if isHidden {
                    draw(shape.columns.lowerBound..<max(shape.columns.lowerBound, min(shape.columns.upperBound, hiddenColumns.lowerBound)))
                    draw(min(shape.columns.upperBound, max(shape.columns.lowerBound, hiddenColumns.upperBound))..<shape.columns.upperBound)
                } else {
                    draw(shape.columns)
                }
            }
            for y in (shape.rows.lowerBound..<skipped.lowerBound).clamped(to: clipRows) { drawRow(y) }
            for y in (skipped.upperBound..<shape.rows.upperBound).clamped(to: clipRows) { drawRow(y) }
        }
    }

    /// The columns of `span` whose pixel centres lie within `radius` of `centerX`, on a row
    /// `dySquared` (squared) from the centre; empty, at the end of `span`, when there are none.
    @inline(__always)
    static func columns(within radius: Float, of centerX: Float, dySquared: Float, in span: Range<Int>) -> Range<Int> {
        guard dySquared < radius * radius else { return span.upperBound..<span.upperBound }
        let half = (radius * radius - dySquared).squareRoot()
        // Within `span` even when the disc lies beside it (a centre off the canvas).
        let first = min(span.upperBound, max(span.lowerBound, Int((centerX - half - 0.5).rounded(.up))))
        let last = max(first, min(span.upperBound, Int((centerX + half - 0.5).rounded(.down)) + 1))
        return first..<last
    }

    /// Visits each canvas row a disc of `radius` around `center` touches: the row's pixels, its
    /// squared vertical distance from the centre (to pixel centres) and the clipped columns the
    /// disc spans, widened by `margin` on each side. Rows beside the canvas are skipped.
    @inline(__always)
    mutating func forEachRow(
        ofDiscAt center: Point, radius: Float, margin: Float,
        _ body: (_ row: UnsafeMutablePointer<UInt32>, _ dySquared: Float, _ columns: Range<Int>) -> Void
    ) {
        let rows = rows(ofDiscAt: center, radius: radius)
        guard !rows.isEmpty else { return }
        let width = self.width
        pixels.withUnsafeMutableBufferPointer { buffer in
            for y in rows {
                guard let span = Canvas.rowSpan(y, ofDiscAt: center, radius: radius, margin: margin, width: width) else { continue }
                body(buffer.baseAddress!.advanced(by: y * width), span.dySquared, span.columns)
            }
        }
    }

    /// The canvas rows a disc of `radius` around `center` may touch.
    @inline(__always)
    func rows(ofDiscAt center: Point, radius: Float) -> Range<Int> {
        let rowStart = max(0, Int((center.y - radius).rounded(.down)))
        let rowEnd = min(height, Int((center.y + radius).rounded(.up)))
        return rowStart..<max(rowStart, rowEnd)
    }

    /// Row `y`'s vertical distance from the disc's centre (to pixel centres), squared too, and
    /// the columns the disc spans there on a canvas `width` wide, widened by `margin` on each
    /// side; nil when it spans none.
    @inline(__always)
    static func rowSpan(
        _ y: Int, ofDiscAt center: Point, radius: Float, margin: Float, width: Int
    ) -> (dy: Float, dySquared: Float, columns: Range<Int>)? {
        let dy = Float(y) + 0.5 - center.y
        let dySquared = dy * dy
        guard dySquared < radius * radius else { return nil }
        let half = (radius * radius - dySquared).squareRoot()
        let first = max(0, Int((center.x - half - margin).rounded(.down)))
        let last = min(width, Int((center.x + half + margin).rounded(.up)))
        guard last > first else { return nil }
        return (dy, dySquared, first..<last)
    }

    /// Fills an anti-aliased disc.
    package mutating func fillCircle(center: Point, radius: Float, _ color: RGBA) {
        guard color.a > 0, radius > 0 else { return }
        let ink = Ink(color)
        let outer = radius + 0.5, inner = max(0, radius - 0.5)
        forEachRow(ofDiscAt: center, radius: outer, margin: 0.5) { row, dySquared, columns in
            // Pixels whose centres lie within radius − 0.5 are fully covered.
            let full = Canvas.columns(within: inner, of: center.x, dySquared: dySquared, in: columns)
            for x in columns.lowerBound..<full.lowerBound {
                let dx = Float(x) + 0.5 - center.x
                let coverage = max(0, min(1, outer - (dx * dx + dySquared).squareRoot()))
                row[x] = Canvas.blend(row[x], ink, ink.weight(coverage))
            }
            Canvas.blendSpan(row, from: full.lowerBound, to: full.upperBound, ink, ink.weight)
            for x in full.upperBound..<columns.upperBound {
                let dx = Float(x) + 0.5 - center.x
                let coverage = max(0, min(1, outer - (dx * dx + dySquared).squareRoot()))
                row[x] = Canvas.blend(row[x], ink, ink.weight(coverage))
            }
        }
    }

    /// Strokes an anti-aliased ring of the given line width centred on `radius`.
    package mutating func strokeCircle(center: Point, radius: Float, lineWidth: Float, _ color: RGBA) {
        guard color.a > 0, radius > 0, lineWidth > 0 else { return }
        let ink = Ink(color)
        let half = lineWidth / 2
        let hole = max(0, radius - half - 0.5)  // pixels with centres inside this are untouched
        forEachRow(ofDiscAt: center, radius: radius + half + 0.5, margin: 0.5) { row, dySquared, columns in
            // The hole's columns are not visited: a wide ring's row is mostly hole.
            let skip = Canvas.columns(within: hole, of: center.x, dySquared: dySquared, in: columns)
            func stroke(_ part: Range<Int>) {
                for x in part {
                    let dx = Float(x) + 0.5 - center.x
                    let distance = (dx * dx + dySquared).squareRoot()
                    let coverage = max(0, min(1, half + 0.5 - abs(distance - radius)))
                    if coverage > 0 { row[x] = Canvas.blend(row[x], ink, ink.weight(coverage)) }
                }
            }
            stroke(columns.lowerBound..<skip.lowerBound)
            stroke(skip.upperBound..<columns.upperBound)
        }
    }

    /// A soft glow: alpha × (1 − d²/r²)², a smooth bump that reaches zero at `radius`. Pixels
    /// within `hole` of the centre are left alone (something opaque is drawn there anyway).
    /// A centre on a whole or half row (a key's top edge) has each row above it at exactly the
    /// distance of a row below: their weights are worked out once for both (`pairsRows`; off
    /// only to test that the pixels are the same).
    package mutating func fillGlow(center: Point, radius: Float, hole: Float = 0, _ color: RGBA, pairsRows: Bool = true) {
        guard color.a > 0, radius > 0 else { return }
        let ink = Ink(color)
        let inverseSquared = 1 / (radius * radius)
        let scale = Float(ink.weight)
        // A pixel whose weight, (1 − d²/r²)² · scale, is under 1 is left as it is: go only as
        // far as the weight reaches 1 (and a pixel more).
        guard scale >= 1 else { return }
        let reach = min(radius, radius * (1 - 1 / scale.squareRoot()).squareRoot() + 1)
        // The rows and columns `forEachRow(ofDiscAt:radius:margin:)` visits, with no margin.
        let rows = rows(ofDiscAt: center, radius: reach)
        guard !rows.isEmpty else { return }
        // Rows y and `mirrors` − y lie at distances from the centre that are exact negatives
        // of each other when twice the centre's y is a whole number (and small).
        let twice = 2 * center.y
        let isWhole = abs(twice) < Float(1 << 22) && twice.rounded() == twice
        let mirrors: Int? = pairsRows && isWhole ? Int(twice) - 1 : nil
        let width = self.width
        pixels.withUnsafeMutableBufferPointer { buffer in
            for y in rows {
                guard let (dy, dySquared, columns) = Canvas.rowSpan(y, ofDiscAt: center, radius: reach, margin: 0, width: width) else { continue }
                let partner = mirrors.map { $0 - y }
                // A row below the centre whose partner above was drawn with it is done.
                if let partner, dy > 0, rows.contains(partner) { continue }
                let row = buffer.baseAddress!.advanced(by: y * width)
                let also = partner.flatMap { dy < 0 && $0 < rows.upperBound ? buffer.baseAddress!.advanced(by: $0 * width) : nil }
                let skip = Canvas.columns(within: hole, of: center.x, dySquared: dySquared, in: columns)
                let rowTerm = 1 - dySquared * inverseSquared
                func blendRun(_ start: Int, _ end: Int) {
                    Canvas.blendGlowRun(
                        row, also: also, from: start, to: end, firstDX: Float(start) + 0.5 - center.x,
                        rowTerm: rowTerm, inverseSquared: inverseSquared, scale: scale, ink)
                }
                blendRun(columns.lowerBound, skip.lowerBound)
                blendRun(skip.upperBound, columns.upperBound)
            }
        }
    }

    /// An anti-aliased line of the given width with round caps.
    package mutating func drawLine(from start: Point, to end: Point, lineWidth: Float, _ color: RGBA) {
        guard color.a > 0, lineWidth > 0 else { return }
        if start.x == end.x || start.y == end.y {
            // Axis-aligned lines are rectangles (with square ends), the common case for grids.
            let half = lineWidth / 2
            fillRect(
                Rect(
                    x: min(start.x, end.x) - (start.y == end.y ? 0 : half), y: min(start.y, end.y) - (start.x == end.x ? 0 : half),
                    width: abs(end.x - start.x) + (start.y == end.y ? 0 : lineWidth),
                    height: abs(end.y - start.y) + (start.x == end.x ? 0 : lineWidth)), color)
            return
        }
        let half = lineWidth / 2
        let rowStart = max(0, Int((min(start.y, end.y) - half - 1).rounded(.down)))
        let rowEnd = min(height, Int((max(start.y, end.y) + half + 1).rounded(.up)))
        let columnStart = max(0, Int((min(start.x, end.x) - half - 1).rounded(.down)))
        let columnEnd = min(width, Int((max(start.x, end.x) + half + 1).rounded(.up)))
        guard rowEnd > rowStart, columnEnd > columnStart else { return }
        let ink = Ink(color)
        let width = self.width
        let vx = end.x - start.x, vy = end.y - start.y
        let lengthSquared = vx * vx + vy * vy
        pixels.withUnsafeMutableBufferPointer { buffer in
            for y in rowStart..<rowEnd {
                let py = Float(y) + 0.5 - start.y
                let row = buffer.baseAddress!.advanced(by: y * width)
                for x in columnStart..<columnEnd {
                    let px = Float(x) + 0.5 - start.x
                    let along = max(0, min(1, (px * vx + py * vy) / lengthSquared))
                    let ex = px - vx * along, ey = py - vy * along
                    let coverage = max(0, min(1, half + 0.5 - (ex * ex + ey * ey).squareRoot()))
                    if coverage > 0 { row[x] = Canvas.blend(row[x], ink, ink.weight(coverage)) }
                }
            }
        }
    }
}
