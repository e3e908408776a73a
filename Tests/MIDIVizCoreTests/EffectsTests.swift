import Testing

@testable import MIDIVizCore

@Suite(.timeLimit(.minutes(30))) struct EffectsTests {
    /// A chord of three notes at 1 s and one note at 3 s, each half a second long.
    func song() -> Song {
        let notes =
            [60, 64, 67].map { Note(startSeconds: 1, endSeconds: 1.5, pitch: UInt8($0), velocity: 110, channel: 0, track: 0) }
            + [Note(startSeconds: 3, endSeconds: 3.5, pitch: 72, velocity: 60, channel: 0, track: 0)]
        return Song(
            format: 0, division: .ticksPerQuarter(96), endTick: 960, durationSeconds: 5,
            tracks: [TrackSummary(name: nil, noteCount: notes.count, channels: [0], programs: [])], notes: notes, tempoChanges: [],
            timeSignatures: [], keySignatures: [], synthEvents: [], warnings: [])
    }

    func shapes(_ style: RenderSettings.Style, effects: Bool, at seconds: Double, song: Song? = nil) -> [Shape] {
        var settings = RenderSettings(width: 640, height: 360, framesPerSecond: 30, style: style)
        settings.effects = effects
        var shapes: [Shape] = []
        Scene(song: song ?? self.song(), settings: settings).makeShapes(at: seconds, into: &shapes)
        return shapes
    }

    func lines(_ shapes: [Shape]) -> [(from: Point, to: Point)] {
        shapes.compactMap { if case .line(let from, let to, _, _) = $0, from.x != to.x, from.y != to.y { return (from, to) } else { return nil } }
    }

    /// Effects live only just after a note starts: at other times frames are as without them.
    @Test(arguments: RenderSettings.Style.allCases)
    func effectsAppearOnlyAfterANoteStrikes(style: RenderSettings.Style) {
        for seconds in [0.5, 1.0 + Sparks.lifeSeconds + 0.01, 2.5, 3.0 + Sparks.lifeSeconds + 0.05] {
            #expect(shapes(style, effects: true, at: seconds) == shapes(style, effects: false, at: seconds), "\(style) at \(seconds) s")
        }
        for seconds in [1.05, 1.3, 3.1] {
            #expect(shapes(style, effects: true, at: seconds) != shapes(style, effects: false, at: seconds), "\(style) at \(seconds) s")
        }
    }

    /// A note's sparks depend on that note alone (where they start follows the layout, which
    /// depends on the song's range; how they fly does not).
    @Test(arguments: RenderSettings.Style.allCases)
    func sparksAreSeededFromTheNote(style: RenderSettings.Style) {
        var alone = song()
        alone.notes = [alone.notes[3]]
        // To a hundredth of a pixel: positions differ by a float's rounding.
        let flight: ((from: Point, to: Point)) -> String = { "\(Int(($0.to.x - $0.from.x) * 100)) \(Int(($0.to.y - $0.from.y) * 100))" }
        let inSong = lines(shapes(style, effects: true, at: 3.1)).map(flight)
        let single = lines(shapes(style, effects: true, at: 3.1, song: alone)).map(flight)
        #expect(!single.isEmpty)
        #expect(Set(single).isSubset(of: Set(inSong)))
        // Different notes throw different sparks.
        let chord = lines(shapes(style, effects: true, at: 1.1))
        #expect(Set(chord.map { "\($0.to.x - $0.from.x)" }).count > 3)
    }

    @Test func keyboardSparksFlyUpFromWhereTheNoteLands() {
        let settings = RenderSettings(width: 640, height: 360, framesPerSecond: 30, style: .keyboard)
        let layout = KeyboardLayout(scene: Scene(song: song(), settings: settings))
        let sparks = lines(shapes(.keyboard, effects: true, at: 3.02))
        let key = layout.keySpan(72)
        #expect(!sparks.isEmpty)
        for spark in sparks {
            // 20 ms after the strike every spark is still near the key's top, above it.
            #expect(abs(spark.from.x - (key.left + key.right) / 2) < 20)
            #expect(spark.to.y < layout.keysTop && spark.to.y > layout.keysTop - 30)
        }
    }

    @Test func theRollsPlayheadFlashesAsANoteStarts() {
        let flash: (Double) -> Int = { seconds in
            self.shapes(.roll, effects: true, at: seconds).filter {
                if case .line(let from, let to, let width, let color) = $0 { return from.x == to.x && width == 3 && color.r == 1 && color.a > 0 }
                return false
            }.count
        }
        #expect(flash(1.0) == 3 && flash(1.1) == 3)
        #expect(flash(1.0 + RollLayout.flashSeconds + 0.01) == 0 && flash(0.99) == 0)
    }

    @Test func aDenseMomentDrawsABoundedNumberOfSparks() {
        var dense = song()
        dense.notes = (0..<400).map {
            Note(startSeconds: 1 + Double($0) / 4000, endSeconds: 2, pitch: UInt8(21 + $0 % 88), velocity: 127, channel: 0, track: $0 % 3)
        }
        for style in RenderSettings.Style.allCases {
            let count = lines(shapes(style, effects: true, at: 1.2, song: dense)).count
            #expect(count > 0 && count <= Sparks.mostSparksPerFrame + 2 * Sparks.mostNotesPerFrame, "\(style): \(count)")
        }
    }
}
