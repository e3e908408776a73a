import Foundation
import Testing

@testable import MIDIVizCore
@testable import MIDIVizIO

/// The engraved strip's tiles are drawn by librsvg as frames reach them and few are kept: the
/// pixels are those of the whole strip drawn at once, and a frame does not depend on which
/// frames were drawn before it, in what order, or on how many threads.
@Suite(.timeLimit(.minutes(30)), .enabled(if: SheetTools.available, Comment(rawValue: SheetTools.missing)))
struct SheetTilesTests {
    /// The fixture's engraving for the `sheet` style at 960x540.
    static func engraving() throws -> (song: Song, settings: RenderSettings, engraving: SheetEngraver.Engraving) {
        let song = try SongLoader.load(path: SheetTools.fixture("pickup-tempo.musicxml"))
        var settings = RenderSettings(width: 960, height: 540, framesPerSecond: 30, style: RenderSettings.Style(rawValue: "sheet")!)
        settings.title = nil
        return (song, settings, try SheetEngraver.engraving(song: song, name: "pickup-tempo.musicxml", settings: settings))
    }

    /// The same engraving cut into narrow tiles, at most `capacity` kept: a long strip in small.
    static func narrowTiles(_ engraving: SheetEngraver.Engraving, columns: Int, capacity: Int) throws -> SheetMusic {
        let music = engraving.music
        let drawer = SVGTileDrawer(
            document: try SVGDocument(bytes: engraving.svg), width: engraving.documentWidth, height: engraving.documentHeight,
            top: engraving.top, tileColumns: columns, rows: music.height)
        let tiles = SheetTiles(width: music.width, tileColumns: columns, capacity: capacity, drawer: drawer)
        return SheetMusic(
            height: music.height, tiles: tiles, anchors: music.anchors, noteheadHalfWidth: music.noteheadHalfWidth, fingerprint: music.fingerprint,
            heads: music.heads)
    }

    static func hashes(_ song: Song, _ settings: RenderSettings, frames: [Int]) -> [UInt64] {
        let renderer = FrameRenderer(scene: Scene(song: song, settings: settings), fonts: .empty(canvasSide: settings.height))
        var workspace = renderer.makeWorkspace()
        return frames.map { frame in
            renderer.render(frame: frame, in: &workspace)
            return workspace.canvas.pixelHash
        }
    }

    @Test func narrowTilesHoldTheWholeStripsPixels() throws {
        let (_, _, engraving) = try Self.engraving()
        let music = try Self.narrowTiles(engraving, columns: 100, capacity: 2)
        try #require(music.tiles.count >= 10, "a strip of \(music.width) columns is \(music.tiles.count) tiles")
        // The whole strip in one surface, as it was drawn before tiles were drawn lazily.
        let whole = try SVGDocument(bytes: engraving.svg).coverage(
            width: engraving.documentWidth, height: engraving.documentHeight, left: 0, top: engraving.top, columns: music.width, rows: music.height)
        var differing = 0, inked = 0
        for tile in 0..<music.tiles.count {
            for y in 0..<music.height {
                for x in tile * 100..<min(music.width, tile * 100 + 100) {
                    let value = music.coverage(x: x, y: y)
                    if value != whole[y * music.width + x] { differing += 1 }
                    if value > 0 { inked += 1 }
                }
            }
            #expect(music.tiles.held <= 2)
        }
        #expect(music.tiles.drawn == music.tiles.count, "each tile drawn once")
        #expect(inked > music.width, "the strip has ink")
        #expect(differing == 0, "\(differing) pixels differ from the whole strip's")
    }

    /// Bach's C major prelude (2:20) notated from its MIDI file, in a `--sheet` band over the
    /// keyboard at 960x540, 30 fps: about 10,000 columns, 40 tiles of 256.
    @Test func aLongStripKeepsFewTilesAndItsFramesDoNotDependOnTheOrder() async throws {
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Corpus")
        let song = try SongLoader.load(path: corpus.appendingPathComponent("piano-midi.de/bach/bach_846.mid").path)
        var settings = RenderSettings(width: 960, height: 540, framesPerSecond: 30, style: RenderSettings.Style(rawValue: "keyboard")!)
        settings.sheetBand = true
        let engraving = try SheetEngraver.engraving(song: song, name: "bach_846.mid", settings: settings)
        // Every 21st frame: the playhead moves about 60 columns between two.
        let frames = Array(stride(from: 0, to: Scene(song: song, settings: settings).frameCount, by: 21))
        var production = settings
        production.sheet = engraving.music
        let expected = Self.hashes(song, production, frames: frames)
        #expect(engraving.music.tiles.held <= engraving.music.tiles.capacity)

        // 256-column tiles, as many kept as a 960-column frame needs (5) and one more: forward,
        // as a render goes, each tile is drawn once and few are kept.
        var narrow = settings
        let music = try Self.narrowTiles(engraving, columns: 256, capacity: 6)
        narrow.sheet = music
        let renderer = FrameRenderer(scene: Scene(song: song, settings: narrow), fonts: .empty(canvasSide: settings.height))
        var workspace = renderer.makeWorkspace()
        var mostHeld = 0
        for (index, frame) in frames.enumerated() {
            renderer.render(frame: frame, in: &workspace)
            #expect(workspace.canvas.pixelHash == expected[index], "frame \(frame), tiles drawn forward")
            mostHeld = max(mostHeld, music.tiles.held)
        }
        try #require(music.tiles.count >= 30, "\(music.tiles.count) tiles")
        #expect(mostHeld == 6, "at most 6 tiles kept at once")
        #expect(music.tiles.drawn == music.tiles.count, "\(music.tiles.drawn) tiles drawn, \(music.tiles.count) in the strip")

        // Backwards and by jumps through a fresh cache: a frame alone equals it in the whole
        // render, a range's first frame (after a jump) likewise.
        narrow.sheet = try Self.narrowTiles(engraving, columns: 256, capacity: 6)
        let jumps = Array(frames.indices.reversed().filter { $0 % 5 == 0 }) + [frames.count / 2, 3, frames.count - 1, frames.count / 3]
        #expect(Self.hashes(song, narrow, frames: jumps.map { frames[$0] }) == jumps.map { expected[$0] })

        // Two threads sharing one cache, each drawing every other frame.
        narrow.sheet = try Self.narrowTiles(engraving, columns: 256, capacity: 6)
        let shared = narrow
        let halves = [frames.indices.filter { $0 % 2 == 0 }, frames.indices.filter { $0 % 2 == 1 }]
        let byThread = await withTaskGroup(of: (Int, [UInt64]).self) { group in
            for half in 0..<2 { group.addTask { (half, Self.hashes(song, shared, frames: halves[half].map { frames[$0] })) } }
            var byThread = [[UInt64]](repeating: [], count: 2)
            for await (half, hashes) in group { byThread[half] = hashes }
            return byThread
        }
        for half in 0..<2 { #expect(byThread[half] == halves[half].map { expected[$0] }, "thread \(half)") }
    }
}
