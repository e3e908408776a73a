import Foundation
import MIDIVizIO
import Testing

@testable import MIDIVizCore

/// The picture follows what the synthesizer hears: under the sustain pedal, an organ's C4
/// released at 0.5 s sounds until the pedal lifts at 2 s, and stops then.
@Suite(
    .needsSmallSoundFont,
    .timeLimit(.minutes(30)))
struct PedalSoundTests {
    func bounce(pedal: Bool) throws -> [Float] {
        var events = [
            TimedMessage(seconds: 0, bytes: [0xC0, 19]), TimedMessage(seconds: 0, bytes: [0x90, 60, 100]),
            TimedMessage(seconds: 0.5, bytes: [0x80, 60, 0]),
        ]
        if pedal {
            events.insert(contentsOf: [TimedMessage(seconds: 0.2, bytes: [0xB0, 64, 127])], at: 2);
            events.append(TimedMessage(seconds: 2, bytes: [0xB0, 64, 0]))
        }
        let song = Song(
            format: 0, division: .ticksPerQuarter(96), endTick: 576, durationSeconds: 3,
            tracks: [TrackSummary(name: nil, noteCount: 1, channels: [0], programs: [19])],
            notes: [Note(startSeconds: 0, endSeconds: 0.5, pitch: 60, velocity: 100, channel: 0, track: 0, program: 19)],
            tempoChanges: [TempoChange(seconds: 0, tick: 0, beatsPerMinute: 120)], timeSignatures: [], keySignatures: [],
            synthEvents: events, warnings: [])
        var bouncer = AudioBouncer()
        bouncer.reverb = false
        bouncer.chorus = false
        return try EngineTestSupport.bounceLeft(song, with: bouncer)
    }

    func rms(_ samples: [Float], _ from: Double, _ to: Double) -> Double { EngineTestSupport.rms(samples, from, to) }

    @Test func theSoundDecaysAtThePedalsLiftNotAtTheNoteOff() throws {
        let held = try bounce(pedal: true), plain = try bounce(pedal: false)
        let playing = rms(held, 0.1, 0.4)
        #expect(playing > 0.01)
        #expect(rms(held, 1.0, 1.9) > 0.5 * playing, "held by the pedal after the note-off")
        #expect(rms(plain, 1.0, 1.9) < 0.05 * playing, "without it, gone")
        #expect(rms(held, 2.4, 2.9) < 0.05 * playing, "gone after the pedal lifts")
        // And the picture's model says the same.
        let scene = SustainPedal(events: [TimedMessage(seconds: 0.2, bytes: [0xB0, 64, 127]), TimedMessage(seconds: 2, bytes: [0xB0, 64, 0])], songEnd: 3)
        #expect(scene.soundingEnds(of: [Note(startSeconds: 0, endSeconds: 0.5, pitch: 60, velocity: 100, channel: 0, track: 0)], drumChannel: 9) == [2])
    }
}
