import Testing

@testable import MIDIVizCore

/// Where the strip is at a quarter when the music is played in passes (a repeat): the column
/// follows each pass and jumps at the next one's start, as a reader's eye does.
@Suite(.timeLimit(.minutes(30))) struct SheetMusicPassesTests {
    func music(_ anchors: [SheetMusic.Anchor]) -> SheetMusic {
        let tiles = SheetTiles(width: 100, tileColumns: 100, capacity: 1, drawer: BlankPaper(rows: 10))
        return SheetMusic(height: 10, tiles: tiles, anchors: anchors, noteheadHalfWidth: 2, fingerprint: 1)
    }

    /// Tiles of paper only: these tests look at columns, not pixels.
    struct BlankPaper: SheetTileDrawing {
        let rows: Int
        func coverage(ofTile index: Int, columns: Int) -> [UInt8] { Array(repeating: 0, count: columns * rows) }
    }

    @Test func aPassStartJumpsBackAtItsQuarter() {
        // Bar 1 (columns 10-40) played twice: its bar line at 50 ends the first pass at quarter 4.
        let music = music([
            .init(quarter: 0, x: 10), .init(quarter: 2, x: 30), .init(quarter: 4, x: 50),
            .init(quarter: 4, x: 10, startsPass: true), .init(quarter: 6, x: 30), .init(quarter: 8, x: 50),
        ])
        #expect(music.anchors.count == 6)
        #expect(music.x(atQuarter: 3) == 40)
        #expect(abs(music.x(atQuarter: 3.999) - 49.99) < 1e-9)
        #expect(music.x(atQuarter: 4) == 10)
        #expect(music.x(atQuarter: 5) == 20)
        #expect(music.x(atQuarter: 9) == 60, "after the last, at the last pass's pace")
    }

    @Test func withoutAPassStartColumnsOnlyGoRight() {
        // The same anchors unmarked: the second pass's are dropped, the strip goes on forward.
        let music = music([
            .init(quarter: 0, x: 10), .init(quarter: 2, x: 30), .init(quarter: 4, x: 50), .init(quarter: 4, x: 10),
            .init(quarter: 6, x: 30), .init(quarter: 8, x: 50),
        ])
        #expect(music.anchors == [.init(quarter: 0, x: 10), .init(quarter: 2, x: 30), .init(quarter: 4, x: 50)])
        #expect(music.x(atQuarter: 5) == 60)
    }

    /// After the end of the music (its last bar line, as its last note ends) the page stays;
    /// after a last onset, it goes on at the pace of the last two.
    @Test func thePageStaysAtTheEndOfTheMusic() {
        let ended = music([.init(quarter: 0, x: 10), .init(quarter: 1, x: 20), .init(quarter: 4, x: 50, endsMusic: true)])
        #expect(ended.x(atQuarter: 2.5) == 35)
        #expect(ended.x(atQuarter: 4) == 50 && ended.x(atQuarter: 9) == 50)
        let open = music([.init(quarter: 0, x: 10), .init(quarter: 1, x: 20), .init(quarter: 4, x: 50)])
        #expect(open.x(atQuarter: 9) == 100)
    }

    @Test func aPassEndIsKeptBeforeAPassStartGivenInAnyOrder() {
        let music = music([
            .init(quarter: 4, x: 10, startsPass: true), .init(quarter: 0, x: 10), .init(quarter: 4, x: 50), .init(quarter: 6, x: 30),
        ])
        #expect(music.anchors.map(\.x) == [10, 50, 10, 30])
        #expect(music.x(atQuarter: 2) == 30)
        #expect(music.x(atQuarter: 4) == 10)
    }
}
