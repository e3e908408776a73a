/// A box of whole pixels: rows `rows`, columns `columns` (both half-open, possibly empty).
package struct PixelBox: Sendable, Hashable {
    package var rows: Range<Int32>
    package var columns: Range<Int32>

    package init(rows: Range<Int32>, columns: Range<Int32>) {
        self.rows = rows
        self.columns = columns
    }

    package init(rows: Range<Int>, columns: Range<Int>) {
        self.init(rows: Int32(rows.lowerBound)..<Int32(rows.upperBound), columns: Int32(columns.lowerBound)..<Int32(columns.upperBound))
    }

    package static let empty = PixelBox(rows: Int32(0)..<0, columns: Int32(0)..<0)

    package var isEmpty: Bool { rows.isEmpty || columns.isEmpty }
    package var area: Int { isEmpty ? 0 : Int(rows.count) * Int(columns.count) }

    package func contains(rows other: Range<Int>, columns otherColumns: Range<Int>) -> Bool {
        other.isEmpty || otherColumns.isEmpty
            || (Int(rows.lowerBound) <= other.lowerBound && other.upperBound <= Int(rows.upperBound)
                && Int(columns.lowerBound) <= otherColumns.lowerBound && otherColumns.upperBound <= Int(columns.upperBound))
    }
}
