import Foundation
import Testing

@testable import MIDIVizCore
@testable import MIDIVizIO

/// Golden frames of the engraved band, real engraving included: `fixtures/sheet/no-text.musicxml`
/// has no text (no title, tempo words or printed part name), and Verovio draws every music
/// glyph as a path from its own SMuFL font data, so the pixels depend on the pinned Verovio and
/// librsvg, not on the fonts installed. FNV-1a 64 of the raw RGBA pixels, as `GoldenFrameTests`;
/// re-record with `RECORD_GOLDENS=1` (the run fails while recording); on a mismatch the frames
/// are saved as PNG under $TMPDIR/midiviz-goldens/.
@Suite(.timeLimit(.minutes(30)), .enabled(if: SheetTools.available, Comment(rawValue: SheetTools.missing)))
struct SheetGoldenTests {
    struct Case: CustomStringConvertible, Sendable {
        var style: String
        var band: Bool
        var scheme: ColorScheme
        var transparent = false
        var frames: [Int]
        var description: String { "no-text-\(style)" + (band ? "-sheet" : "") + "-\(scheme)" + (transparent ? "-transparent" : "") }
    }

    static let cases = [
        Case(style: "keyboard", band: true, scheme: .fire, frames: [0, 20, 45, 80]),
        Case(style: "sheet", band: false, scheme: .ocean, frames: [0, 33, 70]),
        Case(style: "circles", band: true, scheme: .rainbow, transparent: true, frames: [50]),
    ]

    static func settings(_ golden: Case) -> RenderSettings {
        var settings = RenderSettings(
            width: 960, height: 540, framesPerSecond: 30, style: RenderSettings.Style(rawValue: golden.style)!, scheme: golden.scheme)
        settings.sheetBand = golden.band
        settings.transparent = golden.transparent
        return settings
    }

    static func frames(_ song: Song, _ settings: RenderSettings, _ frames: [Int], savingTo folder: URL? = nil, name: String = "") throws -> [String] {
        let renderer = FrameRenderer(scene: Scene(song: song, settings: settings), fonts: .empty(canvasSide: settings.height))
        var workspace = renderer.makeWorkspace()
        return try frames.map { frame in
            renderer.render(frame: frame, in: &workspace)
            if let folder { try PNGWriter().write(workspace.canvas, to: folder.appendingPathComponent("\(name)-\(frame).png").path) }
            return "frame \(frame): \(String(workspace.canvas.pixelHash, radix: 16))"
        }
    }

    @Test(arguments: cases)
    func bandMatchesItsGolden(_ golden: Case) throws {
        let song = try SongLoader.load(path: SheetTools.fixture("no-text.musicxml"))
        var settings = Self.settings(golden)
        settings.sheet = try SheetEngraver.engrave(song: song, name: "no-text.musicxml", settings: settings)
        let lines = try Self.frames(song, settings, golden.frames)
        let file = GoldenFrameTests.directory.appendingPathComponent("\(golden).txt")
        if let folder = ProcessInfo.processInfo.environment["RECORD_GOLDENS"].map({ _ in
            URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("midiviz-goldens")
        }) {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            _ = try Self.frames(song, settings, golden.frames, savingTo: folder, name: golden.description)
            try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
            Issue.record("recorded \(file.lastPathComponent) (frames under \(folder.path)); run again without RECORD_GOLDENS")
            return
        }
        let recorded = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map(String.init)
        if recorded != lines {
            let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("midiviz-goldens")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            _ = try Self.frames(song, settings, golden.frames, savingTo: folder, name: golden.description)
        }
        #expect(recorded == lines, "frames saved under \(NSTemporaryDirectory())midiviz-goldens/")
    }

    /// Two engravings of the fixture (two runs of MuseScore and Verovio, whose SVG differs in
    /// its random element ids) draw the same pixels.
    @Test func engravingTwiceDrawsTheSamePixels() throws {
        let song = try SongLoader.load(path: SheetTools.fixture("no-text.musicxml"))
        var settings = Self.settings(Self.cases[1])
        let first = try SheetEngraver.engraving(song: song, name: "no-text.musicxml", settings: settings)
        let second = try SheetEngraver.engraving(song: song, name: "no-text.musicxml", settings: settings)
        #expect(first.documentWidth == second.documentWidth && first.music.anchors == second.music.anchors)
        settings.sheet = first.music
        let once = try Self.frames(song, settings, [0, 33, 70])
        settings.sheet = second.music
        #expect(try Self.frames(song, settings, [0, 33, 70]) == once)
    }
}
