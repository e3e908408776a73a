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
