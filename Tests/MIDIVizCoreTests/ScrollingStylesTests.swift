import Testing

@testable import MIDIVizCore

/// The roll and keyboard styles: where notes are at their start, and where the grid lies.
@Suite(.timeLimit(.minutes(30))) struct ScrollingStylesTests {
    /// C4 from 1 s to 2 s and E4 from 1.5 s to 1.75 s, at 120 bpm 4/4 until tick 768 (4 s),
    /// then 3/4 at 90 bpm: bars at 0, 2, 4 and 6 s, as in fixtures/tempo-map.mid.
    func song() -> Song {
        let notes = [
            Note(startSeconds: 1, endSeconds: 2, pitch: 60, velocity: 100, channel: 0, track: 0),
            Note(startSeconds: 1.5, endSeconds: 1.75, pitch: 64, velocity: 100, channel: 0, track: 0),
        ]
        return Song(
            format: 0, division: .ticksPerQuarter(96), endTick: 1344, durationSeconds: 8,
            tracks: [TrackSummary(name: "piano", noteCount: 2, channels: [0], programs: [])], notes: notes,
            tempoChanges: [TempoChange(seconds: 0, tick: 0, beatsPerMinute: 120), TempoChange(seconds: 4, tick: 768, beatsPerMinute: 90)],
            timeSignatures: [
                TimeSignature(seconds: 0, tick: 0, numerator: 4, denominator: 4),
                TimeSignature(seconds: 4, tick: 768, numerator: 3, denominator: 4),
            ],
            keySignatures: [], synthEvents: [], warnings: [])
    }

    /// `song()` with G4 beside E4: C major from 1.5 s to 1.75 s.
    func triad() -> Song {
        var song = song()
        song.notes.append(Note(startSeconds: 1.5, endSeconds: 1.75, pitch: 67, velocity: 100, channel: 0, track: 0))
        song.notes.sort { $0.startSeconds < $1.startSeconds }
        return song
    }

    func settings(_ style: RenderSettings.Style) -> RenderSettings {
        var settings = RenderSettings.forTesting
        settings.style = style
        return settings
    }

    func roundedRects(_ scene: Scene, frame: Int) -> [Rect] {
        var shapes: [Shape] = []
        scene.makeShapes(ofFrame: frame, into: &shapes)
        return shapes.compactMap { if case .roundedRect(let rect, _, _, _) = $0 { return rect } else { return nil } }
    }

    @Test func gridLinesSitAtTheTempoMapsBeatsAcrossTempoAndMeterChanges() {
        let song = song()
        let grid = BeatGrid(song: song, until: 8)
        let bars = grid.lines.filter(\.isBarStart)
        #expect(bars.map(\.seconds) == [0, 2, 4, 6, 8])
        #expect(bars.map(\.bar) == [1, 2, 3, 4, 5])
        for number in 1...4 { #expect(song.startSeconds(ofBar: number) == bars[number - 1].seconds) }
        #expect(grid.lines.filter { $0.bar == 1 }.count == 4 && grid.lines.filter { $0.bar == 3 }.count == 3, "4/4, then 3/4")
        for line in grid.lines {
            #expect(abs(line.seconds - song.seconds(atTick: line.tick)) < 1e-9, "each line from its tick")
        }
        let beatsInBar3 = grid.lines.filter { $0.bar == 3 }.map(\.seconds)
        #expect(zip(beatsInBar3, [4, 4 + 2.0 / 3, 4 + 4.0 / 3]).allSatisfy { abs($0 - $1) < 1e-9 }, "beats of 2/3 s at 90 bpm")
        var found: [Double] = []
        grid.forEachLine(in: 3.9...6.1) { found.append($0.seconds) }
        #expect(found.count == 4 && found.first == 4 && found.last == 6)
    }

    @Test func compoundMetersBeatInDottedQuarters() {
        var song = song()
        song.tempoChanges = [TempoChange(seconds: 0, tick: 0, beatsPerMinute: 120)]
        song.timeSignatures = [TimeSignature(seconds: 0, tick: 0, numerator: 6, denominator: 8)]
        let bar1 = BeatGrid(song: song, until: 10).lines.filter { $0.bar == 1 }
        #expect(bar1.map(\.tick) == [0, 144], "6/8: two beats of three eighths (96 ticks a quarter)")
    }

    @Test func rollPlayheadCrossesANotesLeftEdgeAtItsStart() {
        let scene = Scene(song: song(), settings: settings(.roll))
        let layout = RollLayout(scene: scene)
        #expect(layout.noteRect(scene.song.notes[0], now: 1).minX == layout.playheadX)
        // From the drawn shapes: at frame 30 (1 s) one bar starts at the playhead; its row is C4's.
        let atStart = roundedRects(scene, frame: 30)
        let c4 = atStart.filter { abs($0.minX - layout.playheadX) <= 1 }
        #expect(c4.count == 1)
        #expect(abs(c4[0].minY - layout.rowTop(60)) <= 1)
        #expect(abs(c4[0].width - layout.pixelsPerSecond) <= 1, "a one-second note is one second long")
        // A frame earlier it is still to the right of the playhead, by one frame of scrolling.
        let before = roundedRects(scene, frame: 29).filter { abs($0.minY - c4[0].minY) < 0.5 }
        #expect(before.count == 1 && abs(before[0].minX - layout.playheadX - layout.pixelsPerSecond / 30) < 0.01)
    }

    @Test func rollBarLinesScrollWithTheTempoMap() {
        let scene = Scene(song: song(), settings: settings(.roll))
        let layout = RollLayout(scene: scene)
        for time in [0.0, 3.0, 4.5, 5.9] {
            var shapes: [Shape] = []
            scene.makeShapes(at: time, into: &shapes)
            let barXs = shapes.compactMap { shape -> Float? in
                if case .line(let from, _, 1.5, _) = shape { return from.x } else { return nil }
            }
            let expected = stride(from: 0.0, through: 16, by: 2).map { layout.x(of: $0, now: time).rounded() }.filter { $0 >= layout.notesLeft && $0 < 480 }
            #expect(barXs == expected, "t = \(time)")
        }
    }

    @Test func rollKeyLightsWhileItsNoteSounds() {
        let scene = Scene(song: song(), settings: settings(.roll))
        var quiet: [Shape] = [], sounding: [Shape] = []
        scene.makeShapes(at: 0.5, into: &quiet)
        scene.makeShapes(at: 1.2, into: &sounding)
        let keyColor = scene.colors.color(of: scene.song.notes[0])
        let lit = KeyShading.colors(black: false, lit: keyColor).face
        #expect(!quiet.contains { if case .rect(_, lit) = $0 { return true } else { return false } })
        #expect(sounding.contains { if case .rect(_, lit) = $0 { return true } else { return false } })
    }

    @Test func keyboardNoteTouchesTheKeysAtItsStartFrame() throws {
        for keys in RenderSettings.KeyRange.allCases {
            var settings = settings(.keyboard)
            settings.keys = keys
            let scene = Scene(song: song(), settings: settings)
            let layout = KeyboardLayout(scene: scene)
            let span = layout.keySpan(60)
            func c4(_ frame: Int) -> Rect? {
                roundedRects(scene, frame: frame).first { $0.minX > span.left && $0.maxX < span.right && $0.maxY <= layout.keysTop + 0.5 }
            }
            let atStart = try #require(c4(30))
            #expect(abs(atStart.maxY - layout.keysTop) <= 1, "bottom edge on the keys at 1 s (\(keys))")
            let before = try #require(c4(29))
            #expect(layout.keysTop - before.maxY > 1, "still falling a frame earlier")
            #expect(abs(layout.keysTop - before.maxY - layout.pixelsPerSecond / 30) < 0.01)
            // Its top edge reaches the keys when it ends (less the gap that parts repeated notes).
            #expect(abs(layout.noteRect(scene.song.notes[0], now: 2).minY - layout.keysTop) <= 2)
        }
    }

    @Test func keyboardKeyRanges() {
        var settings = settings(.keyboard)
        #expect(KeyboardLayout(scene: Scene(song: song(), settings: settings)).keys == 21...108)
        settings.keys = .song
        #expect(KeyboardLayout(scene: Scene(song: song(), settings: settings)).keys == 60...83, "C4–E4 widened to two whole octaves")
    }

    @Test func windowSetsTheVisibleTime() {
        var settings = settings(.roll)
        settings.window = 4
        let layout = RollLayout(scene: Scene(song: song(), settings: settings))
        // Within 10 %, to move notes by whole pixels a frame; the rows span what is on screen.
        #expect(abs(layout.pixelsPerSecond * 4 - (480 - layout.notesLeft)) <= 0.1 * (480 - layout.notesLeft))
        let onScreen = RollLayout.onScreenSeconds(settings: settings)
        #expect(abs(Double(layout.pixelsPerSecond) * onScreen - Double(480 - layout.notesLeft)) < 1e-3)
        #expect(RollLayout.pixelsPerFrame(settings: settings) == (RollLayout.pixelsPerFrame(settings: settings)).rounded())
        settings.window = nil
        settings.speed = 2
        #expect(settings.windowSeconds == 4, "8 s over speed 2")
        settings.style = .keyboard
        settings.window = 2
        let keyboard = KeyboardLayout(scene: Scene(song: song(), settings: settings))
        #expect(abs(keyboard.pixelsPerSecond * 2 - keyboard.keysTop) < 1e-3)
    }

    @Test func titleLegendAndChordAreDrawnOnTop() throws {
        var settings = settings(.keyboard)
        settings.title = "  My Song \u{0}"
        settings.chords = true
        settings.colorBy = .track
        let scene = Scene(song: triad(), settings: settings)
        var shapes: [Shape] = []
        scene.makeShapes(at: 1.6, into: &shapes)
        let labels = texts(shapes, in: scene.store)
        #expect(labels.contains("My Song"))
        #expect(labels.contains("piano"), "the legend names the track")
        // The chord's label is the stored symbol, not a note name that reads the same.
        let chord = try #require(scene.store.label(of: Array("C".utf8)))
        #expect(shapes.contains { if case .text(chord, .display, _, _, _) = $0 { return true } else { return false } })
        scene.makeShapes(at: 1.2, into: &shapes)
        #expect(!shapes.contains { if case .text(chord, _, _, _, _) = $0 { return true } else { return false } }, "one pitch: no chord")
    }

    /// The texts of `shapes`, their stored bytes read from `store`.
    func texts(_ shapes: [Shape], in store: ShapeStore) -> [String] {
        shapes.compactMap { if case .text(let label, _, _, _, _) = $0 { return String(decoding: label.bytes(in: store), as: UTF8.self) } else { return nil } }
    }

    @Test func aLongLegendEndsWithHowManyMore() {
        var settings = settings(.circles)
        settings.colorBy = .track
        var song = song()
        song.tracks = (0..<30).map { TrackSummary(name: "Part \($0 + 1)", noteCount: 1, channels: [0], programs: []) }
        song.notes = (0..<30).map { Note(startSeconds: 1, endSeconds: 2, pitch: UInt8(40 + $0), velocity: 90, channel: 0, track: $0) }
        var shapes: [Shape] = []
        let scene = Scene(song: song, settings: settings)
        scene.makeShapes(at: 1.5, into: &shapes)
        let labels = texts(shapes, in: scene.store)
        let parts = labels.filter { $0.hasPrefix("Part ") }
        #expect(parts.count >= 5 && parts.count < 30, "as many as fit in 60 % of the height: \(parts.count)")
        #expect(parts == (1...parts.count).map { "Part \($0)" })
        #expect(labels.last == "+\(30 - parts.count) more")
    }

    func oneNote(_ pitch: UInt8, start: Double = 1, length: Double = 1) -> Song {
        var song = song()
        song.notes = [Note(startSeconds: start, endSeconds: start + length, pitch: pitch, velocity: 100, channel: 0, track: 0)]
        return song
    }

    @Test func veryShortNotesStayVisibleInAWideWindow() {
        // A 1-ms note in a 60-s window: 0.04 s would be a third of a pixel.
        var settings = settings(.roll)
        settings.window = 60
        let roll = Scene(song: oneNote(60, length: 0.001), settings: settings)
        let rollLayout = RollLayout(scene: roll)
        #expect(rollLayout.noteRect(roll.song.notes[0], now: 1).width >= RollLayout.narrowestNotePixels)
        // Its left edge 1.5 px past the keyboard: still 1.5 px of it on screen, and drawn, its
        // part under the keys hidden.
        let past = 60 * RollLayout.playheadPosition
        let later = 1 + past + Double(1.5 / rollLayout.pixelsPerSecond)
        var shapes: [Shape] = []
        roll.makeShapes(at: later, into: &shapes)
        #expect(
            shapes.contains {
                guard case .partlyHiddenRoundedRect(let rect, _, _, _, let hidden) = $0 else { return false }
                return rect.minX < rollLayout.notesLeft && rect.maxX - rollLayout.notesLeft >= 1
                    && hidden.columns.upperBound == Int32(rollLayout.notesLeft)
            })

        settings.style = .keyboard
        let keyboard = Scene(song: oneNote(60, length: 0.001), settings: settings)
        let keyboardLayout = KeyboardLayout(scene: keyboard)
        #expect(keyboardLayout.noteRect(keyboard.song.notes[0], now: 0.5).height >= 3)
        // Half-way into the keys, after the 0.35-s impact glow: still drawn above them.
        let sinking = 1 + Double(2 / keyboardLayout.pixelsPerSecond)
        #expect(sinking > 1 + KeyboardLayout.impactSeconds)
        keyboard.makeShapes(at: sinking, into: &shapes)
        #expect(shapes.contains { if case .roundedRect(let rect, _, _, _) = $0 { return rect.maxY == keyboardLayout.keysTop } else { return false } })
    }

    @Test func songKeysAreAtLeastTwoWholeOctavesEverywhere() {
        for (low, high, expected) in [(60, 64, 60...83), (0, 0, 0...23), (120, 127, 96...127), (127, 127, 96...127), (40, 90, 36...95)] {
            let keys = KeyboardLayout.keys(.song, notePitches: low...high)
            #expect(keys == expected, "\(low)...\(high)")
            #expect(keys.count >= 24 && keys.lowerBound % 12 == 0)
        }
    }

    @Test func theRollsKeyboardFillsItsRowsToBothEnds() {
        // One C#4: rows C#3...C#5, black keys at both ends.
        let scene = Scene(song: oneNote(61), settings: settings(.roll))
        let layout = RollLayout(scene: scene)
        #expect(scene.pitchRange == 49...73)
        var shapes: [Shape] = []
        layout.appendBackdrop(to: &shapes)
        // Down a column through the white keys (right of the black keys), keys cover the rows
        // with gaps of at most a pixel between them.
        let x = layout.keyboardWidth * 0.8
        let spans = shapes.compactMap { shape -> (Float, Float)? in
            guard case .rect(let rect, let color) = shape, color != KeyShading.bed, rect.minX <= x, rect.maxX > x, rect.maxX <= layout.keyboardWidth else {
                return nil
            }
            return (rect.minY, rect.maxY)
        }.sorted { $0.0 < $1.0 }
        #expect(abs(spans.first!.0 - layout.notesTop) < 0.01)
        #expect(layout.notesBottom - spans.map(\.1).max()! <= 1.01)
        var reach = spans[0].1
        for span in spans.dropFirst() {
            #expect(span.0 - reach <= 1.01, "a gap above y = \(reach)")
            reach = max(reach, span.1)
        }
    }

    @Test func octaveNamesStayOnLitKeys() {
        for style in [RenderSettings.Style.roll, .keyboard] {
            var settings = settings(style)
            settings.width = 1280
            settings.height = 720
            let scene = Scene(song: oneNote(60), settings: settings)
            var shapes: [Shape] = []
            scene.makeShapes(at: 1.5, into: &shapes)
            let label = shapes.lastIndex { if case .text(.noteName(60), _, _, _, _) = $0 { return true } else { return false } }
            let litKey = shapes.lastIndex { shape in
                switch shape {
                case .rect(_, let color): return color == KeyShading.colors(black: false, lit: scene.colors.color(of: scene.song.notes[0])).face
                case .roundedRect(_, _, let top, _): return top == KeyShading.colors(black: false, lit: scene.colors.color(of: scene.song.notes[0])).top
                default: return false
                }
            }
            #expect(litKey != nil && label != nil && label! > litKey!, "\(style): C4 is named over its lit key")
        }
    }

    @Test func theOverlayIsDrawnLast() {
        for style in RenderSettings.Style.allCases {
            var settings = settings(style)
            settings.title = "Title"
            settings.chords = true
            let scene = Scene(song: triad(), settings: settings)
            var shapes: [Shape] = []
            scene.makeShapes(at: 1.6, into: &shapes)
            let labels = shapes.map {
                if case .text(let label, _, _, _, _) = $0 { return String(decoding: label.bytes(in: scene.store), as: UTF8.self) } else { return "" }
            }
            let title = labels.firstIndex(of: "Title")
            let chordLabel = scene.store.label(of: Array("C".utf8))
            let chord = shapes.firstIndex { if case .text(let label, .display, _, _, _) = $0 { return label == chordLabel } else { return false } }
            // Without a legend the overlay is the title and the chord, each over its shadow: the
            // last four shapes.
            #expect(title == shapes.count - 4 && chord == shapes.count - 2, "\(style)")
            #expect(shapes.suffix(4).allSatisfy { if case .text = $0 { return true } else { return false } })
        }
    }

    @Test(arguments: [RenderSettings.Style.roll, .keyboard])
    func unusualSongsRender(style: RenderSettings.Style) {
        var songs: [Song] = []
        var empty = song()
        empty.notes = []
        songs.append(empty)
        var drumsOnly = song()
        drumsOnly.notes = [Note(startSeconds: 1, endSeconds: 1.1, pitch: 36, velocity: 100, channel: 9, track: 0)]
        songs.append(drumsOnly)
        var extremes = song()
        extremes.notes = [
            Note(startSeconds: 1, endSeconds: 2, pitch: 0, velocity: 100, channel: 0, track: 0),
            Note(startSeconds: 1, endSeconds: 2, pitch: 127, velocity: 100, channel: 0, track: 0),
        ]
        songs.append(extremes)
        var smpte = song()
        smpte.division = .smpte(framesPerSecond: 25, ticksPerFrame: 40)
        smpte.tempoChanges = []
        smpte.timeSignatures = []
        songs.append(smpte)
        for (number, song) in songs.enumerated() {
            for keys in RenderSettings.KeyRange.allCases {
                var settings = settings(style)
                settings.keys = keys
                settings.chords = true
                let renderer = FrameRenderer(scene: Scene(song: song, settings: settings), fonts: .empty(canvasSide: 270))
                var workspace = renderer.makeWorkspace()
                renderer.render(at: 1.05, in: &workspace)
                let backdrop = workspace.canvas[240, 5]
                var differs = false
                for y in stride(from: 0, to: 270, by: 3) where !differs {
                    for x in stride(from: 0, to: 480, by: 3) where workspace.canvas[x, y] != backdrop { differs = true }
                }
                #expect(differs, "song \(number), \(keys): a frame with keys or notes")
            }
        }
        // SMPTE files have no grid.
        #expect(Scene(song: smpte, settings: settings(style)).beatGrid.lines.isEmpty)
    }
}
