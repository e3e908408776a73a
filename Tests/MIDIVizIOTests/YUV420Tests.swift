import Foundation
import Testing

@testable import MIDIVizCore
@testable import MIDIVizIO

@Suite(.timeLimit(.minutes(30))) struct YUVTests {
    @Test func bt709LimitedRangeLevels() {
        var canvas = Canvas(width: 4, height: 2, color: RGBA(1, 1, 1))
        canvas.fillRect(Rect(x: 2, y: 0, width: 2, height: 2), RGBA(0, 0, 0))
        var yuv: [UInt8] = []
        YUV420.convert(canvas, into: &yuv)
        #expect(yuv.count == 12)
        #expect(Array(yuv[0..<8]) == [235, 235, 16, 16, 235, 235, 16, 16], "white 235, black 16")
        #expect(Array(yuv[8..<12]) == [128, 128, 128, 128], "grey has no chroma")
        var red = Canvas(width: 2, height: 2, color: RGBA(1, 0, 0))
        YUV420.convert(red, into: &yuv)
        // BT.709: red is Y 63, Cb 102, Cr 240.
        #expect(yuv[0] == 63 && yuv[4] == 102 && yuv[5] == 240, "\(yuv)")
        red.fillRect(Rect(x: 0, y: 0, width: 1, height: 1), RGBA(0, 0, 1))
        YUV420.convert(red, into: &yuv)
        #expect(yuv[0] == 32, "BT.709 blue is Y 32")
    }

    /// The planes a worker keeps, updated only where each frame changed, stay byte for byte the
    /// whole frame converted afresh: every style, with chords and a title, on a real song, for
    /// consecutive frames, every second frame (one of two workers) and jumps back and forth. The
    /// width is no multiple of the 32-pixel tiles, so the last column of tiles is clipped.
    @Test(arguments: RenderSettings.Style.allCases)
    func changedTilesKeepThePlanesExact(style: RenderSettings.Style) throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Corpus/piano-midi.de/debussy/childrens_corner_2.mid").path
        let song = try SongLoader.load(path: path)
        let settings = RenderSettings(width: 650, height: 366, style: style, chords: true, title: "Doctor Gradus")
        let scene = Scene(song: song, settings: settings)
        let renderer = FrameRenderer(scene: scene, fonts: try FontRasterizer().textFonts(canvasSide: settings.textSide))
        var workspace = renderer.makeWorkspace()
        var planes = YUV420Planes(), whole: [UInt8] = []
        let start = 30 * settings.frameRate.numerator
        let frames =
            Array(start..<(start + 120)) + Array(stride(from: start + 120, to: start + 360, by: 2))
            + [start + 900, start + 10, 0, start + 2000, start + 2001, scene.frameCount - 1, start + 11]
        var partial = 0
        for frame in frames {
            renderer.render(frame: frame, in: &workspace)
            planes.update(from: workspace.canvas, changed: workspace.changed)
            YUV420.convert(workspace.canvas, into: &whole)
            #expect(planes.bytes.count == whole.count)
            let firstDifference = whole.indices.first { planes.bytes[$0] != whole[$0] }
            #expect(firstDifference == nil, "frame \(frame): byte \(firstDifference ?? 0) differs from the whole frame converted")
            if firstDifference != nil { return }
            if workspace.changed.changedFraction < 0.9 { partial += 1 }
        }
        // It must be a saving too: most frames change only part of the picture.
        #expect(partial > frames.count / 2, "\(partial) of \(frames.count) frames converted in part")
    }

    /// A worker whose frames go only to the planes leaves the roll's canvas behind and moves
    /// the planes instead: they stay byte for byte the frame a whole canvas holds, converted
    /// afresh, for the roll's notes area starting at an even column (960 wide) and at an odd
    /// one (968: its first column shares chroma with the keys'), moving 2 pixels a frame (and
    /// at 1280 wide and 30 fps 5 pixels, an odd move the canvas must be drawn whole after),
    /// with effects, note names, track colours and a legend, on a real song and on a dense one
    /// of bright short notes (many of them reaching the area's left edge whole), for
    /// consecutive frames, every second frame, jumps, and a step back.
    @Test(arguments: [(960, 60, false), (968, 60, false), (968, 60, true), (1280, 30, true)])
    func planesMovedWithoutTheCanvasStayExact(width: Int, fps: Int, dense: Bool) throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Corpus/piano-midi.de/debussy/childrens_corner_2.mid").path
        let song = dense ? Self.brightShortNotes() : try SongLoader.load(path: path)
        var settings = RenderSettings(
            width: width, height: 366, framesPerSecond: fps, style: .roll, colorBy: .track, chords: true, title: "Doctor Gradus")
        settings.effects = true
        settings.labels = .names
        let scene = Scene(song: song, settings: settings)
        let renderer = FrameRenderer(scene: scene, fonts: try FontRasterizer().textFonts(canvasSide: settings.textSide))
        let edge = try #require(scene.scrollArea).columns.lowerBound
        #expect(edge % 2 == (width == 960 ? 0 : 1), "the notes area starts at column \(edge)")
        var whole = renderer.makeWorkspace(), behind = renderer.makeWorkspace()
        behind.keepsCanvasWhole = false
        var planes = YUV420Planes(), expected: [UInt8] = []
        let start = (dense ? 8 : 30) * settings.frameRate.numerator
        let frames =
            Array(start..<(start + 120)) + Array(stride(from: start + 120, to: start + 360, by: 2))
            + [start + 900, start + 901, start + 10, start + 12, 0, start + 400, start + 402, scene.frameCount - 1, start + 11, start + 13, start + 11]
        var movedAlone = 0
        for frame in frames {
            renderer.render(frame: frame, in: &whole)
            renderer.render(frame: frame, in: &behind)
            planes.update(from: behind.canvas, changed: behind.changed, moved: behind.moved)
            YUV420.convert(whole.canvas, into: &expected)
            let firstDifference = expected.indices.first { planes.bytes[$0] != expected[$0] }
            #expect(firstDifference == nil, "frame \(frame): byte \(firstDifference ?? 0) differs from the whole frame converted")
            if firstDifference != nil { return }
            if behind.moved != nil { movedAlone += 1 }
        }
        // Most frames move the planes, not the canvas; at 30 fps (an odd move a frame) the 120
        // frames two apart.
        #expect(movedAlone > (fps == 60 ? frames.count / 2 : 100), "\(movedAlone) of \(frames.count) frames moved without the canvas")
    }

    /// A worker whose frames go only to the planes leaves a dense keyboard's falling notes out
    /// of its canvas (the rows no key, glow, spark or text touches) and makes their planes from
    /// the layer and the backdrop: byte for byte the frame a whole canvas holds, converted
    /// afresh, with and without effects and labels, under a title, for consecutive frames,
    /// every second frame, jumps, and a step back.
    @Test(arguments: [false, true])
    func aKeyboardsFallingNotesMadeStraightIntoThePlanesStayExact(effects: Bool) throws {
        // 1,000 notes a second (3,000 in the keyboard's 3 s: dense), on random keys, 0.2 s each.
        var random = SystemRandomNumberGenerator()
        let seed = UInt64.random(in: 0...UInt64.max, using: &random)
        var numbers = SplitMix(state: seed)
        let notes = (0..<12_000).map { index -> Note in
            let start = Double(index) / 1000
            return Note(
                startSeconds: start, endSeconds: start + 0.2, pitch: UInt8(21 + numbers.next() % 88), velocity: UInt8(30 + numbers.next() % 98),
                channel: UInt8(index % 2), track: index % 2)
        }
        let song = Song(
            format: 1, division: .ticksPerQuarter(96), endTick: 4800, durationSeconds: 12,
            tracks: [
                TrackSummary(name: "Left", noteCount: 6000, channels: [0], programs: []),
                TrackSummary(name: "Right", noteCount: 6000, channels: [1], programs: []),
            ],
            notes: notes, tempoChanges: [], timeSignatures: [], keySignatures: [], synthEvents: [], warnings: [])
        var settings = RenderSettings.forTesting
        settings.style = .keyboard
        settings.colorBy = .track
        settings.effects = effects
        settings.labels = effects ? .names : .off
        // A title band; the notes fall 192 pixels in 3.2 s, 2 pixels a frame (ScrolledShapesTests).
        settings.title = "Dense"
        settings.window = 3.2
        let fps = settings.frameRate.numerator
        let scene = Scene(song: song, settings: settings)
        #expect(scene.isDense && scene.scrollArea?.motion == .down, "the keyboard's notes on a layer")
        let renderer = FrameRenderer(scene: scene, fonts: try FontRasterizer().textFonts(canvasSide: settings.textSide))
        var whole = renderer.makeWorkspace(), behind = renderer.makeWorkspace()
        behind.keepsCanvasWhole = false
        var planes = YUV420Planes(), expected: [UInt8] = []
        let start = 2 * fps
        let frames =
            Array(start..<(start + 90)) + Array(stride(from: start + 90, to: start + 200, by: 2))
            + [start + 400, start + 401, start + 10, start + 12, 0, start + 300, scene.frameCount - 1, start + 11, start + 13]
        var laid = 0
        for frame in frames {
            renderer.render(frame: frame, in: &whole)
            renderer.render(frame: frame, in: &behind)
            #expect(whole.laidRows.isEmpty, "a canvas kept whole holds every row")
            let layer = renderer.laidLayer(of: behind)
            if let layer, layer.rows.reduce(0, { $0 + $1.count }) > settings.height / 3 { laid += 1 }
            planes.update(from: behind.canvas, changed: behind.changed, moved: behind.moved, laid: layer)
            YUV420.convert(whole.canvas, into: &expected)
            let firstDifference = expected.indices.first { planes.bytes[$0] != expected[$0] }
            #expect(firstDifference == nil, "seed \(seed), frame \(frame): byte \(firstDifference ?? 0) differs from the whole frame converted")
            if firstDifference != nil { return }
        }
        // Most frames leave a third of their rows or more (of the notes' 192) to the planes.
        #expect(laid > frames.count * 3 / 4, "\(laid) of \(frames.count) frames left most rows to the planes")
    }

    /// SplitMix64: a seeded stream of numbers.
    struct SplitMix {
        var state: UInt64
        mutating func next() -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int(truncatingIfNeeded: (z ^ (z >> 31)) >> 1)
        }
    }

    /// 1,500 notes of 0.15 s, one every 13 ms over 20 s, on pitches 40 to 89 in turn, in two
    /// tracks of bright colours.
    static func brightShortNotes() -> Song {
        let notes = (0..<1500).map { index in
            let start = Double(index) * 0.013
            return Note(
                startSeconds: start, endSeconds: start + 0.15, pitch: UInt8(40 + (index * 37) % 50), velocity: UInt8(60 + (index * 11) % 68),
                channel: UInt8(index % 2), track: index % 2)
        }
        return Song(
            format: 1, division: .ticksPerQuarter(96), endTick: 9600, durationSeconds: 20,
            tracks: [
                TrackSummary(name: "Left", noteCount: 750, channels: [0], programs: []),
                TrackSummary(name: "Right", noteCount: 750, channels: [1], programs: []),
            ],
            notes: notes, tempoChanges: [], timeSignatures: [], keySignatures: [], synthEvents: [], warnings: [])
    }
}
