import Foundation
import Testing

@testable import MIDIVizCore
@testable import MIDIVizIO

/// The sheet's noteheads are lit while their notes sound, and no other ink is.
@Suite(.timeLimit(.minutes(30)), .enabled(if: SheetTools.available, Comment(rawValue: SheetTools.missing)))
struct SheetLightsTests {
    static func scene(_ fixture: String) throws -> Scene {
        let song = try SongLoader.load(path: SheetTools.fixture(fixture))
        var settings = RenderSettings(width: 960, height: 540, framesPerSecond: 30, style: RenderSettings.Style(rawValue: "sheet")!)
        settings.sheet = try SheetEngraver.engrave(song: song, name: fixture, settings: settings)
        return Scene(song: song, settings: settings)
    }

    /// The sheet's view in a frame at `seconds`.
    static func view(_ scene: Scene, at seconds: Double) throws -> SheetView {
        var shapes: [Shape] = []
        scene.makeShapes(at: seconds, into: &shapes)
        return try #require(
            shapes.lazy.compactMap { shape -> SheetView? in
                if case .sheet(let view) = shape { return view }
                return nil
            }.first)
    }

    /// A scale, one note at a time: at every frame the head lit is the note sounding, the
    /// n-th head for the n-th note, and none between notes.
    @Test func eachHeadIsLitWhileItsNoteSounds() throws {
        let scene = try Self.scene("c-major-scale.musicxml")
        let notes = scene.song.notes.sorted { $0.startSeconds < $1.startSeconds }
        try #require(notes.count == 8 && scene.settings.sheet?.heads.count == 8)
        var litFrames = 0
        for frame in 0..<scene.frameCount {
            let seconds = Double(frame) / 30
            let sounding = notes.indices.filter { notes[$0].startSeconds <= seconds + 1e-6 && seconds + 1e-6 < notes[$0].endSeconds }
            let lit = try #require(scene.settings.sheet).headsSounding(inStretch: try Self.view(scene, at: seconds).litStretch)
            #expect(lit == sounding, "at \(seconds) s")
            litFrames += lit.isEmpty ? 0 : 1
        }
        #expect(litFrames > scene.frameCount / 2, "\(litFrames) of \(scene.frameCount) frames light a head")
    }

    /// Chords and voices (`no-text.musicxml`): what sounds at a few moments, by quarter; a tied
    /// note's heads are lit in turn, each for its own written length (the D5 tied over the bar:
    /// its first head from quarter 2 to 3, its second from 3 to 4).
    @Test func chordsAndVoicesAreLitTogether() throws {
        let scene = try Self.scene("no-text.musicxml")
        let music = try #require(scene.settings.sheet)
        // Quarter 0.25: G4 over the G2 B2 D3 chord; 2.5: the D5 alone; 3.5: the D5's second
        // head over C3 E3; 4.75: E5 over D3 F#3.
        var tied: [Double] = []
        for (quarter, expected) in [(0.25, 4), (2.5, 1), (3.5, 3), (4.75, 3)] {
            let lit = music.headsSounding(atQuarter: quarter)
            #expect(lit.count == expected, "at quarter \(quarter): \(lit.map { music.heads[$0] })")
            #expect(lit.allSatisfy { music.heads[$0].quarter <= quarter && quarter < music.heads[$0].endQuarter })
            if quarter == 2.5 || quarter == 3.5 { tied.append(music.heads[lit.max { music.heads[$0].y > music.heads[$1].y }!].x) }
        }
        #expect(tied.count == 2 && tied[1] > tied[0] + 10, "the tied D5's two heads, left to right: \(tied)")
        // A frame holds the stretch of time it is in: the same heads as its quarter.
        for step in -4...140 {
            let quarter = Double(step) / 20
            #expect(music.headsSounding(inStretch: music.litStretch(atQuarter: quarter)) == music.headsSounding(atQuarter: quarter), "\(quarter)")
        }
    }

    /// Grace notes are lit when MuseScore plays them, on the beat, and the note after them when
    /// it is delayed: at every frame the lit heads are the pitch classes sounding. Verovio's
    /// timemap put the graces before the beat: the E5 was lit while the C5 sounded.
    @Test func graceNotesAreLitAsPlayed() throws {
        let scene = try Self.scene("grace-notes.musicxml")
        let music = try #require(scene.settings.sheet)
        let notes = scene.song.notes
        try #require(notes.count == 7 && music.heads.count == 7, "\(notes.count) notes, \(music.heads.count) heads")
        let semitones = [0, 2, 4, 5, 7, 9, 11]
        for frame in 0..<(2 * 240) {
            let seconds = Double(frame) / 240
            let sounding = notes.filter { $0.startSeconds <= seconds + 1e-6 && seconds + 1e-6 < $0.endSeconds }.map { Int($0.pitch) % 12 }.sorted()
            let lit = music.headsSounding(atQuarter: scene.song.quarters(atSeconds: seconds + 1e-6)).compactMap { index in
                music.heads[index].written.map { (semitones[$0.step] + $0.alter + 12) % 12 }
            }.sorted()
            #expect(lit == sounding, "at \(seconds) s")
        }
    }

    /// A drum part's notes have no pitch name: the score is engraved (Verovio's script failed on
    /// them, exit 65), and each quarter lights the piano's head and the drum's under it; only the
    /// piano's heads are spelled.
    @Test func aScoreWithADrumPartIsLitToo() throws {
        let scene = try Self.scene("with-drums.musicxml")
        let music = try #require(scene.settings.sheet)
        #expect(music.heads.count == 8 && music.heads.filter { $0.written != nil }.count == 4, "\(music.heads)")
        for quarter in 0..<4 {
            let lit = music.headsSounding(atQuarter: Double(quarter) + 0.5).map { music.heads[$0] }
            #expect(lit.count == 2 && lit.filter { $0.written == nil }.count == 1, "at quarter \(quarter): \(lit)")
            #expect(lit.allSatisfy { $0.quarter == Double(quarter) }, "at quarter \(quarter): \(lit)")
        }
    }

    /// The staff space is the normal heads', whichever note is drawn small: with a cue-sized
    /// last note the whole engraving was drawn 4/3 as large, its lit boxes short of its heads.
    @Test func aSmallLastNoteDoesNotScaleTheEngraving() throws {
        let scale = try String(contentsOfFile: SheetTools.fixture("c-major-scale.musicxml"), encoding: .utf8)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("midiviz-cue-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var spans: [Double] = []
        for cue in ["first", "last"] {
            var text = scale
            let note = try #require(cue == "first" ? text.range(of: "<note>") : text.range(of: "<note>", options: .backwards))
            text.replaceSubrange(note, with: "<note><cue/>")
            let type = try #require(text.range(of: "<type>", range: note.lowerBound..<text.endIndex))
            text.replaceSubrange(type, with: "<type size=\"cue\">")
            let path = folder + "/cue-\(cue).musicxml"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let song = try SongLoader.load(path: path)
            var settings = RenderSettings(width: 960, height: 540, framesPerSecond: 30, style: RenderSettings.Style(rawValue: "sheet")!)
            settings.sheet = try SheetEngraver.engrave(song: song, name: path, settings: settings)
            let heads = try #require(settings.sheet?.heads)
            try #require(heads.count == 8, "\(cue): \(heads.count) heads")
            spans.append(Double(heads[6].x - heads[1].x))
        }
        #expect(abs(spans[1] / spans[0] - 1) < 0.02, "C5 to D4 across: \(spans)")
    }

    /// In the frame, the lit colour is only on and around the lit heads, and on each of them.
    @Test func onlyTheLitHeadsTakeTheLitColour() throws {
        let scene = try Self.scene("no-text.musicxml")
        let music = try #require(scene.settings.sheet)
        let fonts = try FontRasterizer().textFonts(canvasSide: 540)
        let renderer = FrameRenderer(scene: scene, fonts: fonts)
        var workspace = renderer.makeWorkspace()
        for seconds in [0.1, 1.25, 2.4] {
            renderer.render(at: seconds, in: &workspace)
            let view = try Self.view(scene, at: seconds)
            let litHeads = music.headsSounding(inStretch: view.litStretch)
            try #require(!litHeads.isEmpty)
            let top = Int(view.band.minY) + (Int(view.band.height) - music.height) / 2
            let space = music.noteheadHalfWidth / 0.6
            // Each lit head's centre in the frame, and how far its glyph reaches.
            let heads = litHeads.map { index in
                let head = music.heads[index]
                return (x: head.x - Double(view.left) + Double(view.band.minX), y: head.y + Double(top), half: max(head.halfWidth, music.noteheadHalfWidth))
            }
            var litOnHead = [Int](repeating: 0, count: heads.count), stray = 0
            let playhead = Int(view.playheadX)
            for y in 0..<540 {
                for x in 0..<960 where abs(x - playhead) > 1 {
                    let pixel = workspace.canvas.color(x: x, y: y)
                    // The rainbow scheme's lit colour is red-violet: red well over green.
                    guard pixel.r > pixel.g + 0.25 else { continue }
                    if let near = heads.firstIndex(where: { abs(Double(x) + 0.5 - $0.x) <= $0.half + 1.5 && abs(Double(y) + 0.5 - $0.y) <= space / 2 + 1.5 }) {
                        litOnHead[near] += 1
                    } else {
                        stray += 1
                    }
                }
            }
            #expect(stray == 0, "at \(seconds) s: \(stray) lit pixels away from the lit heads")
            #expect(litOnHead.allSatisfy { Double($0) > space * space * 0.4 }, "at \(seconds) s: lit pixels on each head \(litOnHead)")
        }
    }
}
