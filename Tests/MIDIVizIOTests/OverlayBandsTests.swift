import Foundation
import Testing

@testable import MIDIVizCore
@testable import MIDIVizIO

/// The title, the chord name and the lyrics never cover a note: with a song whose notes fill
/// every key all the time, drawn in pure green, no green pixel is found in the overlays' bands,
/// in every style, landscape and vertical; and the notes are there (green pixels elsewhere).
@Suite(.timeLimit(.minutes(30))) struct OverlayBandsTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("fixtures")

    /// The karaoke fixture's lyrics over notes on every key of a piano, each a quarter second,
    /// one after another on each key for 20 seconds, all on track 0.
    static func filledSong() throws -> Song {
        var song = try SongLoader.load(path: fixtures.appendingPathComponent("karaoke-latin1.kar").path)
        var notes: [Note] = []
        for step in 0..<80 {
            for pitch in 21...108 {
                let start = Double(step) * 0.25
                notes.append(Note(startSeconds: start, endSeconds: start + 0.24, pitch: UInt8(pitch), velocity: UInt8(40 + pitch), channel: 0, track: 0))
            }
        }
        song.notes = notes
        return song
    }

    static func isGreen(_ color: RGBA) -> Bool { color.g > 0.4 && color.g > color.r + 0.2 && color.g > color.b + 0.2 }

    /// Every style that draws notes (`sheet` draws the engraved score, which needs the engraver).
    @Test(arguments: RenderSettings.Style.allCases.filter { $0.rawValue != "sheet" }, [(480, 270), (270, 480)])
    func noNotePixelUnderAnOverlay(style: RenderSettings.Style, size: (Int, Int)) throws {
        let fonts = try #require(try? FontRasterizer().textFonts(canvasSide: min(size.0, size.1)), "DejaVu Sans is missing")
        var settings = RenderSettings.forTesting
        (settings.width, settings.height) = size
        settings.style = style
        settings.scheme = .fire
        settings.title = "A title over the notes"
        settings.chords = true
        settings.lyrics = true
        settings.trackLook.trackColors = [0: RGBA(0, 1, 0)]
        let song = try Self.filledSong()
        // Every way notes travel, for the styles that can turn.
        let directions: [RenderSettings.Direction?] = style == .keyboard || style == .roll ? [nil] + RenderSettings.Direction.allCases : [nil]
        for direction in directions {
            settings.direction = direction
            try expectNoNoteUnderTheOverlays(song: song, settings: settings, fonts: fonts)
        }
    }

    /// Under the sheet music's band (`--sheet`, its room kept without the engraving here), the
    /// title, legend and lyrics still have bands of their own: the three took more than half the
    /// frame with it, and were drawn over the notes.
    @Test(arguments: RenderSettings.Style.allCases.filter { $0.rawValue != "sheet" })
    func underTheSheetMusicTheOverlaysKeepTheirBands(style: RenderSettings.Style) throws {
        let fonts = try #require(try? FontRasterizer().textFonts(canvasSide: 360), "DejaVu Sans is missing")
        var settings = RenderSettings.forTesting
        (settings.width, settings.height) = (640, 360)
        settings.style = style
        settings.scheme = .fire
        settings.title = "A title over the notes"
        settings.chords = true
        settings.lyrics = true
        settings.sheetBand = true
        settings.trackLook.trackColors = [0: RGBA(0, 1, 0)]
        let bands = Scene(song: try Self.filledSong(), settings: settings).bands
        #expect(bands.headerTop == SheetBand.coveredTop(settings: settings) && bands.headerTop > 100)
        #expect(bands.notesBottom - bands.notesTop > 90, "the notes keep a quarter of the frame")
        try expectNoNoteUnderTheOverlays(song: try Self.filledSong(), settings: settings, fonts: fonts)
    }

    func expectNoNoteUnderTheOverlays(song: Song, settings: RenderSettings, fonts: TextFonts) throws {
        let (style, size, direction) = (settings.style, (settings.width, settings.height), settings.direction)
        let scene = Scene(song: song, settings: settings)
        let boxes = scene.bands.overlayBoxes(width: settings.width)
        #expect(boxes.count == 2, "a header and a lyrics band")
        let renderer = FrameRenderer(scene: scene, fonts: fonts)
        var workspace = renderer.makeWorkspace()
        for seconds in [4.0, 9.1] {
            renderer.render(at: seconds, in: &workspace)
            let canvas = workspace.canvas
            var inBands = 0, elsewhere = 0
            for y in 0..<canvas.height {
                for x in 0..<canvas.width where Self.isGreen(canvas.color(x: x, y: y)) {
                    let point = Point(Float(x) + 0.5, Float(y) + 0.5)
                    if boxes.contains(where: { $0.minY <= point.y && point.y < $0.maxY }) { inBands += 1 } else { elsewhere += 1 }
                }
            }
            #expect(inBands == 0, "\(style) \(size) \(direction as Any) at \(seconds) s: \(inBands) note pixels under the overlays")
            #expect(elsewhere > 500, "\(style) \(size) \(direction as Any) at \(seconds) s: the notes are drawn (\(elsewhere) pixels)")
        }
    }

    /// A frame too low to keep the overlays bands of their own (1280x120 with a title, chord,
    /// legend and lyrics): the notes have the whole frame and the overlays are left out; they
    /// were drawn over the notes.
    @Test(arguments: RenderSettings.Style.allCases.filter { $0.rawValue != "sheet" })
    func aFrameTooLowForTheOverlaysLeavesThemOut(style: RenderSettings.Style) throws {
        var settings = RenderSettings.forTesting
        (settings.width, settings.height) = (1280, 120)
        settings.style = style
        settings.title = "A title over the notes"
        settings.chords = true
        settings.lyrics = true
        settings.colorBy = .track
        let song = try Self.filledSong()
        let scene = Scene(song: song, settings: settings)
        #expect(scene.bands.isWholeFrame && !scene.bands.overlaysShown && scene.bands.overlayBoxes(width: 1280).isEmpty)
        /// The overlays' shapes: the title (`.title` text), the chord (`.display`), the legend's
        /// names (left-aligned `.small` text on its row) and the lyrics' lines.
        func overlays(_ scene: Scene, at times: [Double]) -> (title: Int, chord: Int, legend: Int, lyrics: Int) {
            var shapes: [Shape] = []
            for seconds in times { scene.makeShapes(at: seconds, into: &shapes) }
            var found = (title: 0, chord: 0, legend: 0, lyrics: 0)
            for shape in shapes {
                switch shape {
                case .text(_, .title, _, _, _): found.title += 1
                case .text(_, .display, _, _, _): found.chord += 1
                case .text(_, .small, let center, _, .left) where center.y == scene.bands.legendRowY: found.legend += 1
                case .lyricLine: found.lyrics += 1
                default: break
                }
            }
            return found
        }
        let low = overlays(scene, at: [4.0, 9.1])
        #expect(low.title + low.chord + low.legend + low.lyrics == 0, "\(style): \(low) overlay shapes drawn")
        #expect(Scene.overlaysLeftOut(song: song, settings: settings) == ["the title", "the chord", "the legend", "the lyrics"])
        // A frame that keeps the bands draws each of them.
        settings.height = 360
        let tall = Scene(song: song, settings: settings)
        let drawn = overlays(tall, at: [4.0, 9.1])
        #expect(tall.bands.overlaysShown && drawn.title > 0 && drawn.legend > 0 && drawn.lyrics > 0, "\(style): \(drawn)")
        #expect(Scene.overlaysLeftOut(song: song, settings: settings).isEmpty)
    }

    @Test func withoutOverlaysTheNotesHaveTheWholeFrame() throws {
        let bands = OverlayBands(settings: .forTesting, hasTitle: false, hasLegend: false, hasLyrics: false)
        #expect(bands.isWholeFrame && bands.notesTop == 0 && bands.notesBottom == 270 && bands.overlayBoxes(width: 480).isEmpty)
    }

    /// The title is measured with its glyphs and cut with `...` to the room beside the chord: 64
    /// `W`s (twice as wide as the estimate) ran over the chord name and off the frame.
    @Test func aTitleIsCutToItsRoomByItsGlyphs() throws {
        let fonts = try #require(try? FontRasterizer().textFonts(canvasSide: 360), "DejaVu Sans is missing")
        var settings = RenderSettings.forTesting
        (settings.width, settings.height) = (640, 360)
        settings.chords = true
        for (letter, isCut) in [("W", true), ("e", false)] {
            settings.title = String(repeating: letter, count: 64)
            let scene = Scene(song: try Self.filledSong(), settings: settings)
            var shapes: [Shape] = []
            scene.overlay.append(chord: nil, at: 1, to: &shapes)
            var store = fonts
            store.store = scene.store
            let titles = shapes.compactMap { shape -> (bytes: [UInt8], box: Rect)? in
                guard case .text(let label, .title, _, _, let alignment) = shape, let box = shape.bounds(fonts: store) else { return nil }
                let bytes = label.bytes(in: store.store)
                return (alignment.keptLength(of: bytes, glyphs: fonts[.title]).map { bytes[..<$0] + GlyphSet.ellipsis } ?? bytes, box)
            }
            #expect(titles.count == 2, "the title and its shadow")
            for title in titles {
                #expect(fonts[.title].width(of: title.bytes) <= scene.overlay.titleRoom, "\(letter): \(title.box)")
                #expect(title.box.maxX < 640 - 0.8 * scene.bands.margin, "\(letter): \(title.box), inside the frame")
                let whole = Array(String(repeating: letter, count: 64).utf8)
                #expect(isCut ? title.bytes.suffix(3) == Array("...".utf8)[...] && title.bytes.count < 64 : title.bytes == whole, "\(letter): \(title.bytes)")
            }
        }
    }

    @Test func theHeaderFollowsTheFont() {
        var settings = RenderSettings.forTesting
        settings.chords = true
        let small = OverlayBands(settings: settings, hasTitle: true, hasLegend: false, hasLyrics: false)
        (settings.width, settings.height) = (1920, 1080)
        let large = OverlayBands(settings: settings, hasTitle: true, hasLegend: true, hasLyrics: false)
        #expect(small.headerHeight > Float(TextSize.display.pixelSize(canvasSide: 270)))
        #expect(large.headerHeight > small.headerHeight * 3, "4 times the text, and a legend row")
        #expect(large.legendRowY > large.titleRowY)
    }
}
