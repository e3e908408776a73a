import Testing

@testable import MIDIVizCore

@Suite(.timeLimit(.minutes(30))) struct ChangedTilesTests {
    /// The rectangles handed out, as tuples.
    func rectangles(_ tiles: ChangedTiles) -> [[Int]] {
        var result: [[Int]] = []
        tiles.forEachRectangle { x0, y0, x1, y1 in result.append([x0, y0, x1, y1]) }
        return result
    }

    @Test func marksWholeTilesMergedAlongEachBand() {
        var tiles = ChangedTiles(width: 100, height: 20)  // 7 columns of 16 (the last 4 px wide), 3 bands of 8
        #expect(rectangles(tiles).isEmpty)
        tiles.mark(Rect(x: 30.5, y: 7.2, width: 3, height: 2))  // columns 1-2, bands 0-1
        tiles.mark(Rect(x: 97, y: 17, width: 50, height: 50))  // clipped: column 6, band 2
        #expect(rectangles(tiles) == [[16, 0, 48, 8], [16, 8, 48, 16], [96, 16, 100, 20]])
        #expect(abs(tiles.changedFraction - Double(32 * 16 + 4 * 4) / 2000) < 1e-12)
        // Bands 0-2 are marked: one run of rows, the last band cut at the canvas.
        #expect(tiles.markedBandRuns == [0..<20])
        var apart = ChangedTiles(width: 100, height: 40)
        apart.mark(Rect(x: 0, y: 1, width: 2, height: 2))
        apart.mark(Rect(x: 50, y: 25, width: 2, height: 10))
        #expect(apart.markedBandRuns == [0..<8, 24..<40])
    }

    /// The roll's tiles start at its notes' left edge (125 px at 1080p): a change beside the
    /// notes (its keys) marks no tile holding a note's pixel.
    @Test func tilesMayStartAtAColumnOfTheCanvas() {
        // Columns 0..<13, 13..<29, ... 109..<125, 125..<141, ... 173..<189, 189..<200.
        var tiles = ChangedTiles(width: 200, height: 16, columnOrigin: 125)
        #expect(tiles.tileColumn(ofPixel: 0) == 0 && tiles.tileColumn(ofPixel: 12) == 0 && tiles.tileColumn(ofPixel: 13) == 1)
        #expect(tiles.tileColumn(ofPixel: 124) == 7 && tiles.tileColumn(ofPixel: 125) == 8 && tiles.tileColumn(ofPixel: 199) == 12)
        tiles.mark(Rect(x: 0, y: 0, width: 125, height: 2))  // a key: columns 0-7, band 0
        #expect(rectangles(tiles) == [[0, 0, 125, 8]])
        #expect(!tiles.touches(Rect(x: 125, y: 0, width: 40, height: 8)))
        #expect(tiles.markedBox(touchedBy: Rect(x: 100, y: 0, width: 40, height: 8)) == PixelBox(rows: 0..<8, columns: 93..<125))
        tiles.mark(Rect(x: 190, y: 9, width: 3, height: 3))  // the last, narrower column, band 1
        #expect(rectangles(tiles) == [[0, 0, 125, 8], [189, 8, 200, 16]])
        #expect(tiles.markedColumns == Array(repeating: true, count: 8) + Array(repeating: false, count: 4) + [true])
        #expect(abs(tiles.changedFraction - Double(125 * 8 + 11 * 8) / 3200) < 1e-12)
        // The runs of columns with a marked tile, among the bands touching some rows.
        #expect(tiles.markedColumnRuns(inRows: 0..<16) == [0..<125, 189..<200])
        #expect(tiles.markedColumnRuns(inRows: 0..<8) == [0..<125])
        #expect(tiles.markedColumnRuns(inRows: 7..<9) == [0..<125, 189..<200])
        #expect(tiles.markedColumnRuns(inRows: 12..<40) == [189..<200])
        #expect(tiles.markedColumnRuns(inRows: 16..<40).isEmpty && tiles.markedColumnRuns(inRows: -5..<0).isEmpty)
        tiles.markEverything()
        #expect(tiles.markedColumnRuns(inRows: 3..<4) == [0..<200])
        // An origin on a tile's edge is the plain grid.
        let plain = ChangedTiles(width: 200, height: 16, columnOrigin: 64)
        #expect(plain.tileColumn(ofPixel: 63) == 3 && plain.tileColumn(ofPixel: 64) == 4)
    }

    @Test func outsideTheCanvasMarksNothing() {
        var tiles = ChangedTiles(width: 64, height: 16)
        tiles.mark(Rect(x: -10, y: 2, width: 10, height: 4))
        tiles.mark(Rect(x: 64, y: 0, width: 5, height: 5))
        tiles.mark(Rect(x: 3, y: 3, width: 0, height: 4))
        #expect(rectangles(tiles).isEmpty)
    }

    /// What a scrolled frame draws a note within: the box of the marked tiles it touches.
    @Test func theMarkedBoxHoldsTheMarkedTilesARegionTouches() {
        var tiles = ChangedTiles(width: 100, height: 44)  // 7 columns (the last 4 px wide), 6 bands (the last 4 px high)
        tiles.mark(Rect(x: 40, y: 9, width: 1, height: 1))  // column 2, band 1
        tiles.mark(Rect(x: 97, y: 30, width: 2, height: 2))  // column 6, band 3
        // Touching both: columns 2-6 (to the canvas's edge), bands 1-3.
        #expect(tiles.markedBox(touchedBy: Rect(x: 10, y: 0, width: 90, height: 40)) == PixelBox(rows: 8..<32, columns: 32..<100))
        // A mark left of and below the first: the box reaches both ways, to the canvas's last row.
        tiles.mark(Rect(x: 2, y: 42, width: 1, height: 1))  // column 0, band 5
        #expect(tiles.markedBox(touchedBy: Rect(x: 0, y: 0, width: 60, height: 44)) == PixelBox(rows: 8..<44, columns: 0..<48))
        // Touching the first only (columns 0-4, bands 0-2): its tile.
        #expect(tiles.markedBox(touchedBy: Rect(x: 0, y: 0, width: 70, height: 20)) == PixelBox(rows: 8..<16, columns: 32..<48))
        // Touching none of them, or outside the canvas.
        #expect(tiles.markedBox(touchedBy: Rect(x: 0, y: 16, width: 60, height: 8)) == nil)
        #expect(tiles.markedBox(touchedBy: Rect(x: -20, y: 0, width: 10, height: 10)) == nil)
        // Everything changed: the tiles it touches.
        tiles.markEverything()
        #expect(tiles.markedBox(touchedBy: Rect(x: 33, y: 17, width: 2, height: 2)) == PixelBox(rows: 16..<24, columns: 32..<48))
    }

    @Test func everythingIsOneRectangleUntilCleared() {
        var tiles = ChangedTiles(width: 64, height: 16)
        tiles.mark(Rect(x: 0, y: 0, width: 1, height: 1))
        tiles.markEverything()
        #expect(rectangles(tiles) == [[0, 0, 64, 16]])
        #expect(tiles.changedFraction == 1)
        tiles.removeAll()
        #expect(rectangles(tiles).isEmpty && !tiles.isEverything)
    }

    /// A frame changes where the previous frame drew and where it draws: moving one note's
    /// shapes marks both places, and a frame identical to the one before marks nothing (its shapes
    /// stay as drawn).
    @Test func aFrameMarksWhereTheLastOneDrewAndWhereItDraws() {
        let notes = [Note(startSeconds: 0.5, endSeconds: 3, pitch: 60, velocity: 100, channel: 0, track: 0)]
        let song = Song(
            format: 0, division: .ticksPerQuarter(96), endTick: 768, durationSeconds: 4,
            tracks: [TrackSummary(name: "piano", noteCount: 1, channels: [0], programs: [])], notes: notes,
            tempoChanges: [TempoChange(seconds: 0, tick: 0, beatsPerMinute: 120)],
            timeSignatures: [TimeSignature(seconds: 0, tick: 0, numerator: 4, denominator: 4)],
            keySignatures: [], synthEvents: [], warnings: [])
        let settings = RenderSettings(width: 320, height: 180, framesPerSecond: 30, style: .keyboard)
        let renderer = FrameRenderer(scene: Scene(song: song, settings: settings), fonts: .empty(canvasSide: settings.textSide))
        var workspace = renderer.makeWorkspace()
        renderer.render(frame: 0, in: &workspace)
        let first = workspace.canvas
        renderer.render(frame: 20, in: &workspace)
        // Outside the changed tiles, the canvas is the frame before.
        var unchanged = Array(repeating: true, count: settings.width * settings.height)
        workspace.changed.forEachRectangle { x0, y0, x1, y1 in
            for y in y0..<y1 { for x in x0..<x1 { unchanged[y * settings.width + x] = false } }
        }
        var differing = 0
        for index in unchanged.indices where workspace.canvas.pixels[index] != first.pixels[index] {
            differing += 1
            #expect(!unchanged[index], "pixel \(index) changed outside the changed tiles")
            if unchanged[index] { break }
        }
        #expect(differing > 0, "the note moved")
        #expect(workspace.changed.changedFraction < 0.5)
        let second = workspace.canvas
        renderer.render(frame: 20, in: &workspace)
        #expect(workspace.shapeCount > 0 && workspace.changed.changedFraction == 0)
        #expect(workspace.canvas.pixels == second.pixels)
    }
}

extension ChangedTilesTests {
    @Test func unmarkingRowsKeepsTheBandThatStraddlesTheRow() {
        var tiles = ChangedTiles(width: 64, height: 40)
        tiles.mark(Rect(x: 0, y: 0, width: 64, height: 40))
        tiles.unmarkRows(from: 20)
        // Tiles are 8 rows: rows 16..<24 straddle row 20 and stay; 24 and below are unmarked.
        #expect(tiles.touches(Rect(x: 3, y: 21, width: 1, height: 1)))
        #expect(!tiles.touches(Rect(x: 3, y: 24, width: 40, height: 16)))
        tiles.markEverything()
        tiles.unmarkRows(from: 0)
        #expect(tiles.isEverything)
    }
}
