/// A rounded rectangle's side columns in its straight rows (between the corners and wholly
/// inside): the column each side cuts, left and right of `whole`, at most one a side, with the
/// same coverage in every such row. Found once per shape, with their weights when every row's
/// ink has one alpha weight (`alphaWeight`).
struct SideCoverages {
    /// The straight rows; empty when there are none.
    let rows: Range<Int>
    /// The coverage of the column left of `whole` and of the one right of it (0: no such column).
    let left: Float, right: Float
    /// The weight of every row's ink (nil: they differ), and `Ink.weight` of each side for it.
    let alphaWeight: UInt32?
    let leftWeight: UInt32, rightWeight: UInt32

    @inline(__always)
    init(_ shape: RoundedRectPixels, everyRow ink: Canvas.Ink?) {
        let leftCount = shape.whole.lowerBound - shape.columns.lowerBound
        let rightCount = shape.columns.upperBound - shape.whole.upperBound
        rows = !shape.whole.isEmpty && leftCount <= 1 && rightCount <= 1 ? shape.straightRows : 0..<0
        left = leftCount == 1 ? shape.coverage(shape.columns.lowerBound, dy: 0, rowCoverage: 1) : 0
        right = rightCount == 1 ? shape.coverage(shape.whole.upperBound, dy: 0, rowCoverage: 1) : 0
        alphaWeight = rows.isEmpty ? nil : ink?.weight
        leftWeight = ink?.weight(left) ?? 0
        rightWeight = ink?.weight(right) ?? 0
    }
}
