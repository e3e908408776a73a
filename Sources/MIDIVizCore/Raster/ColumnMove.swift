/// Columns of a frame that hold the previous frame's pixels moved `left` pixels (right when
/// negative), every row: what a frame of the roll keeps of the one before it.
package struct ColumnMove: Sendable, Equatable {
    package let columns: Range<Int>
    package let left: Int

    package init(columns: Range<Int>, left: Int) {
        self.columns = columns
        self.left = left
    }

    /// Moves `columns` of each of `rows` rows of `stride` elements at `base` along: each
    /// column then holds what the column `left` further right held; the columns uncovered at
    /// the end keep what they held.
    package static func move<Element>(_ base: UnsafeMutablePointer<Element>, stride: Int, rows: Int, columns: Range<Int>, left shift: Int) {
        let count = columns.count - abs(shift)
        guard shift != 0, count > 0 else { return }
        let from = shift > 0 ? columns.lowerBound + shift : columns.lowerBound
        let to = shift > 0 ? columns.lowerBound : columns.lowerBound - shift
        for y in 0..<rows {
            let row = base.advanced(by: y * stride)
            // `update(from:count:)` copies overlapping memory as memmove does.
            row.advanced(by: to).update(from: row.advanced(by: from), count: count)
        }
    }
}
