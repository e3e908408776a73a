import Testing

@testable import MIDIVizCore

@Suite(.timeLimit(.minutes(30))) struct PianoKeysTests {
    @Test func eightyEightKeysAreFiftyTwoWhiteAndThirtySixBlack() {
        let keys = PianoKeys.eightyEight
        #expect(keys.count == 88)
        #expect(keys.filter(PianoKeys.isBlack).count == 36)
        #expect(PianoKeys.whiteKeyIndex(keys.upperBound) - PianoKeys.whiteKeyIndex(keys.lowerBound) + 1 == 52)
    }

    @Test func blackKeysSitBetweenTheirWhiteNeighboursAsOnAPiano() {
        for pitch in 0..<127 where PianoKeys.isBlack(pitch) {
            let key = PianoKeys.whiteKeySpan(pitch)
            let below = PianoKeys.whiteKeySpan(pitch - 1), above = PianoKeys.whiteKeySpan(pitch + 1)
            #expect(abs(key.upper - key.lower - PianoKeys.blackKeyWidth) < 1e-5)
            #expect(below.upper == above.lower, "the two white neighbours touch")
            #expect(key.lower > below.lower && key.upper < above.upper, "a black key lies over the line between its neighbours")
        }
        // C# and F# lean left, D# and A# right, G# is centred (octave 4: C4 = 60).
        let line = { (pitch: Int) in PianoKeys.whiteKeySpan(pitch - 1).upper }
        let centre = { (pitch: Int) in (PianoKeys.whiteKeySpan(pitch).lower + PianoKeys.whiteKeySpan(pitch).upper) / 2 }
        #expect(centre(61) < line(61) && centre(66) < line(66))
        #expect(centre(63) > line(63) && centre(70) > line(70))
        #expect(abs(centre(68) - line(68)) < 1e-5)
        // Black keys never touch each other.
        let blacks = (0..<128).filter(PianoKeys.isBlack)
        for (a, b) in zip(blacks, blacks.dropFirst()) { #expect(PianoKeys.whiteKeySpan(a).upper < PianoKeys.whiteKeySpan(b).lower) }
    }

    @Test func rollKeysLineUpWithTheirRows() {
        for pitch in 0..<127 {
            let key = PianoKeys.semitoneSpan(pitch)
            // Every key covers its own row [pitch, pitch + 1].
            #expect(key.lower <= Float(pitch) + 1e-4 && key.upper >= Float(pitch + 1) - 1e-4, "pitch \(pitch)")
            if PianoKeys.isBlack(pitch) { #expect(key.upper - key.lower == 1) }
        }
        // White keys tile the octave without gaps: 12 rows in 7 keys.
        let whites = (60..<72).filter { !PianoKeys.isBlack($0) }.map(PianoKeys.semitoneSpan)
        #expect(whites.first?.lower == 60 && whites.last?.upper == 72)
        for (a, b) in zip(whites, whites.dropFirst()) { #expect(abs(a.upper - b.lower) < 1e-4) }
    }

    @Test func wholeOctavesRunFromCToB() {
        #expect(PianoKeys.wholeOctaves(around: 62...77) == 60...83)
        #expect(PianoKeys.wholeOctaves(around: 60...71) == 60...71)
        #expect(PianoKeys.wholeOctaves(around: 120...127) == 120...127)
    }

    @Test func litWhiteKeysAreRedrawnUnderTheirBlackNeighbours() {
        var lit = [RGBA?](repeating: nil, count: 128)
        lit[64] = RGBA(1, 0, 0)  // E4: D#4 lies over it
        #expect(PianoKeys.keysToRedraw(in: 21...108, lit: lit) == [64, 63])
        lit[60] = RGBA(0, 1, 0)  // C4: C#4 lies over it
        lit[70] = RGBA(0, 0, 1)  // A#4, lit itself
        #expect(PianoKeys.keysToRedraw(in: 21...108, lit: lit) == [60, 64, 61, 63, 70], "white keys first, then black keys")
        #expect(PianoKeys.keysToRedraw(in: 62...108, lit: lit) == [64, 63, 70], "keys outside the keyboard are not drawn")
    }
}
