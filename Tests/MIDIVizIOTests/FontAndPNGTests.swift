import Foundation
import Testing

@testable import MIDIVizCore
@testable import MIDIVizIO

@Suite(.timeLimit(.minutes(30))) struct FontTests {
    @Test func dejaVuMetricsAreThoseOfATextFace() throws {
        let glyphs = try FontRasterizer().glyphSet(pixelSize: 40)
        let capital = try #require(glyphs.glyphs[Int(UInt8(ascii: "H"))])
        #expect((27...31).contains(capital.top), "cap height of DejaVu Sans is 0.73 em")
        #expect(glyphs.glyphs[Int(UInt8(ascii: " "))]?.coverage.allSatisfy { $0 == 0 } ?? true)
        let width = glyphs.width(of: Array("C#4".utf8))
        #expect(width > 60 && width < 100)
        #expect(glyphs.glyphs[0xE9] != nil, "Latin-1 é is there")
    }

    @Test func centredLabelStaysInsideItsBounds() throws {
        let fonts = try FontRasterizer().textFonts(canvasSide: 1080)
        var canvas = Canvas(width: 200, height: 100)
        let shape = Shape.text(.noteName(61), .large, center: Point(100, 50), RGBA(1, 1, 1))
        canvas.draw(shape, fonts: fonts)
        let bounds = try #require(shape.bounds(fonts: fonts))
        var inked: [(Int, Int)] = []
        for y in 0..<100 { for x in 0..<200 where canvas[x, y] & 0xFF > 0 { inked.append((x, y)) } }
        #expect(inked.count > 50)
        #expect(inked.allSatisfy { Float($0.0) >= bounds.minX && Float($0.0) < bounds.maxX && Float($0.1) >= bounds.minY && Float($0.1) < bounds.maxY })
        let xs = inked.map(\.0), ys = inked.map(\.1)
        #expect(abs(Float(xs.min()! + xs.max()!) / 2 - 100) < 3, "centred horizontally")
        #expect(abs(Float(ys.min()! + ys.max()!) / 2 - 50) < 4, "capitals centred vertically")
    }

    @Test func aLongTitleStopsShortOfTheChordInAVerticalFrame() throws {
        var fonts = try FontRasterizer().textFonts(canvasSide: 1080)
        var settings = RenderSettings.forTesting
        (settings.width, settings.height, settings.style, settings.chords) = (1080, 1920, .keyboard, true)
        settings.title = "Symphony No. 9 in D minor, Op. 125, IV: Presto, Allegro assai (Ode to Joy)"
        var shapes: [Shape] = []
        let song = Song(
            format: 0, division: .ticksPerQuarter(96), endTick: 0, durationSeconds: 1, tracks: [], notes: [],
            tempoChanges: [], timeSignatures: [], keySignatures: [], synthEvents: [], warnings: [])
        let scene = Scene(song: song, settings: settings)
        scene.makeShapes(at: 0.5, into: &shapes)
        let title = try #require(shapes.first { if case .text(_, .title, _, _, _) = $0 { return true } else { return false } })
        guard case .text(let label, _, _, _, _) = title else { return }
        let bytes = label.bytes(in: scene.store)
        #expect(bytes.count > 8 && bytes.count < 64 && bytes.suffix(3) == Array("...".utf8))
        fonts.store = scene.store
        // The widest chord name, right-aligned at the corner.
        let chordWidth = fonts[.display].width(of: Array("Ebm7b5".utf8))
        let bounds = try #require(title.bounds(fonts: fonts))
        #expect(bounds.maxX < 1080 - 1920 * 0.03 - chordWidth, "the title ends at \(bounds.maxX)")
    }

    @Test func missingFontIsAClearError() {
        #expect(throws: FontRasterizer.FontError.self) { try FontRasterizer(path: "/nonexistent/font.ttf") }
    }
}

@Suite(.timeLimit(.minutes(30))) struct PNGTests {
    @Test func writtenPixelsReadBackTheSame() throws {
        var canvas = Canvas(width: 64, height: 48, color: RGBA(0.1, 0.2, 0.3))
        canvas.fillCircle(center: Point(30, 20), radius: 15, RGBA(1, 0.5, 0, 0.7))
        let path = NSTemporaryDirectory() + "midiviz-png-\(getpid()).png"
        defer { unlink(path) }
        for level in [0, 1, 9] {
            try PNGWriter(level: level).write(canvas, to: path)
            let read = try PNGReader.read(path)
            #expect(read.width == 64 && read.height == 48)
            #expect(read.pixels == canvas.pixels, "level \(level)")
        }
    }

    @Test func unwritablePathIsAnErrorNotACrash() {
        var caught: PNGWriter.WriteError?
        do { try PNGWriter().write(Canvas(width: 2, height: 2), to: "/nonexistent-dir/frame.png") } catch { caught = error }
        #expect(caught?.description.hasPrefix("cannot write /nonexistent-dir/frame.png") == true)
    }
}

@Suite(.timeLimit(.minutes(30))) struct DemoSongTests {
    @Test func builtInDemoIsTheArpeggioFixture() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("fixtures/c-major-arpeggio.mid")
        #expect(DemoSong.midiBytes == [UInt8](try Data(contentsOf: fixture)))
        let song = try SongLoader.load(bytes: DemoSong.midiBytes, name: DemoSong.name)
        #expect(song.notes.count == 32 && song.durationSeconds == 8 && song.warnings.isEmpty)
    }
}
