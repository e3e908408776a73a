import Testing

@testable import MIDIVizCore

@Suite(.timeLimit(.minutes(30))) struct SongBuilderTests {
    /// Builds a song at 96 ticks per quarter (120 bpm: a tick is 1/192 s) from (tick, track, bytes).
    func song(_ events: [(Int, Int, [UInt8])], trackCount: Int = 2, endTick: Int? = nil) -> Song {
        SongBuilder.build(
            format: 1, division: .ticksPerQuarter(96), trackCount: trackCount,
            events: events.map { MIDIEvent(tick: $0.0, track: $0.1, bytes: MessageBytes($0.2)) },
            endTick: endTick ?? events.map(\.0).max() ?? 0, warnings: [])
    }

    @Test func noteOnWithVelocityZeroIsANoteOff() {
        let result = song([(0, 0, [0x90, 60, 90]), (96, 0, [0x90, 60, 0])])
        #expect(result.notes == [Note(startSeconds: 0, endSeconds: 0.5, pitch: 60, velocity: 90, channel: 0, track: 0)])
    }

    @Test func noteOffFromAnotherTrackEndsTheNote() {
        let result = song([(0, 0, [0x91, 64, 70]), (192, 1, [0x81, 64, 0])])
        #expect(result.notes.count == 1)
        #expect(result.notes[0].endSeconds == 1.0 && result.notes[0].track == 0 && result.notes[0].channel == 1)
    }

    @Test func noteOffEndsEveryOverlappingNoteOfThatKey() {
        let result = song([(0, 0, [0x90, 60, 80]), (48, 1, [0x90, 60, 100]), (96, 0, [0x80, 60, 0])])
        #expect(result.notes.map(\.endSeconds) == [0.5, 0.5])
        #expect(result.notes.map(\.velocity) == [80, 100])
    }

    @Test func zeroLengthNotesAreKept() {
        let result = song([(10, 0, [0x90, 60, 80]), (10, 0, [0x80, 60, 0]), (20, 0, [0xFF, 0x2F, 0x00])])
        #expect(result.notes.count == 1 && result.notes[0].startSeconds == result.notes[0].endSeconds)
    }

    @Test func offThenOnAtOneTickKeepsTheNewNote() {
        let result = song([(0, 0, [0x90, 60, 80]), (96, 0, [0x80, 60, 0]), (96, 0, [0x90, 60, 81]), (192, 0, [0x80, 60, 0])])
        #expect(result.notes.map(\.startSeconds) == [0, 0.5])
        #expect(result.notes.map(\.endSeconds) == [0.5, 1.0])
    }

    /// A key released in one track as another track strikes it again is two notes, whatever
    /// the order of the tracks; the synthesizer hears the release first.
    @Test(arguments: [false, true]) func aKeyStruckAgainAsAnotherTrackReleasesItIsANewNote(swapped: Bool) {
        let first = swapped ? 1 : 0, second = swapped ? 0 : 1
        // In stream order: ties by track.
        let atHalf: [(Int, Int, [UInt8])] =
            swapped ? [(96, 0, [0x90, 60, 81]), (96, 1, [0x80, 60, 0])] : [(96, 0, [0x80, 60, 0]), (96, 1, [0x90, 60, 81])]
        let result = song([(0, first, [0x90, 60, 80])] + atHalf + [(192, second, [0x80, 60, 0])])
        #expect(result.notes.map(\.startSeconds) == [0, 0.5])
        #expect(result.notes.map(\.endSeconds) == [0.5, 1.0])
        #expect(result.notes.map(\.track) == [first, second])
        #expect(result.notes.map(\.velocity) == [80, 81])
        #expect(result.synthEvents.filter { $0.seconds == 0.5 }.map { Array($0.bytes) } == [[0x80, 60, 0], [0x90, 60, 81]])
    }

    /// At one tick, a track releasing a key is read before every earlier track striking it, all
    /// its events of the tick with it; a track's own note-off still ends its own note of that tick.
    @Test func aTrackReleasingAKeyIsReadBeforeTheTracksStrikingIt() {
        let result = song(
            [
                (0, 2, [0x90, 60, 70]),
                (96, 0, [0x90, 60, 81]), (96, 0, [0xB0, 7, 100]),
                (96, 1, [0x90, 60, 90]), (96, 1, [0x80, 60, 0]),
                (96, 2, [0x80, 60, 0]), (96, 2, [0x90, 62, 50]),
                (192, 0, [0x80, 60, 0]), (192, 2, [0x80, 62, 0]),
            ], trackCount: 3)
        #expect(result.notes.map { [$0.startSeconds, $0.endSeconds, Double($0.track)] } == [[0, 0.5, 2], [0.5, 1.0, 0], [0.5, 0.5, 1], [0.5, 1.0, 2]])
        // Track 2 releases what tracks 0 and 1 strike, track 1 what track 0 strikes.
        #expect(
            result.synthEvents.filter { $0.seconds == 0.5 }.map { Array($0.bytes) } == [
                [0x80, 60, 0], [0x90, 62, 50], [0x90, 60, 90], [0x80, 60, 0], [0x90, 60, 81], [0xB0, 7, 100],
            ])
    }

    /// The striking track's pedal before its note-on, and the releasing track's program change
    /// after its note-off, at that tick: the synthesizer hears the same messages in the same
    /// order whichever track comes first (found by a hostile pass).
    @Test(
        arguments: [
            (striker: [[0xB0, 64, 127], [0x90, 60, 90]], releaser: [[0x80, 60, 0]]),
            (striker: [[0x90, 60, 90]], releaser: [[0x80, 60, 0], [0xC0, 40]]),
        ] as [(striker: [[UInt8]], releaser: [[UInt8]])])
    func theSoundOfAKeyStruckAgainIsTheSameWhicheverTrackComesFirst(striker: [[UInt8]], releaser: [[UInt8]]) {
        func messages(strikerFirst: Bool) -> [[UInt8]] {
            let (strikerTrack, releaserTrack) = strikerFirst ? (0, 1) : (1, 0)
            var events: [(Int, Int, [UInt8])] = [(0, releaserTrack, [0x90, 60, 80])]
            let atHalf = [(strikerTrack, striker), (releaserTrack, releaser)].sorted { $0.0 < $1.0 }
            for (track, list) in atHalf { events += list.map { (96, track, $0) } }
            events += [(192, strikerTrack, [0x80, 60, 0])]
            return song(events).synthEvents.map { Array($0.bytes) }
        }
        #expect(messages(strikerFirst: true) == messages(strikerFirst: false))
        #expect(messages(strikerFirst: true).count == 2 + striker.count + releaser.count)
    }

    /// Tracks that would each have to come first (each releases what the other strikes) keep
    /// the stream's order.
    @Test func tracksReleasingWhatEachOtherStrikesKeepTheirOrder() {
        let result = song([
            (0, 0, [0x90, 62, 80]), (0, 1, [0x90, 60, 80]),
            (96, 0, [0x90, 60, 81]), (96, 0, [0x80, 62, 0]), (96, 1, [0x90, 62, 81]), (96, 1, [0x80, 60, 0]),
        ])
        #expect(result.synthEvents.filter { $0.seconds == 0.5 }.map { Array($0.bytes) } == [[0x90, 60, 81], [0x80, 62, 0], [0x90, 62, 81], [0x80, 60, 0]])
    }

    @Test func unreleasedNotesEndAtTheEndOfTheSongWithAWarning() {
        let result = song([(0, 0, [0x99, 36, 100]), (384, 1, [0xFF, 0x2F, 0x00])])
        #expect(result.notes.count == 1 && result.notes[0].endSeconds == 2.0 && result.notes[0].channel == 9)
        #expect(result.warnings == ["1 note never released; it ends at the end of the song"])
    }

    @Test func tempoFromAnyTrackApplies() {
        // 60 bpm from tick 96 on, set in track 1.
        let result = song([(0, 0, [0x90, 60, 80]), (96, 1, [0xFF, 0x51, 0x03, 0x0F, 0x42, 0x40]), (192, 0, [0x80, 60, 0])])
        #expect(result.notes[0].endSeconds == 1.5)
        #expect(result.tempoChanges.map(\.beatsPerMinute) == [120, 60])
        #expect(result.tempoChanges.map(\.seconds) == [0, 0.5])
    }

    @Test func notesAreSortedByStartPitchChannelTrack() {
        let result = song([
            (0, 1, [0x91, 62, 1]), (0, 0, [0x90, 62, 1]), (0, 0, [0x90, 61, 1]), (10, 0, [0xB0, 123, 0]),
            (20, 0, [0x80, 61, 0]), (20, 0, [0x80, 62, 0]), (20, 1, [0x81, 62, 0]),
        ])
        #expect(result.notes.map { [Int($0.pitch), Int($0.channel), $0.track] } == [[61, 0, 0], [62, 0, 0], [62, 1, 1]])
    }

    @Test func trackSummariesAndSignaturesAreRead() {
        let result = song([
            (0, 0, [0xFF, 0x03, 0x05] + Array("Piano".utf8)),
            (0, 0, [0xFF, 0x58, 0x04, 3, 3, 24, 8]),  // 3/8
            (0, 0, [0xFF, 0x59, 0x02, 0xFD, 1]),  // 3 flats, minor
            (0, 1, [0xC2, 40]), (0, 1, [0x92, 50, 60]), (96, 1, [0x82, 50, 0]),
        ])
        #expect(result.tracks[0].name == "Piano")
        #expect(result.tracks[1] == TrackSummary(name: nil, noteCount: 1, channels: [2], programs: [40]))
        #expect(result.timeSignatures == [TimeSignature(seconds: 0, tick: 0, numerator: 3, denominator: 8)])
        #expect(result.keySignatures.first?.name == "C minor")
        #expect(result.notes[0].program == 40)
        #expect(result.synthEvents.map(\.bytes) == [[0xC2, 40], [0x92, 50, 60], [0x82, 50, 0]])
    }

    /// Signatures the standard does not allow are read as the nearest it does, and said once.
    @Test func signaturesOutOfRangeAreReadAsTheNearestAndWarnedOf() {
        let result = song([
            (0, 0, [0xFF, 0x59, 0x02, 8, 0]),  // 8 sharps
            (96, 0, [0xFF, 0x59, 0x02, 0xF6, 3]),  // 10 flats, mode 3
            (192, 0, [0xFF, 0x58, 0x04, 0, 40, 24, 8]),  // 0/2^40
            (288, 0, [0xFF, 0x59, 0x02, 2, 1]),  // B minor: allowed
        ])
        #expect(result.keySignatures.map(\.sharps) == [7, -7, 2])
        #expect(result.keySignatures.map(\.name) == ["C# major", "Cb major", "B minor"])
        #expect(result.timeSignatures.map { [$0.numerator, $0.denominator] } == [[1, 65536]])
        #expect(
            result.warnings == [
                "3 signatures outside the standard's range; the first: key signature of 8 sharps, mode 0, at tick 0 read as C# major"
            ])
        #expect(song([(0, 0, [0xFF, 0x59, 0x02, 0xF9, 1])]).warnings.isEmpty)  // 7 flats, minor
    }

    @Test func aByteOrderMarkIsNotPartOfATrackName() {
        let result = song([(0, 0, [0xFF, 0x03, 0x08, 0xEF, 0xBB, 0xBF] + Array("Piano".utf8))])
        #expect(result.tracks[0].name == "Piano")
    }
}

@Suite(.timeLimit(.minutes(30))) struct TempoMapTests {
    @Test func secondsFollowEachTempoSegment() {
        let map = TempoMap(division: .ticksPerQuarter(480), changes: [(960, 1_000_000), (0, 250_000), (1920, 1_000_000)])
        #expect(map.seconds(atTick: 480) == 0.25)
        #expect(map.seconds(atTick: 960) == 0.5)
        #expect(map.seconds(atTick: 1440) == 1.5)
        #expect(map.changes.map(\.beatsPerMinute) == [240, 60])  // the repeated 60 bpm adds no segment
    }

    @Test func lastChangeAtOneTickWins() {
        let map = TempoMap(division: .ticksPerQuarter(1), changes: [(0, 1_000_000), (0, 2_000_000)])
        #expect(map.seconds(atTick: 1) == 2)
    }
}

@Suite(.timeLimit(.minutes(30))) struct BarTests {
    /// 4/4 at 120 bpm for two bars, then 3/4 at 90 bpm (as fixtures/tempo-map.mid).
    let song = SongBuilder.build(
        format: 1, division: .ticksPerQuarter(96), trackCount: 1,
        events: [
            MIDIEvent(tick: 0, track: 0, bytes: [0xFF, 0x51, 0x03, 0x07, 0xA1, 0x20]),
            MIDIEvent(tick: 0, track: 0, bytes: [0xFF, 0x58, 0x04, 4, 2, 24, 8]),
            MIDIEvent(tick: 768, track: 0, bytes: [0xFF, 0x51, 0x03, 0x0A, 0x2C, 0x2B]),
            MIDIEvent(tick: 768, track: 0, bytes: [0xFF, 0x58, 0x04, 3, 2, 24, 8]),
        ], endTick: 1344, warnings: [])

    @Test func barsFollowTheTimeSignaturesAndTheTempoMap() throws {
        #expect(song.startSeconds(ofBar: 1) == 0)
        #expect(song.startSeconds(ofBar: 2) == 2)
        #expect(abs(try #require(song.startSeconds(ofBar: 3)) - 4) < 1e-9)
        // 3/4 at 90 bpm (666667 µs a beat): 2.000001 s a bar.
        #expect(abs(try #require(song.startSeconds(ofBar: 4)) - 6.000001) < 1e-6)
        #expect(song.startSeconds(ofBar: 0) == nil)
    }

    @Test func signatureChangeInsideABarStartsANewBar() {
        // 4/4, then 2/4 from tick 96 (one beat into bar 1): bar 2 starts at tick 96.
        let odd = SongBuilder.build(
            format: 1, division: .ticksPerQuarter(96), trackCount: 1,
            events: [
                MIDIEvent(tick: 96, track: 0, bytes: [0xFF, 0x58, 0x04, 2, 2, 24, 8])
            ], endTick: 960, warnings: [])
        #expect(odd.startSeconds(ofBar: 2) == 0.5)
        #expect(odd.startSeconds(ofBar: 3) == 1.5)
    }

    @Test func smpteSongsHaveNoBars() {
        let smpte = SongBuilder.build(
            format: 0, division: .smpte(framesPerSecond: 25, ticksPerFrame: 40), trackCount: 1,
            events: [], endTick: 1000, warnings: [])
        #expect(smpte.startSeconds(ofBar: 2) == nil)
        #expect(smpte.seconds(atTick: 500) == 0.5)
    }
}
