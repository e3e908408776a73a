import MIDIVizCore
import Synchronization

/// The tiles of an engraved strip drawn by librsvg when frames first need them
/// (`SheetTiles`): the document drawn at the strip's scale with its viewport shifted left to the
/// tile's first column, so a tile's pixels are those of that region of the whole strip.
package final class SVGTileDrawer: SheetTileDrawing {
    /// librsvg's handle is used by one thread at a time.
    private let document: Mutex<SVGDocument>
    private let width: Double, height: Double, top: Double
    private let tileColumns: Int, rows: Int

    /// - Parameters:
    ///   - width, height: the document's size in the strip, in pixels.
    ///   - top: how far down the strip the document starts.
    ///   - rows: the strip's height.
    package init(document: sending SVGDocument, width: Double, height: Double, top: Double, tileColumns: Int, rows: Int) {
        self.document = Mutex(document)
        (self.width, self.height, self.top) = (width, height, top)
        (self.tileColumns, self.rows) = (tileColumns, rows)
    }

    /// Columns drawn on each side of a tile and dropped: cairo anti-aliases a slanted edge (a
    /// beam) cut by the surface's side a little differently from the same edge drawn whole, up
    /// to about 10 columns in; with this margin a tile's pixels are those of the whole strip.
    static let margin = 32

    /// Tile `index`, or the error librsvg or cairo gave.
    package func draw(tile index: Int, columns: Int) throws(SVGDocument.SVGError) -> [UInt8] {
        let margin = Self.margin
        let wide = try document.withLock { document throws(SVGDocument.SVGError) in
            try document.coverage(
                width: width, height: height, left: index * tileColumns - margin, top: top, columns: columns + 2 * margin, rows: rows)
        }
        guard wide.count == (columns + 2 * margin) * rows else {
            throw SVGDocument.SVGError(reason: "cairo gave \(wide.count) pixels for a tile of \(columns + 2 * margin)x\(rows)")
        }
        var tile = [UInt8](repeating: 0, count: columns * rows)
        for row in 0..<rows {
            let from = row * (columns + 2 * margin) + margin
            tile[row * columns..<(row + 1) * columns] = wide[from..<from + columns]
        }
        return tile
    }

    /// Tile `index`; paper where it cannot be drawn (cairo out of memory: the engraver drew the
    /// first tile of the same document, so it draws).
    package func coverage(ofTile index: Int, columns: Int) -> [UInt8] {
        (try? draw(tile: index, columns: columns)) ?? [UInt8](repeating: 0, count: columns * rows)
    }
}
