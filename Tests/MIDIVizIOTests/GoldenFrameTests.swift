import Foundation
import Testing

@testable import MIDIVizCore
@testable import MIDIVizIO

/// Golden frames: FNV-1a 64 of the raw RGBA pixels (never PNG bytes) of chosen frames of the
/// fixtures, per style and scheme, at `RenderSettings.forTesting`. Re-record with
/// `RECORD_GOLDENS=1 swift test --filter GoldenFrameTests` (the run fails while recording);
/// on a mismatch the frame is saved as PNG under $TMPDIR/midiviz-goldens/ to look at.
@Suite(.timeLimit(.minutes(30))) struct GoldenFrameTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens")
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("fixtures")

    struct Case: CustomStringConvertible, Sendable {
        var fixture: String
        var style: RenderSettings.Style
        var scheme: ColorScheme
        var grid = false
        var barsLayout = RenderSettings.BarsLayout.range
        var colorBy = RenderSettings.ColorBy.pitch
        var keys = RenderSettings.KeyRange.piano
        var chords = false
        var title: String? = nil
        var labels = RenderSettings.Labels.off
        var lyrics = false
        var effects = false
        var trackLook = TrackLook()
        var window: Double? = nil
        var frames: [Int]
        var description: String {
            "\(fixture.replacingOccurrences(of: ".mid", with: "").replacingOccurrences(of: ".kar", with: ""))-\(style)-\(scheme)" + (grid ? "-grid" : "")
                + (barsLayout == .pitchClass ? "-pitchclass" : "") + (colorBy != .pitch ? "-by\(colorBy)" : "")
                + (keys == .song ? "-songkeys" : "") + (chords ? "-chords" : "") + (title != nil ? "-title" : "")
                + (labels != .off ? "-labels-\(labels)" : "") + (lyrics ? "-lyrics" : "") + (effects ? "-effects" : "")
                + (trackLook.trackColors.isEmpty ? "" : "-trackcolors") + (trackLook.hiddenTracks.isEmpty ? "" : "-hidden")
                + (window.map { "-window\($0)" } ?? "")
        }
    }

    static let cases: [Case] = {
        var cases: [Case] = []
        for style in RenderSettings.Style.allCases {
            for scheme in ColorScheme.allCases {
                cases.append(Case(fixture: "c-major-arpeggio.mid", style: style, scheme: scheme, frames: [0, 10, 37, 100, 250]))
            }
        }
        cases.append(Case(fixture: "tempo-map.mid", style: .circles, scheme: .ocean, grid: true, frames: [0, 130, 200]))
        cases.append(Case(fixture: "tempo-map.mid", style: .bars, scheme: .fire, grid: true, barsLayout: .pitchClass, frames: [0, 130]))
        cases.append(Case(fixture: "c-major-arpeggio.mid", style: .circles, scheme: .rainbow, colorBy: .track, frames: [37]))
        // Roll: the grid across the tempo and meter change; keyboard on the song's keys;
        // chords, a title and legends over every style.
        cases.append(Case(fixture: "tempo-map.mid", style: .roll, scheme: .ocean, grid: true, frames: [0, 110, 130, 200]))
        cases.append(Case(fixture: "tempo-map.mid", style: .keyboard, scheme: .fire, grid: true, keys: .song, frames: [0, 110, 130]))
        cases.append(
            Case(
                fixture: "demo-groove.mid", style: .roll, scheme: .rainbow, colorBy: .track, chords: true,
                title: "midiviz groove", frames: [0, 120, 183, 329]))
        cases.append(
            Case(
                fixture: "demo-groove.mid", style: .keyboard, scheme: .ocean, colorBy: .channel, keys: .song, chords: true,
                frames: [0, 120, 183, 329]))
        cases.append(Case(fixture: "demo-groove.mid", style: .circles, scheme: .fire, chords: true, title: "midiviz groove", frames: [183]))
        cases.append(Case(fixture: "demo-groove.mid", style: .bars, scheme: .rainbow, colorBy: .channel, chords: true, frames: [183]))
        // Note names, sparks and flashes, karaoke lyrics in both encodings.
        cases.append(
            Case(
                fixture: "demo-groove.mid", style: .keyboard, scheme: .fire, keys: .song, labels: .names, effects: true,
                frames: [120, 183, 185]))
        cases.append(Case(fixture: "demo-groove.mid", style: .roll, scheme: .ocean, labels: .solfege, effects: true, frames: [120, 183, 185]))
        cases.append(Case(fixture: "demo-groove.mid", style: .circles, scheme: .rainbow, labels: .names, effects: true, frames: [183, 185]))
        cases.append(Case(fixture: "demo-groove.mid", style: .bars, scheme: .fire, labels: .solfege, effects: true, frames: [183, 185]))
        cases.append(
            Case(
                fixture: "karaoke-latin1.kar", style: .keyboard, scheme: .ocean, keys: .song, labels: .names, lyrics: true,
                frames: [30, 130, 250, 400]))
        cases.append(Case(fixture: "lyrics-utf8.mid", style: .roll, scheme: .fire, lyrics: true, frames: [130, 250]))
        cases.append(Case(fixture: "lyrics-utf8.mid", style: .circles, scheme: .ocean, lyrics: true, effects: true, frames: [250]))
        cases.append(Case(fixture: "karaoke-latin1.kar", style: .bars, scheme: .rainbow, lyrics: true, frames: [250]))
        // Pedals (notes held after their release until the lift at 1.9 s), in every style; the
        // two hands coloured by track, one of them chosen; a hidden track.
        for style in RenderSettings.Style.allCases {
            cases.append(Case(fixture: "pedal-two-hands.mid", style: style, scheme: .ocean, colorBy: .track, keys: .song, frames: [40, 56, 60]))
        }
        var colors = TrackLook()
        colors.trackColors = [1: RGBA(1, 0.53, 0)]
        cases.append(
            Case(
                fixture: "pedal-two-hands.mid", style: .keyboard, scheme: .rainbow, colorBy: .track, keys: .song, trackLook: colors,
                frames: [40]))
        var hidden = TrackLook()
        hidden.hiddenTracks = [2]
        cases.append(Case(fixture: "pedal-two-hands.mid", style: .roll, scheme: .fire, trackLook: hidden, frames: [40]))
        // A dense song (about 4,500 notes in the keyboard's window): the glow budget and
        // whole-backdrop redraws at work in every style, occlusion in all but the roll (which
        // moves the frame before instead).
        for style in [RenderSettings.Style.circles, .bars, .roll, .keyboard] {
            cases.append(Case(fixture: "dense-random.mid", style: style, scheme: .rainbow, colorBy: .track, frames: [30, 60, 100]))
        }
        // Its keyboard with the notes falling 2 pixels a frame (192 in 3.2 s): on a layer that
        // moves, frames 30 and 32 drawn one over the other moved.
        cases.append(Case(fixture: "dense-random.mid", style: .keyboard, scheme: .rainbow, colorBy: .track, window: 3.2, frames: [30, 32, 60, 100]))
        return cases
    }()

    static let fonts: TextFonts? = try? FontRasterizer().textFonts(canvasSide: RenderSettings.forTesting.textSide)

    @Test(arguments: cases)
    func frameMatchesItsGolden(_ golden: Case) throws {
        let fonts = try #require(Self.fonts, "DejaVu Sans is missing: apt-get install fonts-dejavu-core")
        var settings = RenderSettings.forTesting
        settings.style = golden.style
        settings.scheme = golden.scheme
        settings.grid = golden.grid
        settings.barsLayout = golden.barsLayout
        settings.colorBy = golden.colorBy
        settings.keys = golden.keys
        settings.chords = golden.chords
        settings.title = golden.title
        settings.labels = golden.labels
        settings.lyrics = golden.lyrics
        settings.effects = golden.effects
        settings.trackLook = golden.trackLook
        settings.window = golden.window
        let song = try SongLoader.load(path: Self.fixtures.appendingPathComponent(golden.fixture).path)
        let extra = Scene.charactersBeyondLatin1(song: song, settings: settings)
        let renderer = FrameRenderer(
            scene: Scene(song: song, settings: settings),
            fonts: extra.isEmpty ? fonts : try FontRasterizer().textFonts(canvasSide: settings.textSide, extra: extra))
        var workspace = renderer.makeWorkspace()
        var lines: [String] = []
        for frame in golden.frames {
            renderer.render(frame: frame, in: &workspace)
            lines.append("frame \(frame): \(String(workspace.canvas.pixelHash, radix: 16))")
        }
        let file = Self.directory.appendingPathComponent("\(golden).txt")
        if ProcessInfo.processInfo.environment["RECORD_GOLDENS"] != nil {
            try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
            Issue.record("recorded \(file.lastPathComponent); run again without RECORD_GOLDENS")
            return
        }
        let recorded = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map(String.init)
        if recorded != lines {
            let failures = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("midiviz-goldens")
            try FileManager.default.createDirectory(at: failures, withIntermediateDirectories: true)
            for frame in golden.frames {
                renderer.render(frame: frame, in: &workspace)
                try PNGWriter().write(workspace.canvas, to: failures.appendingPathComponent("\(golden)-\(frame).png").path)
            }
        }
        #expect(recorded == lines, "frames saved under \(NSTemporaryDirectory())midiviz-goldens/")
    }

    /// Each frame restores only what the previous one drew over the backdrop, and leaves what
    /// it draws again unchanged where nothing moves near it (or, in the roll, moves the previous
    /// frame along and draws anew only what changed); with text of every kind (title,
    /// legend, chord, bar numbers) in every style, that must equal a fresh frame.
    @Test(arguments: RenderSettings.Style.allCases, [false, true])
    func framesWithTextDoNotDependOnTheFrameBefore(style: RenderSettings.Style, musicFeatures: Bool) throws {
        let fonts = try #require(Self.fonts, "DejaVu Sans is missing: apt-get install fonts-dejavu-core")
        var settings = RenderSettings.forTesting
        settings.style = style
        settings.chords = true
        settings.title = "midiviz groove"
        settings.colorBy = .track
        if musicFeatures {
            // Names, sparks and the karaoke display, which come and go from frame to frame.
            (settings.labels, settings.effects, settings.lyrics) = (.names, true, true)
        }
        let song = try SongLoader.load(path: Self.fixtures.appendingPathComponent(musicFeatures ? "karaoke-latin1.kar" : "demo-groove.mid").path)
        let renderer = FrameRenderer(scene: Scene(song: song, settings: settings), fonts: fonts)
        var reused = renderer.makeWorkspace()
        // Jumps, then a run of consecutive frames, where the title, legend and a held chord
        // stay as drawn (`UnchangedShapes`) while notes come and go under and beside them.
        var framesKeepingShapes = 0
        for frame in [183, 120, 329, 0, 184, 60, 500, 121, 122] + Array(240..<330) {
            renderer.render(frame: frame, in: &reused)
            var fresh = renderer.makeWorkspace()
            renderer.render(frame: frame, in: &fresh)
            #expect(reused.canvas.pixelHash == fresh.canvas.pixelHash, "frame \(frame)")
            // The roll moves what it drew before instead (`ScrolledShapes`).
            if reused.unchanged.keptNew.contains(true) || reused.scrolled.keptNew.contains(true) { framesKeepingShapes += 1 }
        }
        // It must be a saving too. (With names, sparks and lyrics at this small size, something
        // moves beside the still shapes in every frame of the roll.)
        if !musicFeatures { #expect(framesKeepingShapes > 30, "shapes left as drawn in \(framesKeepingShapes) frames") }
    }

    /// A dense song on the keyboard's layer, where each frame draws anew only where notes came
    /// or went or started or stopped sounding (`Scene.makeLayerChanges`): with names on the
    /// notes, a pedal holding them, velocity, notes from 0.05 to 5 s (longer than the frame is
    /// high), a title band, bar and beat lines and sparks, with drums flashing in their lane and
    /// without, every frame two or four after the last (as workers take them), and jumps,
    /// equals the frame drawn alone.
    @Test(arguments: [false, true])
    func denseKeyboardFramesDrawnWhereTheyChangeAreTheFramesDrawnAlone(withDrums: Bool) throws {
        let fonts = try #require(Self.fonts, "DejaVu Sans is missing: apt-get install fonts-dejavu-core")
        var state: UInt64 = 29
        func next(_ range: ClosedRange<Double>) -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return range.lowerBound + Double(state >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
        }
        let pitched = (0..<8000).map { _ -> Note in
            let start = next(0...6), kind = next(0...1)
            let length = kind < 0.7 ? next(0.05...0.3) : kind < 0.95 ? next(0.3...1.5) : next(2...5)
            let channel = UInt8(next(0...1.99))
            return Note(
                startSeconds: start, endSeconds: start + length, pitch: UInt8(next(48...83.99)), velocity: UInt8(next(20...127)),
                channel: channel, track: Int(channel))
        }
        let drums = (0..<(withDrums ? 400 : 0)).map { _ -> Note in
            let start = next(0...6)
            return Note(startSeconds: start, endSeconds: start + 0.1, pitch: UInt8(next(35...59.99)), velocity: UInt8(next(40...127)), channel: 9, track: 2)
        }
        let notes = (pitched + drums).sorted { $0.startSeconds < $1.startSeconds }
        let pedal = [(1.0, 127), (2.5, 0), (4.0, 127), (5.5, 0)].map { TimedMessage(seconds: $0.0, bytes: [0xB0, 64, UInt8($0.1)]) }
        let song = Song(
            format: 1, division: .ticksPerQuarter(96), endTick: 2000, durationSeconds: 11,
            tracks: [(0, 0), (1, 1), (2, 9)].map { track, channel in
                TrackSummary(name: nil, noteCount: notes.filter { $0.track == track }.count, channels: [UInt8(channel)], programs: [])
            },
            notes: notes, tempoChanges: [TempoChange(seconds: 0, tick: 0, beatsPerMinute: 132)], timeSignatures: [], keySignatures: [],
            synthEvents: pedal, warnings: [])
        var settings = RenderSettings.forTesting
        (settings.width, settings.height, settings.style, settings.keys) = (960, 540, .keyboard, .song)
        (settings.labels, settings.velocity, settings.effects, settings.grid, settings.colorBy) = (.names, true, true, true, .track)
        settings.title = "Dense"
        let scene = Scene(song: song, settings: settings)
        #expect(scene.scrollArea?.motion == .down, "the notes fall on a layer")
        #expect(scene.hasDrums == withDrums)
        #expect(notes.indices.contains { scene.soundingEnd($0) > notes[$0].endSeconds }, "the pedal holds notes")
        let renderer = FrameRenderer(scene: scene, fonts: fonts)
        var sequence = renderer.makeWorkspace()
        // The notes fall 4.5 pixels a frame: whole pixels every second frame (the others are drawn whole).
        let frames = Array(stride(from: 90, to: 130, by: 2)) + Array(stride(from: 130, to: 160, by: 4)) + [161, 163, 100, 102, 240, 242]
        var drawnWhereChanged = 0
        for frame in frames {
            renderer.render(frame: frame, in: &sequence)
            if sequence.movedLastFrame && sequence.scrolledDirtyFraction < 0.5 { drawnWhereChanged += 1 }
            var alone = renderer.makeWorkspace()
            renderer.render(frame: frame, in: &alone)
            #expect(sequence.canvas.pixelHash == alone.canvas.pixelHash, "frame \(frame)")
        }
        #expect(drawnWhereChanged > frames.count / 2, "\(drawnWhereChanged) of \(frames.count) frames drew less than half the layer anew")
    }
}
