import Foundation
import MIDIVizEngine
import MIDIVizIO
import Testing

@testable import MIDIVizCore

/// `--polyphony`: the synthesizer plays at most that many voices at once.
@Suite(
    .needsSmallSoundFont,
    .timeLimit(.minutes(30)))
struct PolyphonyTests {
    /// An organ cluster of 48 keys struck together and held 2 s, bounced with `polyphony` voices
    /// (through the options, as `render --polyphony` makes them): the left channel.
    func cluster(polyphony: Int) throws -> [Float] {
        let pitches = UInt8(36)..<UInt8(84)
        var events = [TimedMessage(seconds: 0, bytes: [0xC0, 19])]
        events += pitches.map { TimedMessage(seconds: 0, bytes: [0x90, $0, 100]) }
        events += pitches.map { TimedMessage(seconds: 2, bytes: [0x80, $0, 0]) }
        let song = Song(
            format: 0, division: .ticksPerQuarter(96), endTick: 576, durationSeconds: 3,
            tracks: [TrackSummary(name: nil, noteCount: pitches.count, channels: [0], programs: [19])],
            notes: pitches.map { Note(startSeconds: 0, endSeconds: 2, pitch: $0, velocity: 100, channel: 0, track: 0, program: 19) },
            tempoChanges: [TempoChange(seconds: 0, tick: 0, beatsPerMinute: 120)], timeSignatures: [], keySignatures: [],
            synthEvents: events, warnings: [])
        var options = RenderOptions()
        options.polyphony = polyphony
        options.noReverb = true
        options.noChorus = true
        return try EngineTestSupport.bounceLeft(song, with: options.bouncer)
    }

    @Test func fewerVoicesPlayFewerOfTheClustersKeys() throws {
        let full = try cluster(polyphony: 256), few = try cluster(polyphony: 8)
        let fullLevel = EngineTestSupport.rms(full, 0.5, 1.5), fewLevel = EngineTestSupport.rms(few, 0.5, 1.5)
        #expect(fullLevel > 0.02, "the 48 keys sound")
        // Eight voices hold at most eight of the 48 keys: far quieter, but sounding.
        #expect(fewLevel < 0.6 * fullLevel, "\(fewLevel) against \(fullLevel)")
        #expect(fewLevel > 0.05 * fullLevel)
        // The default is FluidSynth's own, 256: the same samples as the bouncer's default.
        #expect(RenderOptions().bouncer.polyphony == 256)
    }
}
