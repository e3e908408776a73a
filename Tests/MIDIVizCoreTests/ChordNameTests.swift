import Testing

@testable import MIDIVizCore

@Suite(.timeLimit(.minutes(30))) struct ChordNameTests {
    static let sharpNames = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"]
    static let symbols: [ChordName.Quality: String] = [
        .major: "", .minor: "m", .diminished: "dim", .augmented: "aug", .sus2: "sus2", .sus4: "sus4",
        .major7: "maj7", .minor7: "m7", .dominant7: "7", .diminished7: "dim7", .halfDiminished7: "m7b5",
    ]
    /// The qualities whose pitch-class set reads as one root only.
    static let unambiguous: [ChordName.Quality] = [.major, .minor, .diminished, .major7, .minor7, .dominant7, .halfDiminished7]

    @Test func everyQualityOnEveryRootInRootPosition() {
        for quality in ChordName.Quality.allCases {
            for root in 0..<12 {
                let pitches = quality.intervals.map { 48 + root + $0 }
                let chord = ChordName.identify(pitches: pitches, spelling: .sharps)
                #expect(chord == ChordName(root: root, quality: quality, spelling: .sharps), "\(pitches)")
                #expect(chord?.symbol == Self.sharpNames[root] + Self.symbols[quality]!)
            }
        }
    }

    @Test func inversionsNameTheBassAsASlashChord() {
        for quality in Self.unambiguous {
            for root in 0..<12 {
                for (position, interval) in quality.intervals.enumerated() where position > 0 {
                    // The chord tone `interval` in the bass, the others stacked above it.
                    let bass = 36 + root + interval
                    let pitches = [bass] + quality.intervals.map { 60 + root + $0 }
                    let chord = ChordName.identify(pitches: pitches, spelling: .sharps)
                    let expected = Self.sharpNames[root] + Self.symbols[quality]! + "/" + Self.sharpNames[(root + interval) % 12]
                    #expect(chord?.symbol == expected, "\(pitches)")
                    #expect(chord?.root == root && chord?.quality == quality && chord?.bass == (root + interval) % 12)
                }
            }
        }
    }

    @Test func symmetricChordsAreNamedFromTheBass() {
        for root in 0..<12 {
            for interval in [4, 8] {
                let chord = ChordName.identify(pitches: [48 + root + interval, 60 + root, 64 + root, 68 + root], spelling: .sharps)
                #expect(chord?.symbol == Self.sharpNames[(root + interval) % 12] + "aug", "augmented triad over its \(interval)")
            }
            for interval in [3, 6, 9] {
                let chord = ChordName.identify(pitches: [48 + root + interval, 60 + root, 63 + root, 66 + root, 69 + root], spelling: .sharps)
                #expect(chord?.symbol == Self.sharpNames[(root + interval) % 12] + "dim7")
            }
        }
    }

    @Test func suspendedChordsPreferTheReadingRootedOnTheBass() {
        #expect(ChordName.identify(pitches: [60, 62, 67])?.symbol == "Csus2")
        #expect(ChordName.identify(pitches: [55, 60, 62])?.symbol == "Gsus4", "C D G over G is Gsus4, not Csus2/G")
        #expect(ChordName.identify(pitches: [60, 65, 67])?.symbol == "Csus4")
        #expect(ChordName.identify(pitches: [53, 60, 67])?.symbol == "Fsus2")
        #expect(ChordName.identify(pitches: [50, 60, 67])?.symbol == "Csus2/D", "neither reading has D as root: sus2 comes first")
    }

    @Test func fewerThanThreePitchClassesOrAnUnknownSetNameNothing() {
        #expect(ChordName.identify(pitches: [Int]()) == nil)
        #expect(ChordName.identify(pitches: [60]) == nil)
        #expect(ChordName.identify(pitches: [60, 72, 84, 67]) == nil, "octaves and a fifth are two pitch classes")
        #expect(ChordName.identify(pitches: [60, 61, 62]) == nil, "a cluster")
        #expect(ChordName.identify(pitches: [60, 62, 64, 65, 67]) == nil, "five pitch classes")
        #expect(ChordName.identify(pitches: [60, 64, 67, 72])?.symbol == "C", "doublings do not matter")
    }

    @Test func aMelodyNoteOverAChordIsLeftOut() {
        #expect(ChordName.identify(pitches: [48, 60, 64, 67, 74])?.symbol == "C", "C E G under a D")
        #expect(ChordName.identify(pitches: [45, 57, 60, 64, 71])?.symbol == "Am", "A C E under a B")
        #expect(ChordName.identify(pitches: [48, 62, 64, 67, 74]) == nil, "the D is doubled below: not a melody note")
        #expect(ChordName.identify(pitches: [48, 64, 67, 70, 74])?.symbol == "C7", "C E G Bb under a D: C7")
    }

    @Test func spellingFollowsTheKeySignature() {
        let chord = ChordName(root: 10, quality: .major, bass: 3)
        #expect(ChordName(root: 10, quality: .major, bass: 3, spelling: .sharps).symbol == "A#/D#")
        #expect(ChordName(root: 10, quality: .major, bass: 3, spelling: .flats).symbol == "Bb/Eb")
        #expect(chord.symbol == "Bb/Eb", "common spelling")
        #expect(ChordName(root: 6, quality: .minor).symbol == "F#m")
        #expect(ChordName.Spelling(keySharps: nil) == .common)
        #expect(ChordName.Spelling(keySharps: 0) == .common)
        #expect(ChordName.Spelling(keySharps: 3) == .sharps)
        #expect(ChordName.Spelling(keySharps: -2) == .flats)
        for root in 0..<12 {
            #expect(ChordName(root: root, quality: .major, spelling: .flats).symbol.contains("#") == false)
            #expect(ChordName(root: root, quality: .major, spelling: .sharps).symbol.contains("b") == false)
        }
    }

    // MARK: timeline

    func song(_ notes: [Note], keySignatures: [KeySignature] = []) -> Song {
        Song(
            format: 0, division: .ticksPerQuarter(96), endTick: 0, durationSeconds: notes.map(\.endSeconds).max() ?? 0,
            tracks: [TrackSummary(name: nil, noteCount: notes.count, channels: [0], programs: [])],
            notes: notes.sorted { $0.startSeconds < $1.startSeconds }, tempoChanges: [], timeSignatures: [],
            keySignatures: keySignatures, synthEvents: [], warnings: [])
    }

    func chord(_ pitches: [Int], from start: Double, to end: Double, channel: UInt8 = 0) -> [Note] {
        pitches.map { Note(startSeconds: start, endSeconds: end, pitch: UInt8($0), velocity: 90, channel: channel, track: 0) }
    }

    @Test func timelineNamesEachChordForAsLongAsItSounds() {
        let timeline = ChordTimeline(song: song(chord([60, 64, 67], from: 0, to: 1) + chord([57, 60, 64], from: 1, to: 2)))
        #expect(timeline.segment(at: 0.5)?.chord.symbol == "C")
        #expect(timeline.segment(at: 1.0)?.chord.symbol == "Am")
        #expect(timeline.segment(at: 1.999)?.chord.symbol == "Am")
        #expect(timeline.segment(at: 2.0) == nil)
        #expect(timeline.segment(at: -1) == nil)
    }

    @Test func drumsAreNotChords() {
        let timeline = ChordTimeline(song: song(chord([36, 38, 42], from: 0, to: 1, channel: 9) + chord([60, 64], from: 0, to: 1)))
        #expect(timeline.segments.isEmpty, "two pitched pitch classes and three drums name nothing")
    }

    @Test func fleetingChordsAreDroppedAndShortGapsBridged() {
        // C for 1 s; a legato overlap of 30 ms sounds C E G A (Am7/C) before Am; then a 100 ms
        // rest before Am again.
        let notes = chord([60, 64, 67], from: 0, to: 1.03) + chord([57, 60, 64], from: 1, to: 2) + chord([57, 60, 64], from: 2.1, to: 3)
        let timeline = ChordTimeline(song: song(notes))
        #expect(timeline.segments.map(\.chord.symbol) == ["C", "Am"])
        #expect(timeline.segment(at: 1.015)?.chord.symbol == "C", "the 30 ms overlap keeps the earlier chord")
        #expect(timeline.segment(at: 2.05)?.chord.symbol == "Am", "the 100 ms gap is bridged")
    }

    @Test func timelineSpellsWithTheKeyInForce() {
        let keys = [KeySignature(seconds: 1, tick: 96, sharps: 2, isMinor: false)]
        let timeline = ChordTimeline(song: song(chord([58, 62, 65], from: 0, to: 0.5) + chord([58, 62, 65], from: 1, to: 1.5), keySignatures: keys))
        #expect(timeline.segment(at: 0.2)?.chord.symbol == "Bb")
        #expect(timeline.segment(at: 1.2)?.chord.symbol == "A#", "in D major, sharps")
    }

    /// Notes one after another, each `step` long, from `start`.
    func broken(_ pitches: [Int], from start: Double, step: Double) -> [Note] {
        pitches.enumerated().flatMap { chord([$1], from: start + Double($0) * step, to: start + Double($0 + 1) * step) }
    }

    @Test func brokenChordsAreNamedAsTheyAreHeard() {
        // Two bars in the manner of Bach's C major prelude: a held C E, then G C E in turn (C);
        // a held C D, then A D F in turn (Dm7 over C).
        let notes =
            chord([60, 64], from: 0, to: 2) + broken([67, 72, 76, 67, 72, 76, 67, 72], from: 0.4, step: 0.2)
            + chord([60, 62], from: 2, to: 4) + broken([69, 74, 77, 69, 74, 77, 69, 74], from: 2.4, step: 0.2)
        let timeline = ChordTimeline(song: song(notes))
        #expect(timeline.segment(at: 0.2) == nil, "C E alone is no chord")
        let first = timeline.segment(at: 0.5)
        #expect(first?.chord.symbol == "C" && first?.start == 0.4 && first?.end == 2, "held through the broken chord")
        #expect(timeline.segment(at: 2.2) == nil, "C D with the last bar's E and G just released is no chord")
        let second = timeline.segment(at: 3.5)
        #expect(second?.chord.symbol == "Dm7/C")
        #expect(abs((second?.start ?? 0) - 2.8) < 1e-9 && second?.end == 4, "from the F, with A and D just released")
        #expect(timeline.segments.map(\.chord.symbol) == ["C", "Dm7/C"])
    }

    @Test func aReleasedNoteStopsCountingAtItsExpiry() {
        // C# until 0.1 s, G until 0.25 s, then C E held. While C# counts as just released the
        // set C C# E G names nothing; from its expiry (0.1 + 0.5, which is not 0.6 - 0.5 + 0.5
        // in floating point) C E with the released G is C, held after G expires too.
        let notes = chord([61], from: 0, to: 0.1) + chord([67], from: 0.125, to: 0.25) + chord([60, 64], from: 0.375, to: 5)
        let segments = ChordTimeline(song: song(notes)).segments
        #expect(segments.map(\.chord.symbol) == ["C"])
        #expect(segments.first?.start == 0.1 + ChordTimeline.recentSeconds && segments.first?.end == 5)
    }

    @Test func oneNoteAtATimeNamesNothing() {
        #expect(ChordTimeline(song: song(broken([60, 64, 67, 72, 67, 64, 60], from: 0, step: 0.25))).segments.isEmpty)
        #expect(ChordTimeline(song: song(chord([60, 64], from: 0, to: 1))).segments.isEmpty, "a dyad on its own")
        // A triad, then only its root: the chord ends with the triad.
        let fading = ChordTimeline(song: song(chord([60, 64, 67], from: 0, to: 1) + chord([48], from: 0, to: 2)))
        #expect(fading.segments.count == 1 && fading.segments[0].end == 1)
    }
}
