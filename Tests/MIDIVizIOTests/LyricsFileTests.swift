import Foundation
import Testing

@testable import MIDIVizCore
@testable import MIDIVizIO

/// Lyrics read from real files: the karaoke file of the test corpus (jazz-soft's .kar test) and
/// the two fixtures, one in Latin-1 text events, one in UTF-8 lyric events.
@Suite(.timeLimit(.minutes(30))) struct LyricsFileTests {
    static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = tests.deletingLastPathComponent().appendingPathComponent("fixtures")

    static func load(_ path: String) throws -> Song { try SongLoader.load(path: path) }

    @Test func theCorpusKaraokeFileShowsEachLineWhenItIsSung() throws {
        let song = try Self.load(Self.tests.appendingPathComponent("Corpus/jazz-soft/test-karaoke-kar.mid").path)
        let lyrics = Lyrics(song: song)
        #expect(lyrics.source == .karaokeTrack(1))
        #expect(lyrics.encoding == .ascii)
        #expect(lyrics.syllables.count == 26)
        #expect(
            lyrics.lines.map(\.text) == [
                "Mary was a little lame,", "Little lame,", "Little lame,", "Mary was a little lame,",
                "A little lame was she!",
            ])
        // 100 ticks per quarter at 90 bpm: a tick is 1/150 s; the lines start at ticks 0, 400,
        // 600, 800 and 1150 (mido reads the same events at those ticks).
        let starts = [0, 400, 600, 800, 1150].map { Double($0) / 150 }
        for (line, start) in zip(lyrics.lines, starts) { #expect(abs(line.start - start) < 1e-4) }
        // Each syllable lights when its event comes, not before.
        for (index, syllable) in lyrics.syllables.enumerated() {
            let line = try #require(lyrics.lines.firstIndex { $0.syllables.contains(index) })
            let sung = index - lyrics.lines[line].syllables.lowerBound + 1
            let after = try #require(lyrics.display(at: syllable.seconds + 0.001))
            #expect(after.current == line && after.sung == sung, "syllable \(index) \(syllable.text)")
            if index > lyrics.lines[line].syllables.lowerBound {
                #expect(lyrics.display(at: syllable.seconds - 0.001)?.sung == sung - 1)
            }
        }
    }

    @Test func latin1AndUTF8KaraokeFilesBothReadRight() throws {
        let french = Lyrics(song: try Self.load(Self.fixtures.appendingPathComponent("karaoke-latin1.kar").path))
        #expect(french.source == .karaokeTrack(1) && french.encoding == .windows1252)
        #expect(
            french.lines.map(\.text) == [
                "Frère Jacques, frère Jacques,", "Dormez-vous ? Dormez-vous ?",
                "Sonnez les matines, sonnez les matines,", "Ding, daing, dong ! Ding, daing, dong !",
            ])
        let polish = Lyrics(song: try Self.load(Self.fixtures.appendingPathComponent("lyrics-utf8.mid").path))
        #expect(polish.source == .lyricEvents && polish.encoding == .utf8)
        #expect(
            polish.lines.map(\.text) == [
                "Panie Janie, Panie Janie,", "Rano wstań, rano wstań,", "Wszystkie dzwony biją,",
                "wszystkie dzwony biją,", "Bim, bam, bom, bim, bam, bom.",
            ])
        // Both follow the melody: bar n (2 s each) starts line n of the French.
        #expect(french.lines.map(\.start) == [0, 4, 8, 12])
    }

    /// The sung part of the current line grows syllable by syllable, in the sung colour, and
    /// characters beyond Latin-1 (ń, ą) are drawn from glyphs rasterized for the lyrics.
    @Test func karaokePixelsFollowTheSyllables() throws {
        let song = try Self.load(Self.fixtures.appendingPathComponent("lyrics-utf8.mid").path)
        var settings = RenderSettings.forTesting
        (settings.width, settings.height, settings.style, settings.scheme, settings.lyrics) = (960, 540, .keyboard, .fire, true)
        let extra = Scene.charactersBeyondLatin1(song: song, settings: settings)
        #expect(extra == [0x0144, 0x0105])
        let fonts = try FontRasterizer().textFonts(canvasSide: settings.textSide, extra: extra)
        let scene = Scene(song: song, settings: settings)
        let renderer = FrameRenderer(scene: scene, fonts: fonts)
        let sung = LyricsOverlay.sungColor(.fire)
        /// Pixels of the sung colour in the lyrics' band (both lines: the current one is on top).
        func sungPixels(at seconds: Double) -> Int {
            var workspace = renderer.makeWorkspace()
            renderer.render(at: seconds, in: &workspace)
            let top = Int(scene.bands.lyricsTop), bottom = Int(scene.bands.lyricsTop + scene.bands.lyricsHeight / 2)
            var count = 0
            for y in top..<bottom {
                for x in 0..<settings.width {
                    let pixel = workspace.canvas[x, y]
                    let (r, g, b) = (Float(pixel & 0xFF) / 255, Float(pixel >> 8 & 0xFF) / 255, Float(pixel >> 16 & 0xFF) / 255)
                    if abs(r - sung.r) < 0.12 && abs(g - sung.g) < 0.12 && abs(b - sung.b) < 0.12 { count += 1 }
                }
            }
            return count
        }
        // Line 2, "Rano wstań, rano wstań,": syllables at 4, 4.5, 5, 6, 6.5, 7 s. Before it, line
        // 1 is all sung; when line 2 takes its place only "Ra" is.
        let counts = [4.2, 4.7, 5.2, 6.2, 6.7, 7.2].map(sungPixels)
        #expect(counts[0] > 0 && counts[0] < sungPixels(at: 3.9) / 4, "\(counts)")
        for (earlier, later) in zip(counts, counts.dropFirst()) { #expect(later > earlier, "\(counts)") }

        // Without the extra glyphs the same frame lacks the ń: fewer inked pixels in the band.
        let latinOnly = FrameRenderer(
            scene: Scene(song: song, settings: settings),
            fonts: try FontRasterizer().textFonts(canvasSide: settings.textSide))
        var with = renderer.makeWorkspace(), without = latinOnly.makeWorkspace()
        renderer.render(at: 5.5, in: &with)
        latinOnly.render(at: 5.5, in: &without)
        #expect(with.canvas.pixelHash != without.canvas.pixelHash)
    }

    /// A narrow frame takes shorter lines, so each fits it: at 100x1000 the karaoke file's
    /// lines ran off both edges ("...rmez-vous ? Dormez-vou").
    @Test(arguments: [(100, 1000), (160, 400), (960, 540)])
    func aNarrowFramesLinesFitItsWidth(size: (Int, Int)) throws {
        let song = try Self.load(Self.fixtures.appendingPathComponent("karaoke-latin1.kar").path)
        var settings = RenderSettings.forTesting
        (settings.width, settings.height, settings.style, settings.lyrics) = (size.0, size.1, .circles, true)
        let fonts = try FontRasterizer().textFonts(canvasSide: settings.textSide)
        let scene = Scene(song: song, settings: settings)
        var store = fonts
        store.store = scene.store
        var lines = 0
        for step in 0..<Int(song.durationSeconds * 4) {
            var shapes: [Shape] = []
            scene.makeShapes(at: Double(step) / 4, into: &shapes)
            for shape in shapes {
                guard case .lyricLine = shape, let box = shape.bounds(fonts: store) else { continue }
                lines += 1
                #expect(box.minX >= 0 && box.maxX <= Float(size.0), "\(size) at \(Double(step) / 4) s: \(box)")
            }
        }
        #expect(lines > 10, "\(lines) lines drawn")
        // A wide frame keeps the lines as long as before.
        if size.0 >= 960 { #expect(scene.lyricsOverlay?.lyrics.lines.count == Lyrics(song: song).lines.count) }
    }

    static let cjkFont = "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc"

    /// Japanese lyrics drawn with a font that has them: a kana takes about an em, not the 0.6 a
    /// Latin letter does. The panel covers each line (at 1920x1080 it was 0.6 of its width), and
    /// a narrow frame's lines fit it (at 160x400 they ran off both edges).
    @Test(
        .enabled(if: FileManager.default.fileExists(atPath: cjkFont), "no CJK font: apt-get install fonts-wqy-zenhei (scripts/setup does)"),
        arguments: [(160, 400), (1920, 1080)])
    func cjkLinesFitTheFrameAndTheirPanel(size: (Int, Int)) throws {
        var body: [UInt8] = []
        for line in ["きらきらひかるおそらのほしよまばたきしてはみんなをみてる", "きらきらひかるおそらのほしよ"] {
            for (index, character) in line.enumerated() {
                let text = Array(((index == 0 ? "/" : "") + String(character)).utf8)
                // The syllable, then its note: 96 ticks, half a second.
                body += [0x00, 0xFF, 0x05, UInt8(text.count)] + text + [0x00, 0x90, 60, 90, 0x60, 0x80, 60, 0]
            }
        }
        body += [0x00, 0xFF, 0x2F, 0x00]
        let length = (0..<4).map { UInt8(truncatingIfNeeded: body.count >> (24 - 8 * $0)) }
        let song = try SongLoader.load(bytes: Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0, 96] + Array("MTrk".utf8) + length + body, name: "kana.mid")
        var settings = RenderSettings.forTesting
        (settings.width, settings.height, settings.style, settings.lyrics) = (size.0, size.1, .circles, true)
        let scene = Scene(song: song, settings: settings)
        var fonts = try FontRasterizer(path: Self.cjkFont).textFonts(
            canvasSide: settings.textSide, extra: Scene.charactersBeyondLatin1(song: song, settings: settings))
        fonts.store = scene.store
        var lines = 0
        for step in 0..<Int(song.durationSeconds * 2) {
            var shapes: [Shape] = []
            scene.makeShapes(at: Double(step) / 2, into: &shapes)
            var panel: Rect?
            for shape in shapes {
                if case .roundedRect(let rect, _, _, _) = shape { panel = rect }
                guard case .lyricLine(let line, let textSize, let center) = shape, let box = shape.bounds(fonts: fonts) else { continue }
                lines += 1
                let at = "\(size) at \(Double(step) / 2) s: \(box)"
                #expect(box.minX >= 0 && box.maxX <= Float(size.0), "\(at)")
                // The line's advances, kana by kana, lie on the panel.
                let characters = fonts.store.characters(of: line.line)
                let width = fonts[textSize].width(of: characters)
                #expect(width >= Float(characters.count) * Float(textSize.pixelSize(canvasSide: settings.textSide)) * 0.9, "\(at): the kana are drawn")
                let covered = try #require(panel, Comment(rawValue: at))
                #expect(center.x - width / 2 >= covered.minX && center.x + width / 2 <= covered.maxX, "\(at), \(width) wide, panel \(covered)")
            }
        }
        #expect(lines > 20, "\(lines) lines drawn")
    }

    /// A text event over 127 bytes is shortened before a character, not inside it: the lyrics
    /// stay UTF-8.
    @Test func aLongUTF8LyricIsShortenedBetweenCharacters() throws {
        func meta(_ type: UInt8, _ text: [UInt8]) -> [UInt8] { [0x00, 0xFF, type, UInt8(text.count)] + text }
        let long = Array(String(repeating: "ń", count: 64).utf8)  // 128 bytes
        var body = meta(0x05, Array("Zażółć ".utf8)) + [0x00, 0xFF, 0x05, 0x81, 0x00] + long + meta(0x05, Array("jaźń".utf8))
        body += [0x00, 0xFF, 0x2F, 0x00]
        let bytes =
            Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0, 96] + Array("MTrk".utf8)
            + [0, 0, UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body
        let song = try SongLoader.load(bytes: bytes, name: "long-lyric.mid")
        #expect(song.warnings.contains { $0.contains("shortened to 127") })
        let lyrics = Lyrics(song: song)
        #expect(lyrics.encoding == .utf8)
        #expect(lyrics.syllables.map(\.text) == ["Zażółć ", String(repeating: "ń", count: 63), "jaźń"])
    }
}
