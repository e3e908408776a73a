/// The engraved music seen through a band of the frame at one moment: the strip shifted so that
/// the music sounding now is under the playhead. A shape (`Shape.sheet`): the music itself is in
/// the scene's `ShapeStore`, and the view holds its fingerprint and height.
package struct SheetView: Sendable, Hashable {
    /// `SheetMusic.fingerprint` of the music shown.
    package var fingerprint: UInt64
    /// The strip's height in pixels.
    package var stripHeight: Int
    /// Where the band is in the frame.
    package var band: Rect
    /// The strip's column at the band's left edge: the strip scrolls by whole pixels.
    package var left: Int
    /// The playhead's column in the frame.
    package var playheadX: Float
    package var paper: RGBA
    package var ink: RGBA
    /// The colour of the noteheads lit.
    package var lit: RGBA
    /// The stretch of time whose noteheads are lit (`SheetMusic.litStretch(atQuarter:)`): the
    /// notes sounding now. A number, so that a shape stays plain bytes.
    package var litStretch = 0
}

extension Canvas {
    /// Fills the band with paper (when it has any alpha), then blends the strip's ink over it, the
    /// lit noteheads' boxes in the lit colour, then a faint playhead line. `music` is the music
    /// `view` shows.
    package mutating func draw(_ view: SheetView, music: SheetMusic) {
        if view.paper.a > 0 { fillRect(view.band, view.paper) }
        let x0 = max(0, Int(view.band.minX)), x1 = min(width, Int(view.band.maxX))
        // The strip in the band's middle, its rows within the frame.
        let top = Int(view.band.minY) + (Int(view.band.height) - music.height) / 2
        let firstRow = max(0, -top), y0 = top + firstRow
        let rows = min(music.height - firstRow, min(height, Int(view.band.maxY)) - y0)
        guard x1 > x0, rows > 0 else { return }
        let ink = Ink(view.ink), lit = Ink(view.lit)
        let boxes = Self.litBoxes(view, music: music, top: top)
        let width = self.width
        // The tiles under the band, taken once: drawn now if the playhead has just reached them.
        let tileColumns = music.tiles.tileColumns
        let firstColumn = view.left + x0 - Int(view.band.minX), lastColumn = view.left + x1 - 1 - Int(view.band.minX)
        guard firstColumn < music.width, lastColumn >= 0 else { return drawPlayhead(view) }
        let firstTile = max(0, firstColumn) / tileColumns
        let tiles = (firstTile...min(lastColumn, music.width - 1) / tileColumns).map { music.tiles.tile($0) }
        // The lit columns of a row, as closed ranges: filled anew for each row, kept allocated.
        var litColumns: [ClosedRange<Int>] = []
        litColumns.reserveCapacity(boxes.count)
        pixels.withUnsafeMutableBufferPointer { buffer in
            for row in 0..<rows {
                let line = buffer.baseAddress!.advanced(by: (y0 + row) * width)
                let stripRow = firstRow + row
                litColumns.removeAll(keepingCapacity: true)
                for box in boxes where box.rows.contains(y0 + row) { litColumns.append(box.columns) }
                let anyLit = !litColumns.isEmpty
                var x = x0
                while x < x1 {
                    let stripX = view.left + x - Int(view.band.minX)
                    if stripX < 0 {
                        x += -stripX
                        continue
                    }
                    if stripX >= music.width { break }
                    let tile = stripX / tileColumns
                    let tileStart = tile * tileColumns
                    let columns = music.tiles.columns(ofTile: tile)
                    let run = min(x1 - x, tileStart + columns - stripX)
                    tiles[tile - firstTile].withUnsafeBufferPointer { coverage in
                        let source = coverage.baseAddress!.advanced(by: stripRow * columns + stripX - tileStart)
                        let raw = UnsafeRawPointer(source)
                        var offset = 0
                        while offset < run {
                            // Eight columns at a time: paper skipped (most of a page is), ink away
                            // from the lit columns blended at once.
                            if offset + 8 <= run {
                                let eight = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                                if eight == 0 {
                                    offset += 8
                                    continue
                                }
                                let column = x + offset
                                if !anyLit || !litColumns.contains(where: { $0.overlaps(column...column + 7) }) {
                                    // Lane by lane: the generic SIMD conversions are not specialized and slow.
                                    let low = UInt32(truncatingIfNeeded: eight), high = UInt32(truncatingIfNeeded: eight >> 32)
                                    var weights = SIMD8<UInt32>(
                                        low & 0xFF, (low >> 8) & 0xFF, (low >> 16) & 0xFF, low >> 24,
                                        high & 0xFF, (high >> 8) & 0xFF, (high >> 16) & 0xFF, high >> 24)
                                    weights &+= weights &>> 7
                                    if ink.weight != 256 { weights = (weights &* ink.weight) &>> 8 }
                                    Canvas.blend8(line.advanced(by: column), ink, weights)
                                    offset += 8
                                    continue
                                }
                            }
                            let value = UInt32(source[offset])
                            offset += 1
                            guard value > 0 else { continue }
                            let column = x + offset - 1
                            let weight = value + (value >> 7)
                            line[column] = Canvas.blend(
                                line[column], anyLit && litColumns.contains(where: { $0.contains(column) }) ? lit : ink,
                                ink.weight == 256 ? weight : (weight * ink.weight) >> 8)
                        }
                    }
                    x += run
                }
            }
        }
        drawPlayhead(view)
    }

    /// The frame's rows and columns of each lit notehead: its glyph's box, and a pixel around
    /// it for the anti-aliased edge. `top` is the frame's row of the strip's first.
    private static func litBoxes(_ view: SheetView, music: SheetMusic, top: Int) -> [(rows: ClosedRange<Int>, columns: ClosedRange<Int>)] {
        // A notehead is a staff space high; half of it is a quarter head's half width / 0.6.
        let halfHeight = music.noteheadHalfWidth / 0.6 / 2 + 0.5
        return music.headsSounding(inStretch: view.litStretch).compactMap { index in
            guard music.heads.indices.contains(index) else { return nil }
            let head = music.heads[index]
            let x = head.x - Double(view.left) + Double(view.band.minX), y = head.y + Double(top)
            let halfWidth = max(head.halfWidth, music.noteheadHalfWidth) + 0.5
            let rows = Int((y - halfHeight).rounded(.down))...Int((y + halfHeight).rounded(.up)) - 1
            let columns = Int((x - halfWidth).rounded(.down))...Int((x + halfWidth).rounded(.up)) - 1
            return (rows, columns)
        }
    }

    /// A faint line at the playhead, across the band.
    private mutating func drawPlayhead(_ view: SheetView) {
        let playheadLine = Rect(x: view.playheadX - 1, y: view.band.minY, width: 2, height: view.band.height)
        fillRect(playheadLine, view.lit.withAlpha(0.35))
    }
}
