import Testing

@testable import MIDIVizCore

/// `--velocity`: a loud note shows more than a soft one, by more than without the option, in
/// every style that draws notes (`sheet` draws the engraved score, where velocity has no place).
@Suite(.timeLimit(.minutes(30))) struct VelocityTests {
    /// One note of `velocity` on E4 from `start` to `start + 1` s, in a song of 60 s.
    func song(velocity: UInt8, start: Double) -> Song {
        let notes = [Note(startSeconds: start, endSeconds: start + 1, pitch: 64, velocity: velocity, channel: 0, track: 0)]
        return Song(
            format: 0, division: .ticksPerQuarter(96), endTick: 96, durationSeconds: 60,
            tracks: [TrackSummary(name: nil, noteCount: 1, channels: [0], programs: [])],
            notes: notes, tempoChanges: [], timeSignatures: [], keySignatures: [], synthEvents: [], warnings: [])
    }

    /// How much light the note adds to its frame at 1.5 s: the sum of its pixels' luma over the
    /// same frame without it (the note far later).
    func ink(velocity: UInt8, style: RenderSettings.Style, shown: Bool) -> Float {
        var settings = RenderSettings.forTesting
        settings.style = style
        settings.velocity = shown
        func canvas(_ song: Song) -> Canvas {
            let renderer = FrameRenderer(scene: Scene(song: song, settings: settings), fonts: .empty(canvasSide: settings.textSide))
            var workspace = renderer.makeWorkspace()
            renderer.render(at: 1.5, in: &workspace)
            return workspace.canvas
        }
        let with = canvas(song(velocity: velocity, start: 1)), without = canvas(song(velocity: velocity, start: 50))
        var sum: Float = 0
        for y in 0..<with.height {
            for x in 0..<with.width { sum += max(0, with.color(x: x, y: y).luma - without.color(x: x, y: y).luma) }
        }
        return sum
    }

    @Test(arguments: RenderSettings.Style.allCases.filter { $0.rawValue != "sheet" })
    func aLoudNoteShowsMoreThanASoftOne(style: RenderSettings.Style) {
        let soft = ink(velocity: 20, style: style, shown: true), loud = ink(velocity: 120, style: style, shown: true)
        let plainSoft = ink(velocity: 20, style: style, shown: false), plainLoud = ink(velocity: 120, style: style, shown: false)
        #expect(soft > 0 && loud > soft * 1.5, "\(style): soft \(soft), loud \(loud)")
        #expect(loud / soft > plainLoud / plainSoft * 1.2, "\(style): --velocity widens the difference (\(loud / soft) vs \(plainLoud / plainSoft))")
    }
}
