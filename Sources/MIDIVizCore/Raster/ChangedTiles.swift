/// The parts of a canvas a frame changed, on a grid of tiles: what a consumer that keeps the
/// previous frame (the yuv420p converter) must redo. Tiles are 16 x 8 pixels, both even, so the
/// rectangles handed out suit 4:2:0 chroma on an even-sized canvas when the columns of tiles
/// start at an even column.
package struct ChangedTiles: Sendable {
    package static let tileWidth = 16
    package static let tileHeight = 8

    package let width: Int
    package let height: Int
    /// A pixel column where a column of tiles starts: the roll's notes area's left edge, so
    /// that what changes beside it (its keys) marks no tile of the notes (or the even column
    /// before an odd edge, `ScrollArea.tileOrigin`).
    package let columnOrigin: Int
    /// Columns of pixels a whole tile would reach left of the canvas: the first column of
    /// tiles is that much narrower.
    private let leftPad: Int
    private let columns: Int
    private let rows: Int
    private var marks: [Bool]
    /// Set when the whole canvas changed (a full-canvas shape), so no tile needs looking at.
    package private(set) var isEverything = false

    package init(width: Int, height: Int, columnOrigin: Int = 0) {
        self.width = width
        self.height = height
        self.columnOrigin = columnOrigin
        let remainder = (columnOrigin % Self.tileWidth + Self.tileWidth) % Self.tileWidth
        leftPad = remainder == 0 ? 0 : Self.tileWidth - remainder
        columns = (width + leftPad + Self.tileWidth - 1) / Self.tileWidth
        rows = (height + Self.tileHeight - 1) / Self.tileHeight
        marks = Array(repeating: false, count: columns * rows)
    }

    /// The column of tiles holding pixel column `x` (0 ..< width).
    @inline(__always)
    package func tileColumn(ofPixel x: Int) -> Int { (x + leftPad) / Self.tileWidth }

    /// The pixel columns of the columns of tiles `first` through `last`, clipped to the canvas.
    @inline(__always)
    private func pixelColumns(ofTiles first: Int, through last: Int) -> Range<Int> {
        max(0, first * Self.tileWidth - leftPad)..<min(width, (last + 1) * Self.tileWidth - leftPad)
    }

    /// Nothing changed.
    package mutating func removeAll() {
        if isEverything || marks.contains(true) {
            marks.withUnsafeMutableBufferPointer { $0.update(repeating: false) }
        }
        isEverything = false
    }

    package mutating func markEverything() { isEverything = true }

    /// Marks the tiles `region` touches (clipped to the canvas).
    package mutating func mark(_ region: Rect) {
        guard !isEverything, let touched = tiles(touchedBy: region) else { return }
        let columns = self.columns
        marks.withUnsafeMutableBufferPointer { marks in
            for row in touched.rows {
                marks.baseAddress!.advanced(by: row * columns + touched.columns.lowerBound)
                    .update(repeating: true, count: touched.columns.count)
            }
        }
    }

    /// Unmarks the bands of tiles that lie wholly at or below row `y` (when not everything
    /// changed).
    package mutating func unmarkRows(from y: Int) {
        guard !isEverything else { return }
        let firstRow = (max(0, y) + Self.tileHeight - 1) / Self.tileHeight
        guard firstRow < rows else { return }
        marks.withUnsafeMutableBufferPointer { marks in
            marks.baseAddress!.advanced(by: firstRow * columns).update(repeating: false, count: (rows - firstRow) * columns)
        }
    }

    /// For each band of tiles (`tileHeight` rows, top first), whether it holds a marked tile.
    package var markedBands: [Bool] {
        (0..<rows).map { row in isEverything || marks[(row * columns)..<((row + 1) * columns)].contains(true) }
    }

    /// For each column of tiles (`tileWidth` columns of pixels from `columnOrigin`, left first;
    /// `tileColumn(ofPixel:)`), whether it holds a marked tile.
    package var markedColumns: [Bool] {
        (0..<columns).map { column in isEverything || stride(from: column, to: marks.count, by: columns).contains { marks[$0] } }
    }

    /// The pixel rows of each run of bands of tiles holding a marked tile, top first.
    package var markedBandRuns: [Range<Int>] {
        var runs: [Range<Int>] = []
        for (band, marked) in markedBands.enumerated() where marked {
            let rows = band * Self.tileHeight..<min(height, (band + 1) * Self.tileHeight)
            if let last = runs.last, last.upperBound == rows.lowerBound { runs[runs.count - 1] = last.lowerBound..<rows.upperBound } else { runs.append(rows) }
        }
        return runs
    }

    /// The pixel columns of each run of columns of tiles with a marked tile among those
    /// touching pixel rows `pixelRows`, left to right.
    package func markedColumnRuns(inRows pixelRows: Range<Int>) -> [Range<Int>] {
        let bands = max(0, pixelRows.lowerBound) / Self.tileHeight..<min(rows, (max(0, pixelRows.upperBound) + Self.tileHeight - 1) / Self.tileHeight)
        guard !bands.isEmpty else { return [] }
        guard !isEverything else { return [0..<width] }
        var runs: [Range<Int>] = []
        var first: Int? = nil
        for column in 0...columns {
            let marked = column < columns && bands.contains { marks[$0 * columns + column] }
            if marked, first == nil { first = column }
            if !marked, let start = first {
                runs.append(pixelColumns(ofTiles: start, through: column - 1))
                first = nil
            }
        }
        return runs
    }

    /// Whether `region` (clipped to the canvas) touches a marked tile.
    package func touches(_ region: Rect) -> Bool {
        if isEverything { return true }
        guard let touched = tiles(touchedBy: region) else { return false }
        for row in touched.rows {
            for column in touched.columns where marks[row * columns + column] { return true }
        }
        return false
    }

    /// The pixels of the smallest box holding every marked tile that `region` (clipped to the
    /// canvas) touches; nil when it touches none. Everything changed: the tiles it touches.
    package func markedBox(touchedBy region: Rect) -> PixelBox? {
        guard let touched = tiles(touchedBy: region) else { return nil }
        var rows = touched.rows, columns = touched.columns
        if !isEverything {
            var top = Int.max, bottom = -1, left = Int.max, right = -1
            marks.withUnsafeBufferPointer { marks in
                for row in touched.rows {
                    for column in touched.columns where marks[row * self.columns + column] {
                        top = min(top, row)
                        bottom = row
                        left = min(left, column)
                        right = max(right, column)
                    }
                }
            }
            guard bottom >= 0 else { return nil }
            rows = top...bottom
            columns = left...right
        }
        return PixelBox(
            rows: rows.lowerBound * Self.tileHeight..<min(height, (rows.upperBound + 1) * Self.tileHeight),
            columns: pixelColumns(ofTiles: columns.lowerBound, through: columns.upperBound))
    }

    /// The columns and rows of tiles `region` touches, clipped to the canvas; nil for none.
    private func tiles(touchedBy region: Rect) -> (columns: ClosedRange<Int>, rows: ClosedRange<Int>)? {
        let x0 = max(0, Int(region.minX.rounded(.down))), x1 = min(width, Int(region.maxX.rounded(.up)))
        let y0 = max(0, Int(region.minY.rounded(.down))), y1 = min(height, Int(region.maxY.rounded(.up)))
        guard x1 > x0, y1 > y0 else { return nil }
        return (tileColumn(ofPixel: x0)...tileColumn(ofPixel: x1 - 1), (y0 / Self.tileHeight)...((y1 - 1) / Self.tileHeight))
    }

    /// The changed area as rectangles `x0..<x1, y0..<y1` clipped to the canvas: per band of tiles,
    /// each run of marked tiles as one; the whole canvas as one when everything changed.
    package func forEachRectangle(_ body: (_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) -> Void) {
        if isEverything {
            body(0, 0, width, height)
            return
        }
        for row in 0..<rows {
            let y0 = row * Self.tileHeight, y1 = min(height, y0 + Self.tileHeight)
            var column = 0
            while column < columns {
                guard marks[row * columns + column] else {
                    column += 1
                    continue
                }
                let start = column
                while column < columns, marks[row * columns + column] { column += 1 }
                let pixels = pixelColumns(ofTiles: start, through: column - 1)
                body(pixels.lowerBound, y0, pixels.upperBound, y1)
            }
        }
    }

    /// The share of the canvas's pixels inside changed tiles, 0...1.
    package var changedFraction: Double {
        var pixels = 0
        forEachRectangle { x0, y0, x1, y1 in pixels += (x1 - x0) * (y1 - y0) }
        return Double(pixels) / Double(width * height)
    }
}
