import Foundation
import Testing

@testable import MIDIVizCore
@testable import MIDIVizIO

/// The score's text as Verovio spaces it: drawn in a font of its widths, so words keep apart.
@Suite(
    .timeLimit(.minutes(30)), .enabled(if: SheetTools.available, Comment(rawValue: SheetTools.missing)),
    .enabled(
        if: FileManager.default.fileExists(atPath: "/usr/share/fonts/truetype/liberation2/LiberationSerif-Regular.ttf"),
        "no Liberation Serif: apt-get install fonts-liberation2 (scripts/setup does)"))
struct SheetTextTests {
    /// Sixteen sung words, one an eighth note: Verovio spaces the notes by the words' widths in
    /// Times. Drawn in DejaVu Serif (what fontconfig gave "Times, serif"), a fifth wider, they
    /// ran together ("youareupabove"): 1 gap of a word space in the line where 15 belong.
    @Test func sungWordsKeepApart() throws {
        let song = try SongLoader.load(path: SheetTools.fixture("lyrics.musicxml"))
        var settings = RenderSettings(width: 1280, height: 720, framesPerSecond: 30, style: RenderSettings.Style(rawValue: "sheet")!)
        settings.sheet = try SheetEngraver.engrave(song: song, name: "lyrics.musicxml", settings: settings)
        let scene = Scene(song: song, settings: settings)
        let renderer = FrameRenderer(scene: scene, fonts: try FontRasterizer().textFonts(canvasSide: 720))
        var workspace = renderer.makeWorkspace()
        renderer.render(at: 0.3, in: &workspace)
        // Ink is dark (the playhead is not); the lyrics are the lowest rows of ink on the paper,
        // up to the first row without any.
        // Right of the clef (whose tail reaches the words' height): from two staff spaces
        // before the first note.
        let view = try SheetLightsTests.view(scene, at: 0.3)
        let music = try #require(settings.sheet)
        let firstHead = try #require(music.heads.first).x - Double(view.left) + Double(view.band.minX)
        let left = Int(firstHead - 2 * music.noteheadHalfWidth / 0.6)
        let ink = (0..<720).map { y in
            (left..<1280).map { x in
                let pixel = workspace.canvas.color(x: x, y: y)
                return max(pixel.r, pixel.g, pixel.b) < 0.4
            }
        }
        let band = view.band
        let paper = ink[Int(band.minY.rounded(.up))..<Int(band.maxY)]
        let bottom = try #require(paper.lastIndex { $0.contains(true) })
        let top = (paper[..<bottom].lastIndex { !$0.contains(true) } ?? -1) + 1
        let columns = (0..<(1280 - left)).map { x in (top...bottom).contains { ink[$0][x] } }
        // The runs of blank columns between the line's first and last ink: a word space is
        // about a quarter of the text's height, a gap between letters a few pixels.
        let first = try #require(columns.firstIndex(of: true)), last = try #require(columns.lastIndex(of: true))
        let height = bottom - top + 1
        var gaps: [Int] = [], run = 0
        for inked in columns[first...last] {
            if inked {
                if run > 0 { gaps.append(run) }
                run = 0
            } else {
                run += 1
            }
        }
        let spaces = gaps.filter { $0 * 6 >= height }
        #expect(height < 50 && spaces.count == 15, "rows \(top)...\(bottom): gaps \(gaps)")
    }
}
