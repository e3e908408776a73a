import Testing

@testable import MIDIVizCore

/// The pedals as the synthesizer hears them, and what the styles draw for them.
@Suite(.timeLimit(.minutes(30))) struct SustainPedalTests {
    static func cc(_ seconds: Double, _ controller: UInt8, _ value: UInt8, channel: UInt8 = 0) -> TimedMessage {
        TimedMessage(seconds: seconds, bytes: [0xB0 | channel, controller, value])
    }

    static func note(_ start: Double, _ end: Double, _ pitch: UInt8 = 60, channel: UInt8 = 0) -> Note {
        Note(startSeconds: start, endSeconds: end, pitch: pitch, velocity: 100, channel: channel, track: 0)
    }

    @Test func aNoteReleasedUnderTheSustainPedalSoundsUntilItLifts() {
        let pedal = SustainPedal(events: [Self.cc(0.2, 64, 127), Self.cc(2.0, 64, 0)], songEnd: 3)
        let notes = [Self.note(0, 0.5), Self.note(2.5, 2.8, 62), Self.note(0.1, 0.15, 64, channel: 1), Self.note(1.0, 2.5, 65)]
        let ends = pedal.soundingEnds(of: notes, drumChannel: 9)
        #expect(ends == [2.0, 2.8, 0.15, 2.5], "held to the lift; after it as it is; another channel's pedal; released after the lift")
    }

    @Test func aStruckAgainKeyEndsTheSustainedOne() {
        let pedal = SustainPedal(events: [Self.cc(0, 64, 100), Self.cc(4, 64, 0)], songEnd: 5)
        let notes = [Self.note(0, 0.5), Self.note(1.0, 1.2), Self.note(0.5, 0.6, 67)]
        #expect(pedal.soundingEnds(of: notes, drumChannel: 9) == [1.0, 4.0, 4.0])
    }

    @Test func sostenutoHoldsOnlyTheNotesDownWhenItWentDown() {
        let pedal = SustainPedal(events: [Self.cc(0.5, 66, 127), Self.cc(3, 66, 0)], songEnd: 4)
        let notes = [Self.note(0, 1), Self.note(0.8, 1.2, 62)]
        #expect(pedal.soundingEnds(of: notes, drumChannel: 9) == [3, 1.2])
    }

    @Test func aPedalNeverLiftedHoldsToTheSongsEndAndNoPedalChangesNothing() {
        let pedal = SustainPedal(events: [Self.cc(0, 64, 127)], songEnd: 6)
        #expect(pedal.soundingEnds(of: [Self.note(0, 1)], drumChannel: 9) == [6])
        #expect(SustainPedal(events: [Self.cc(0, 7, 100)], songEnd: 6).soundingEnds(of: [Self.note(0, 1)], drumChannel: 9) == nil)
        let drums = SustainPedal(events: [Self.cc(0, 64, 127, channel: 9)], songEnd: 6)
        #expect(drums.soundingEnds(of: [Self.note(0, 0.1, 36, channel: 9)], drumChannel: 9) == [0.1])
    }

    /// C4 from 0 to 0.5 s, the pedal down from 0.2 s to 2 s; and the same song without it.
    static func songs() -> (pedal: Song, plain: Song) {
        let plain = Song(
            format: 0, division: .ticksPerQuarter(96), endTick: 576, durationSeconds: 3,
            tracks: [TrackSummary(name: nil, noteCount: 1, channels: [0], programs: [])], notes: [note(0, 0.5)],
            tempoChanges: [TempoChange(seconds: 0, tick: 0, beatsPerMinute: 120)], timeSignatures: [], keySignatures: [],
            synthEvents: [TimedMessage(seconds: 0, bytes: [0x90, 60, 100]), TimedMessage(seconds: 0.5, bytes: [0x80, 60, 0])],
            warnings: [])
        var pedal = plain
        pedal.synthEvents = [pedal.synthEvents[0], cc(0.2, 64, 127), pedal.synthEvents[1], cc(2.0, 64, 0)]
        return (pedal, plain)
    }

    func frame(_ song: Song, _ style: RenderSettings.Style, at seconds: Double) -> Canvas {
        var settings = RenderSettings.forTesting
        settings.style = style
        let renderer = FrameRenderer(scene: Scene(song: song, settings: settings), fonts: .empty(canvasSide: 270))
        var workspace = renderer.makeWorkspace()
        renderer.render(at: seconds, in: &workspace)
        return workspace.canvas
    }

    /// Keyboard and roll: after the release the key stays lit (and the note's tail and the
    /// pedal lane show) until the pedal lifts, within a frame, and not after.
    @Test(arguments: [RenderSettings.Style.keyboard, .roll])
    func theKeyStaysLitUntilThePedalLifts(style: RenderSettings.Style) {
        let (pedal, plain) = Self.songs()
        #expect(frame(pedal, style, at: 0.3).pixels != frame(plain, style, at: 0.3).pixels, "the pedal lane or felt shows it down")
        #expect(frame(pedal, style, at: 1.2).pixels != frame(plain, style, at: 1.2).pixels, "released, still sounding")
        if style == .keyboard {
            // 1/30 s after the lift nothing of it is left.
            #expect(frame(pedal, style, at: 2.0 + 1.0 / 30).pixels == frame(plain, style, at: 2.0 + 1.0 / 30).pixels)
        }
        // The key's colour: lit (dimmer) at 1.2 s, as at rest after the lift.
        let settings: RenderSettings = {
            var s = RenderSettings.forTesting; s.style = style; return s
        }()
        let rest = frame(plain, style, at: 2.5)
        let lit = frame(pedal, style, at: 1.2)
        let litAfter = frame(pedal, style, at: 2.0 + 1.0 / 30)
        let keyPoint: (x: Int, y: Int)
        if style == .keyboard {
            let layout = KeyboardLayout(scene: Scene(song: pedal, settings: settings))
            let span = layout.keySpan(60)
            keyPoint = (Int((span.left + span.right) / 2), Int(layout.keysTop + layout.whiteKeyLength * 0.8))
        } else {
            let layout = RollLayout(scene: Scene(song: pedal, settings: settings))
            keyPoint = (Int(layout.notesLeft * 0.3), Int(layout.rowTop(60) + layout.rowHeight / 2))
        }
        #expect(lit[keyPoint.x, keyPoint.y] != rest[keyPoint.x, keyPoint.y], "lit while the pedal holds it")
        #expect(litAfter[keyPoint.x, keyPoint.y] == rest[keyPoint.x, keyPoint.y], "at rest once it lifts")
    }

    /// Circles and bars keep the released note's shape, unfaded, while the pedal holds it.
    @Test(arguments: [RenderSettings.Style.circles, .bars])
    func shapesLiveWhileTheNoteSounds(style: RenderSettings.Style) {
        let (pedal, plain) = Self.songs()
        let empty = frame(plain, style, at: 2.9)
        #expect(frame(plain, style, at: 1.9).pixels == empty.pixels, "without the pedal it has faded by 1.9 s")
        #expect(frame(pedal, style, at: 1.9).pixels != empty.pixels, "with it, still there")
        #expect(frame(pedal, style, at: 1.9).pixels == frame(pedal, style, at: 1.0).pixels, "and not fading before the lift")
        #expect(frame(pedal, style, at: 2.0 + RenderSettings.baseFadeSeconds + 0.05).pixels == empty.pixels, "gone a fade after it")
    }
}
