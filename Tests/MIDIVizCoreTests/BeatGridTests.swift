import Testing

@testable import MIDIVizCore

/// Bar and beat lines from the tempo map and the time signatures, built by the loader from
/// real meta events.
@Suite(.timeLimit(.minutes(30))) struct BeatGridTests {
    static func tempo(_ tick: Int, microseconds: Int) -> MIDIEvent {
        MIDIEvent(tick: tick, track: 0, bytes: [0xFF, 0x51, 0x03, UInt8(microseconds >> 16), UInt8((microseconds >> 8) & 0xFF), UInt8(microseconds & 0xFF)])
    }

    static func meter(_ tick: Int, _ numerator: UInt8, _ denominatorPower: UInt8) -> MIDIEvent {
        MIDIEvent(tick: tick, track: 0, bytes: [0xFF, 0x58, 0x04, numerator, denominatorPower, 24, 8])
    }

    static func song(division: Int, endTick: Int, _ events: [MIDIEvent]) -> Song {
        SongBuilder.build(format: 1, division: .ticksPerQuarter(division), trackCount: 1, events: events, endTick: endTick, warnings: [])
    }

    func close(_ a: [Double], _ b: [Double]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) < 1e-9 }
    }

    @Test func aTempoChangeInsideABarAndAMeterChangeThatShortensTheBar() {
        // 4/4 at 120 bpm; 60 bpm from tick 288 (the fourth beat of bar 1); 3/8 from tick 768.
        let song = Self.song(
            division: 96, endTick: 1200,
            [
                Self.tempo(0, microseconds: 500_000), Self.meter(0, 4, 2),
                Self.tempo(288, microseconds: 1_000_000), Self.meter(768, 3, 3),
            ])
        let grid = BeatGrid(song: song, until: 10)
        #expect(close(grid.lines.filter(\.isBarStart).map(\.seconds), [0, 2.5, 6.5, 8, 9.5]))
        #expect(grid.lines.filter(\.isBarStart).map(\.bar) == [1, 2, 3, 4, 5])
        #expect(close(grid.lines.filter { $0.bar <= 3 }.map(\.seconds), [0, 0.5, 1, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7, 7.5]))
        for number in 1...5 {
            #expect(song.startSeconds(ofBar: number) == grid.lines.first { $0.bar == number }?.seconds, "--from bar:N agrees with the grid")
        }
    }

    @Test func anOddDivisionDoesNotDrift() throws {
        // 7 ticks a quarter in 7/8: a bar is 24.5 ticks, so bar k starts at floor(24.5 k).
        let song = Self.song(division: 7, endTick: 24_500, [Self.meter(0, 7, 3)])
        // 24 475 ticks (bar 1000) at 120 bpm is 1748.2 s.
        let bars = BeatGrid(song: song, until: 1749).lines.filter(\.isBarStart)
        try #require(bars.count == 1000)
        #expect(bars.map(\.tick) == (0..<1000).map { $0 * 49 / 2 })
        #expect(song.startSeconds(ofBar: 1000) == bars[999].seconds)
        #expect(bars[999].tick == 24_475, "accumulating 24-tick bars would have reached 23 976")
    }

    @Test(arguments: [(UInt8(9), [0, 144, 288], 432), (12, [0, 144, 288, 432], 576), (3, [0, 48, 96], 144), (7, [0, 48, 96, 144, 192, 240, 288], 336)])
    func eighthNoteMeters(numerator: UInt8, beats: [Int], nextBar: Int) {
        let song = Self.song(division: 96, endTick: 4000, [Self.meter(0, numerator, 3)])
        let lines = BeatGrid(song: song, until: 100).lines
        #expect(lines.filter { $0.bar == 1 }.map(\.tick) == beats)
        #expect(lines.first { $0.bar == 2 }?.tick == nextBar)
    }

    @Test func degenerateMetersAndTemposKeepLinesApart() {
        // 1/64 at 600 bpm: a bar every 6.25 ms. Kept lines are at least 20 ms apart, all bars.
        let song = Self.song(division: 960, endTick: 96_000, [Self.tempo(0, microseconds: 100_000), Self.meter(0, 1, 6)])
        let lines = BeatGrid(song: song, until: 10).lines
        #expect(lines.count > 100 && lines.count <= 501)
        #expect(zip(lines, lines.dropFirst()).allSatisfy { $1.seconds - $0.seconds >= BeatGrid.minimumGap - 1e-12 })
        #expect(lines.allSatisfy { $0.isBarStart })
        // A signature of 1/65536 makes bars of one tick; the grid still ends.
        let tiny = Self.song(division: 1, endTick: 100_000, [Self.meter(0, 1, 16)])
        #expect(tiny.startSeconds(ofBar: 3) == tiny.seconds(atTick: 2))
        let tinyLines = BeatGrid(song: tiny, until: 100).lines
        #expect(tinyLines.count == 201 && tinyLines.map(\.tick) == Array(0...200), "one bar a tick, 0.5 s at 120 bpm")
        #expect(BeatGrid(song: tiny, until: 1e9).lines.count == BeatGrid.candidateLimit, "a cap, not a hang")
    }
}
