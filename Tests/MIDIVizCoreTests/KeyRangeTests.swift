import Testing

@testable import MIDIVizCore

/// `--keys`: the named ranges and any two keys, read and written back.
@Suite(.timeLimit(.minutes(30))) struct KeyRangeTests {
    @Test func twoKeysAreReadWithMiddleCAsC4() {
        #expect(RenderSettings.KeyRange(rawValue: "C2-C7") == .span(low: 36, high: 96))
        #expect(RenderSettings.KeyRange(rawValue: "f#1-Bb6") == .span(low: 30, high: 94))
        #expect(RenderSettings.KeyRange(rawValue: "C-1-G9") == .span(low: 0, high: 127))
        #expect(RenderSettings.KeyRange(rawValue: "88") == .piano && RenderSettings.KeyRange(rawValue: "song") == .song)
        for bad in ["H9-C2", "C2", "C2-", "-C2", "C2-C10", "G#9-C2", "C2--C3", ""] {
            #expect(RenderSettings.KeyRange(rawValue: bad) == nil, "\(bad)")
        }
        #expect(RenderSettings.KeyRange.span(low: 36, high: 96).rawValue == "C2-C7")
    }

    @Test func aSpanIsLowToHighAndWidenedAtABlackEnd() {
        #expect(RenderSettings.KeyRange.span(low: 96, high: 36).span == nil, "C7-C2 is refused")
        #expect(RenderSettings.KeyRange.span(low: 49, high: 66).span == 48...67, "C#3-F#4 draws C3-G4")
        #expect(RenderSettings.KeyRange.piano.span == nil)
    }
}

/// `--split`: a fixed key, and `auto` following hands that move.
@Suite(.timeLimit(.minutes(30))) struct HandSplitTests {
    func song(_ notes: [Note], seconds: Double) -> Song {
        Song(
            format: 0, division: .ticksPerQuarter(96), endTick: 96, durationSeconds: seconds,
            tracks: [TrackSummary(name: nil, noteCount: notes.count, channels: [0], programs: [])],
            notes: notes, tempoChanges: [], timeSignatures: [], keySignatures: [], synthEvents: [], warnings: [])
    }

    @Test func splitIsReadAsAKeyOrAuto() {
        #expect(RenderSettings.HandSplit(rawValue: "C4") == .key(60) && RenderSettings.HandSplit(rawValue: "auto") == .auto)
        #expect(RenderSettings.HandSplit(rawValue: "H9") == nil && RenderSettings.HandSplit(rawValue: "") == nil)
    }

    @Test func autoFollowsHandsThatMove() {
        // 0-10 s: left hand on C2-G2 chords, right on C4-G4. 10-20 s: both an octave and a
        // half higher, the left hand's C3-G3... crossing where the right hand was before.
        var notes: [Note] = []
        var leftHand: Set<Int> = []  // indices
        for step in 0..<40 {
            let start = Double(step) * 0.5
            let shift = start < 10 ? 0 : 19
            for (pitch, isLeft) in [(36, true), (40, true), (43, true), (60, false), (64, false), (67, false)] {
                if isLeft { leftHand.insert(notes.count) }
                notes.append(Note(startSeconds: start, endSeconds: start + 0.45, pitch: UInt8(pitch + shift), velocity: 80, channel: 0, track: 0))
            }
        }
        let splitter = HandSplitter(split: .auto, song: song(notes, seconds: 20), drumChannel: 9)
        let wrong = notes.indices.filter { splitter.isLeft(notes[$0]) != leftHand.contains($0) }
        #expect(wrong.isEmpty, "\(wrong.count) notes in the wrong hand; splits \(splitter.keys)")
        #expect(splitter.key(at: 1) < 60 && splitter.key(at: 19) > 62, "the split moves up with the hands: \(splitter.keys)")
        let fixed = HandSplitter(split: .key(60), song: song(notes, seconds: 20), drumChannel: 9)
        #expect(fixed.isLeft(notes[2]) && !fixed.isLeft(notes[3]))
    }

    @Test func theLegendNamesTheHands() {
        let notes = [Note(startSeconds: 0, endSeconds: 1, pitch: 48, velocity: 80, channel: 0, track: 0)]
        var settings = RenderSettings.forTesting
        settings.colorBy = .track
        let plain = Overlay.legend(
            song: song(notes, seconds: 1), colorBy: .track, colors: NoteColors(song: song(notes, seconds: 1), settings: settings, pitchRange: 21...108))
        settings.split = .key(60)
        let colors = NoteColors(song: song(notes, seconds: 1), settings: settings, pitchRange: 21...108)
        let hands = Overlay.legend(song: song(notes, seconds: 1), colorBy: .track, colors: colors)
        #expect(plain.map(\.text) == [Array("Track 0".utf8)], "numbered from 0, as `midiviz info` and --track-color number tracks")
        #expect(hands.map(\.text) == [Array("Left hand".utf8), Array("Right hand".utf8)] && hands.map(\.color) == [colors.leftHand, colors.rightHand])
        #expect(colors.color(of: notes[0]) == colors.leftHand)
    }
}
