/// Leaves out what a later opaque shape paints over. Dense songs stack notes on one key (or
/// one row of the roll) many times over; each note is drawn only where no later, opaque note of
/// the same key covers it.
///
/// Works on rounded rectangles, the notes of every style. A later opaque one with the same left
/// and right edges (and radius) hides the rows between its corners that it covers whole (the
/// keyboard's falling notes); one with the same top and bottom edges hides the columns between
/// its corners (the roll's notes, over a background picture or video: a roll that scrolls moves
/// the frame before instead). Shapes wholly hidden are dropped; partly hidden ones become
/// `partlyHiddenRoundedRect`. Only pixels the covering note covers wholly are hidden (not its
/// anti-aliased sides, top and bottom), so every pixel is the plain painter's: which of them
/// are found hidden changes how fast a frame is drawn, never how it looks.
package struct Occlusion: Sendable {
    /// The edges a shape shares with those it may hide: left and right, or top and bottom,
    /// with the radius.
    struct Edges: Hashable {
        let low: UInt32, high: UInt32, radius: UInt32
        init(_ low: Float, _ high: Float, _ radius: Float) {
            self.low = low.bitPattern
            self.high = high.bitPattern
            self.radius = radius.bitPattern
        }
    }

    /// Rows covered, for each left and right edge.
    private var coveredRows = EdgeSpans()
    /// Columns covered, for each top and bottom edge.
    private var coveredColumns = EdgeSpans()
    /// The shapes left out, by index.
    private var dropped: [Bool] = []

    package init() {}

    /// The shapes worth the work: below this a frame draws too little for it to pay.
    static let fewestShapes = 64

    /// Rewrites `shapes` (drawn in order on a canvas `width` × `height`) without what later
    /// opaque shapes cover. `rowsAbove`: rows above the canvas count as its own, so that what is
    /// hidden moves with shapes that move down into it (a layer's falling notes).
    package mutating func hideCovered(in shapes: inout [Shape], width: Int, height: Int, rowsAbove: Int = 0) {
        guard shapes.count >= Self.fewestShapes else { return }
        coveredRows.removeAll(expecting: shapes.count)
        coveredColumns.removeAll(expecting: shapes.count)
        dropped.removeAll(keepingCapacity: true)
        dropped.append(contentsOf: repeatElement(false, count: shapes.count))
        var droppedCount = 0
        for index in shapes.indices.reversed() {
            guard case .roundedRect(let rect, let radius, let top, let bottom) = shapes[index] else { continue }
            let pixels = RoundedRectPixels(rect, radius: radius, canvasWidth: width, canvasHeight: height, firstRow: -rowsAbove)
            guard !pixels.rows.isEmpty, !pixels.columns.isEmpty else { continue }
            let sides = Edges(rect.minX, rect.maxX, pixels.radius), ends = Edges(rect.minY, rect.maxY, pixels.radius)
            // An opaque shape hides what came before it: it has spans of its own to add to.
            let opaque = top.a >= 1 && bottom.a >= 1
            let rowSpans = opaque ? coveredRows.spans(for: sides) : coveredRows.existingSpans(for: sides)
            let columnSpans = opaque ? coveredColumns.spans(for: ends) : coveredColumns.existingSpans(for: ends)
            // The hidden box: rows under later shapes with the same sides (their whole columns),
            // or columns under later shapes with the same ends (their full rows), whichever
            // hides more. There the later shape covers every pixel wholly: what is left out
            // could not show.
            var hidden = PixelBox.empty
            if let rowSpans, let rows = coveredRows.widest(at: rowSpans, within: pixels.rows) {
                hidden = PixelBox(rows: rows, columns: pixels.whole)
            }
            if let columnSpans, let columns = coveredColumns.widest(at: columnSpans, within: pixels.columns) {
                let box = PixelBox(rows: pixels.fullRows, columns: columns)
                if box.area > hidden.area { hidden = box }
            }
            if let rowSpans, let columnSpans, opaque {
                let straightRows = pixels.straightRows
                if !straightRows.isEmpty { coveredRows.add(straightRows, at: rowSpans) }
                if !pixels.inner.isEmpty && !pixels.fullRows.isEmpty { coveredColumns.add(pixels.inner, at: columnSpans) }
            }
            guard !hidden.isEmpty else { continue }
            if hidden.contains(rows: pixels.rows, columns: pixels.columns) {
                dropped[index] = true
                droppedCount += 1
            } else {
                shapes[index] = .partlyHiddenRoundedRect(rect, radius: radius, top: top, bottom: bottom, hidden: hidden)
            }
        }
        guard droppedCount > 0 else { return }
        shapes.removeShapes { dropped[$0] }
    }
}
