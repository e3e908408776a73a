import Testing

@testable import MIDIVizCore

@Suite(.timeLimit(.minutes(30))) struct SceneTests {
    /// One C4 of velocity 100 from 1 s to 2 s, and optionally a drum hit at 1 s.
    func song(withDrum: Bool = false) -> Song {
        var notes = [Note(startSeconds: 1, endSeconds: 2, pitch: 60, velocity: 100, channel: 0, track: 0)]
        if withDrum { notes.append(Note(startSeconds: 1, endSeconds: 1.05, pitch: 38, velocity: 120, channel: 9, track: 0)) }
        return Song(
            format: 0, division: .ticksPerQuarter(96), endTick: 576, durationSeconds: 3,
            tracks: [TrackSummary(name: nil, noteCount: notes.count, channels: [0], programs: [])],
            notes: notes, tempoChanges: [], timeSignatures: [], keySignatures: [], synthEvents: [], warnings: [])
    }

    func circles(_ scene: Scene, frame: Int) -> [(radius: Float, alpha: Float)] {
        var shapes: [Shape] = []
        scene.makeShapes(ofFrame: frame, into: &shapes)
        return shapes.compactMap { if case .circle(_, let radius, let color) = $0 { return (radius, color.a) } else { return nil } }
    }

    @Test func noteAppearsAtItsStartFrameFadesAfterItsEndAndIsGone() {
        let scene = Scene(song: song(), settings: .forTesting)  // 30 fps, fade 1 s
        #expect(circles(scene, frame: 29).isEmpty, "t = 0.967 s: not yet")
        let start = circles(scene, frame: 30)
        #expect(start.count == 1 && abs(start[0].alpha - 0.92) < 0.001, "t = 1 s: drawn at full strength")
        #expect(abs(circles(scene, frame: 60)[0].alpha - 0.92) < 0.001, "t = 2 s: just released")
        let fading = circles(scene, frame: 75)
        #expect(abs(fading[0].alpha - 0.92 * 0.25) < 0.001, "t = 2.5 s: half way, (1 − ½)²")
        #expect(fading[0].radius > start[0].radius, "a fading circle grows")
        #expect(circles(scene, frame: 90).isEmpty, "t = 3 s: the fade is over")
    }

    @Test func speedScalesTheFade() {
        var settings = RenderSettings.forTesting
        settings.speed = 2
        let scene = Scene(song: song(), settings: settings)
        #expect(!circles(scene, frame: 74).isEmpty)
        #expect(circles(scene, frame: 75).isEmpty, "fade of 0.5 s at speed 2")
    }

    @Test func barsRiseWhileSoundingAndSinkAfterRelease() {
        var settings = RenderSettings.forTesting
        settings.style = .bars
        let layout = BarsLayout(scene: Scene(song: song(), settings: settings))
        let slot = layout.slot(ofPitch: 60)
        #expect(layout.levels(at: 0.99)[slot].level == 0)
        let sounding = layout.levels(at: 1.5)[slot].level
        #expect(abs(sounding - (0.3 + 0.7 * 100 / 127)) < 1e-5)
        #expect(abs(layout.levels(at: 2.5)[slot].level - sounding * 0.25) < 1e-5)
        #expect(layout.levels(at: 3.0)[slot].level == 0)
    }

    @Test func pitchClassBarsHaveTwelveSlots() {
        var settings = RenderSettings.forTesting
        settings.style = .bars
        settings.barsLayout = .pitchClass
        let layout = BarsLayout(scene: Scene(song: song(), settings: settings))
        #expect(layout.levels(at: 1.5).count == 12)
        #expect(layout.levels(at: 1.5)[0].level > 0, "C4 lights the C bar")
    }

    @Test func drumsGoToTheLaneNotToAPitchPosition() {
        let scene = Scene(song: song(withDrum: true), settings: .forTesting)
        var shapes: [Shape] = []
        scene.makeShapes(at: 1.1, into: &shapes)
        let labels = shapes.compactMap { if case .text(let label, _, _, _, _) = $0 { return label } else { return nil } }
        #expect(labels == [.noteName(60)], "only the pitched note is named")
        let rings = shapes.compactMap { if case .ring(let center, _, _, _) = $0 { return center } else { return nil } }
        let laneY = Float(RenderSettings.forTesting.height) * 0.94
        #expect(rings.contains { abs($0.y - laneY) < 0.01 }, "the drum hit is a ring in the lane")
        #expect(scene.pitchRange.contains(60) && !scene.pitchRange.contains(20), "drum keys do not widen the pitch range")
    }

    @Test func frameCountCoversTheSongAndItsTail() {
        let scene = Scene(song: song(), settings: .forTesting)
        #expect(scene.frameCount == 120, "(3 s + 1 s fade) × 30 fps")
        #expect(RenderSettings.forTesting.seconds(ofFrame: 90) == 3.0)
    }

    @Test func noteIndexFindsExactlyTheVisibleNotes() {
        var state: UInt64 = 42
        func random() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        let notes = (0..<2000).map { _ -> Note in
            let start = random() * 100
            return Note(startSeconds: start, endSeconds: start + random() * random() * 8, pitch: 60, velocity: 1, channel: 0, track: 0)
        }.sorted { $0.startSeconds < $1.startSeconds }
        let index = NoteIndex(notes: notes) { $0.endSeconds + 0.5 }
        for step in 0..<400 {
            let t = Double(step) * 0.2537
            var found: [Int] = []
            index.forEachVisible(at: t) { found.append($0) }
            let expected = notes.indices.filter { notes[$0].startSeconds <= t && t <= notes[$0].endSeconds + 0.5 }
            #expect(found.sorted() == expected, "t = \(t)")
        }
    }

    @Test(arguments: RenderSettings.Style.allCases)
    func framesDoNotDependOnWhatTheWorkspaceDrewBefore(style: RenderSettings.Style) {
        var settings = RenderSettings.forTesting
        settings.style = style
        settings.grid = true
        let renderer = FrameRenderer(
            scene: Scene(song: song(withDrum: true), settings: settings),
            fonts: .empty(canvasSide: settings.textSide))
        var reused = renderer.makeWorkspace()
        // Frames in a row too: a frame moved from the one before, then one drawn over it anew.
        for frame in [45, 31, 70, 30, 100, 31, 32, 33, 10] {
            renderer.render(frame: frame, in: &reused)
            var fresh = renderer.makeWorkspace()
            renderer.render(frame: frame, in: &fresh)
            #expect(reused.canvas.pixelHash == fresh.canvas.pixelHash, "frame \(frame)")
        }
    }
}

/// The keyboard makes only the glows `GlowBudget` keeps.
@Suite(.timeLimit(.minutes(30))) struct KeyboardGlowTests {
    /// C4 struck six times in 0.3 s, and (when `crowded`) 40 other keys held down, and (when
    /// `dense`) 2,400 short notes on other keys: a black-MIDI song whose notes fall on a layer.
    func song(crowded: Bool, dense: Bool = false) -> Song {
        var notes = (0..<6).map {
            Note(startSeconds: 1 + 0.05 * Double($0), endSeconds: 1.04 + 0.05 * Double($0), pitch: 60, velocity: 60 + 10 * UInt8($0), channel: 0, track: 0)
        }
        if crowded { notes += (0..<40).map { Note(startSeconds: 0.5, endSeconds: 2, pitch: UInt8(21 + $0), velocity: 90, channel: 0, track: 0) } }
        if dense {
            notes += (0..<2400).map {
                let start = 0.5 + Double($0 % 240) / 100
                return Note(startSeconds: start, endSeconds: start + 0.1, pitch: UInt8(61 + $0 % 40), velocity: 80, channel: 0, track: 0)
            }
        }
        notes.sort { $0.startSeconds < $1.startSeconds }
        return Song(
            format: 0, division: .ticksPerQuarter(96), endTick: 576, durationSeconds: 3,
            tracks: [TrackSummary(name: nil, noteCount: notes.count, channels: [0], programs: [])],
            notes: notes, tempoChanges: [], timeSignatures: [], keySignatures: [], synthEvents: [], warnings: [])
    }

    /// The glows centred on C4's key at 1.3 s: as made, and as `GlowBudget` leaves them.
    func glowsOnC4(crowded: Bool) -> (made: [Shape], drawn: [Shape], shapeCount: Int) {
        var settings = RenderSettings.forTesting
        settings.style = .keyboard
        let scene = Scene(song: song(crowded: crowded), settings: settings)
        let layout = KeyboardLayout(scene: scene)
        let span = layout.keySpan(60)
        var shapes: [Shape] = []
        scene.makeShapes(at: 1.3, into: &shapes)
        func onC4(_ shapes: [Shape]) -> [Shape] {
            shapes.filter { if case .glow(let center, _, _, _) = $0 { return center.x == (span.left + span.right) / 2 } else { return false } }
        }
        let made = onC4(shapes)
        var budget = GlowBudget()
        budget.limit(&shapes)
        return (made, onC4(shapes), shapes.count)
    }

    @Test func aCrowdedFrameMakesOnlyTheLastGlowsOfAKeyAndASparseOneAll() {
        let sparse = glowsOnC4(crowded: false)
        // Few shapes: GlowBudget leaves the frame alone, and all six glows are made and drawn.
        #expect(sparse.shapeCount < Occlusion.fewestShapes)
        #expect(sparse.made.count == 6 && sparse.drawn == sparse.made)
        // Many: only the last three are made, the very ones GlowBudget would keep of all six.
        let crowded = glowsOnC4(crowded: true)
        #expect(crowded.shapeCount >= Occlusion.fewestShapes)
        #expect(crowded.made == Array(sparse.made.suffix(GlowBudget.perCentre)))
        #expect(crowded.drawn == crowded.made)
    }

    /// On a layer (a dense song), the glows are drawn over it (`Scene.makeLayeredShapes`'s
    /// `over`, which `GlowBudget` limits): there the last three are made as one glow, their
    /// colours stacked (`GlowBudget.Stack`).
    @Test func aDenseSongsLayeredFrameMakesTheLastGlowsOfAKeyAsOne() throws {
        var settings = RenderSettings.forTesting
        settings.style = .keyboard
        let scene = Scene(song: song(crowded: false, dense: true), settings: settings)
        try #require(scene.scrollArea?.motion == .down, "the notes fall on a layer")
        let span = KeyboardLayout(scene: scene).keySpan(60)
        var layer: [Shape] = [], over: [Shape] = []
        var visible = VisibleNotes()
        scene.makeLayeredShapes(at: 1.3, visible: &visible, layer: &layer, over: &over)
        func onC4(_ shapes: [Shape]) -> [Shape] {
            shapes.filter { if case .glow(let center, _, _, _) = $0 { return center.x == (span.left + span.right) / 2 } else { return false } }
        }
        let made = onC4(over)
        #expect(layer.allSatisfy { if case .glow = $0 { return false } else { return true } })
        var stack = GlowBudget.Stack()
        let lastThree = glowsOnC4(crowded: false).made.suffix(GlowBudget.perCentre)
        for case .glow(_, _, _, let color) in lastThree { stack.add(color) }
        try #require(lastThree.count == GlowBudget.perCentre)
        guard case .glow(let center, let radius, let hole, _) = lastThree.last else {
            Issue.record("C4's last shape is not a glow")
            return
        }
        #expect(made == [.glow(center: center, radius: radius, hole: hole, stack.color)])
        var budget = GlowBudget()
        budget.limit(&over)
        #expect(onC4(over) == made)
    }
}
