import Testing

@testable import MIDIVizCore

@Suite(.timeLimit(.minutes(30))) struct LyricsTests {
    /// A song holding only `texts` (seconds, track, kind, text as bytes).
    func song(_ texts: [(Double, Int, TextEvent.Kind, [UInt8])], trackNames: [String?] = [nil, nil]) -> Song {
        Song(
            format: 1, division: .ticksPerQuarter(96), endTick: 0, durationSeconds: 30,
            tracks: trackNames.map { TrackSummary(name: $0, noteCount: 0, channels: [], programs: []) },
            notes: [], tempoChanges: [], timeSignatures: [], keySignatures: [], synthEvents: [], warnings: [],
            texts: texts.map { TextEvent(seconds: $0.0, track: $0.1, kind: $0.2, bytes: $0.3) })
    }

    func text(_ string: String) -> [UInt8] { Array(string.utf8) }

    @Test func karaokeMarksMakeLinesAndHeadersAreNotSung() {
        let lyrics = Lyrics(
            song: song([
                (0, 0, .text, text("a description, not lyrics")),
                (0, 1, .text, text("@KMIDI KARAOKE FILE")), (0, 1, .text, text("@TTitle")),
                (1, 1, .text, text("\\Hel")), (1.5, 1, .text, text("lo ")), (2, 1, .text, text("world")),
                (3, 1, .text, text("/Sec")), (3.5, 1, .text, text("ond ")), (4, 1, .text, text("line")),
            ]))
        #expect(lyrics.source == .karaokeTrack(1))
        #expect(lyrics.syllables.map(\.text) == ["\\Hel", "lo ", "world", "/Sec", "ond ", "line"])
        #expect(lyrics.lines.map(\.text) == ["Hello world", "Second line"])
        #expect(lyrics.lines.map(\.start) == [1, 3])
        #expect(lyrics.lines[0].syllableEnds == [3, 6, 11])
        // The last syllable of a line is sung until the next one starts, at most a second.
        #expect(lyrics.lines[0].end == 3 && lyrics.lines[1].end == 5)
    }

    @Test func lyricEventsComeBeforeTextAndEndLinesWithCarriageReturns() {
        let lyrics = Lyrics(
            song: song([
                (0, 1, .text, text("/not this")),
                (1, 0, .lyric, text("One ")), (1.5, 0, .lyric, text("two\r")), (2, 0, .lyric, text("three\n")), (2.5, 0, .lyric, text("four")),
            ]))
        #expect(lyrics.source == .lyricEvents)
        #expect(lyrics.lines.map(\.text) == ["One two", "three", "four"])
    }

    @Test func aLongPauseStartsANewLineAndALongLineIsCutEvenlyAtWords() {
        let paused = Lyrics(song: song([(1, 0, .lyric, text("before ")), (1 + Lyrics.pauseSeconds + 0.1, 0, .lyric, text("after"))]))
        #expect(paused.lines.map(\.text) == ["before", "after"])
        let words = ["Wszyst", "kie ", "dzwo", "ny ", "bi", "ją, ", "wszyst", "kie ", "dzwo", "ny ", "bi", "ją,"]
        let long = Lyrics(song: song(words.enumerated().map { (Double($0.offset) * 0.25, 0, .lyric, text($0.element)) }))
        #expect(long.lines.map(\.text) == ["Wszystkie dzwony biją,", "wszystkie dzwony biją,"])
        #expect(long.lines.allSatisfy { $0.characters.count <= Lyrics.longestLine })
    }

    @Test func aLoneLineMarkEndsTheLineWithoutStartingTheNext() {
        // RP-026 files often send the CR as an event of its own, at the line's end.
        let lyrics = Lyrics(
            song: song([
                (1, 0, .lyric, text("One ")), (1.5, 0, .lyric, text("two")), (2, 0, .lyric, text("\r")),
                (3, 0, .lyric, text("three")), (3.5, 0, .lyric, text("/")), (4, 0, .lyric, text("four")),
            ]))
        #expect(lyrics.lines.map(\.text) == ["One two", "three", "four"])
        #expect(lyrics.lines.map(\.start) == [1, 3, 4])
        // "two" is sung until the CR's time, and the line lingers after it.
        #expect(lyrics.lines[0].end == 2 && lyrics.display(at: 2.5)?.current == 0)
    }

    @Test func textWithoutSpacesIsCutAtSyllablesAndAHugeGroupStaysQuick() {
        // A CJK character takes two columns: 20 of them to a line.
        let cjk = Lyrics(song: song((0..<60).map { (Double($0) * 0.2, 0, .lyric, text("\u{6625}")) }))
        #expect(cjk.lines.count == 3 && cjk.lines.allSatisfy { $0.characters.count == 20 })
        // 60,000 syllables without a pause: cut evenly, in linear time.
        let many = Lyrics(song: song((0..<60_000).map { (Double($0) * 0.001, 0, .lyric, text("la ")) }))
        #expect(many.lines.count == 60_000 * 3 / Lyrics.longestLine + 1 || many.lines.count == 60_000 * 3 / Lyrics.longestLine)
        // Nearly equal: a cut falls at the word start nearest its share, within a syllable.
        #expect(many.lines.allSatisfy { (Lyrics.longestLine - 3...Lyrics.longestLine + 3).contains($0.characters.count) })
    }

    /// Columns: a kana two, a Latin letter one, a combining mark (a kana's voicing mark, an
    /// accent) none; a syllable of 30 kana is shortened to 19 and an ellipsis (39 columns).
    @Test func wideCharactersTakeTwoColumns() {
        #expect(CharacterWidth.columns(of: "か\u{3099}a\u{0301}".unicodeScalars) == 3)
        let kana = Lyrics(song: song([(0, 0, .lyric, text(String(repeating: "か", count: 30)))]))
        #expect(kana.lines.map(\.characters.count) == [20] && kana.lines[0].characters.last == 0x2026)
        #expect(kana.lines.allSatisfy { CharacterWidth.columns(of: $0.text.unicodeScalars) <= Lyrics.longestLine })
        let narrow = Lyrics(song: song([(0, 0, .lyric, text(String(repeating: "か", count: 30)))]), longestLine: 8)
        #expect(narrow.lines.map(\.text) == ["かかか\u{2026}"])
    }

    @Test func aWordLongerThanALineIsCutAtSyllablesAndALongSyllableShortened() {
        let word = Lyrics(song: song([(0, 0, .lyric, text("Hey "))] + (1...60).map { (Double($0) * 0.1, 0, .lyric, text("ka")) }))
        #expect(word.lines.count == 4 && word.lines.allSatisfy { $0.characters.count <= Lyrics.longestLine })
        let long = Lyrics(song: song([(0, 0, .lyric, Array(repeating: UInt8(ascii: "a"), count: 127))]))
        #expect(long.lines.map(\.characters.count) == [Lyrics.longestLine] && long.lines[0].characters.last == 0x2026)
    }

    @Test func theDisplayShowsTheCurrentLineSungUpToNowAndTheNextBelow() throws {
        let lyrics = Lyrics(
            song: song([
                (10, 0, .lyric, text("Hel")), (10.5, 0, .lyric, text("lo\r")), (11, 0, .lyric, text("World")),
                (20, 0, .lyric, text("Late")),
            ]))
        #expect(lyrics.lines.map(\.text) == ["Hello", "World", "Late"])
        // Nothing long before the first line; then the first line unsung, with the next under it.
        #expect(lyrics.display(at: 10 - Lyrics.previewSeconds - 0.01) == nil)
        #expect(lyrics.display(at: 9) == Lyrics.Display(current: 0, sung: 0, lastSyllableProgress: 0, next: 1))
        // Syllables light as their events come, each over `lightingSeconds`.
        let first = try #require(lyrics.display(at: 10.03))
        #expect(first.current == 0 && first.sung == 1 && first.lastSyllableProgress > 0 && first.lastSyllableProgress < 1)
        #expect(lyrics.display(at: 10.49)?.sung == 1)
        #expect(lyrics.display(at: 10.5 + Lyrics.lightingSeconds) == Lyrics.Display(current: 0, sung: 2, lastSyllableProgress: 1, next: 1))
        #expect(lyrics.display(at: 11)?.current == 1)
        // After "World" (sung until 12), it lingers; then nothing until "Late" is near.
        #expect(lyrics.display(at: 12 + Lyrics.lingerSeconds - 0.01)?.current == 1)
        #expect(lyrics.display(at: 12 + Lyrics.lingerSeconds + 0.01) == nil)
        #expect(lyrics.display(at: 20 - Lyrics.previewSeconds + 0.01) == Lyrics.Display(current: 2, sung: 0, lastSyllableProgress: 0, next: nil))
    }

    @Test func aSongWithoutLyricsShowsNothing() {
        let plain = song([(0, 0, .text, text("Copyright nobody")), (1, 1, .text, text("just a marker"))])
        #expect(Lyrics(song: plain).isEmpty)
        var settings = RenderSettings.forTesting
        settings.lyrics = true
        var with: [Shape] = [], without: [Shape] = []
        Scene(song: plain, settings: settings).makeShapes(at: 1, into: &with)
        settings.lyrics = false
        Scene(song: plain, settings: settings).makeShapes(at: 1, into: &without)
        #expect(with == without)
    }

    @Test func encodingIsJudgedFromAllTheBytes() {
        #expect(TextEncoding.detect([text("plain"), text("words")]) == .ascii)
        #expect(TextEncoding.detect([text("wsta"), text("ń, bi"), text("ją")]) == .utf8)
        // One invalid sequence anywhere makes it all Latin-1, even a syllable that alone is UTF-8.
        let latin1: [[UInt8]] = [[0x46, 0x72, 0xE8, 0x72, 0x65], text("ń")]
        #expect(TextEncoding.detect(latin1) == .windows1252)
        #expect(String(String.UnicodeScalarView(TextEncoding.windows1252.decode([0x46, 0x72, 0xE8, 0x72, 0x65]))) == "Frère")
        // Windows-1252's printable characters at 0x80-0x9F: quotes and the euro.
        #expect(TextEncoding.windows1252.decode([0x93, 0x80, 0x94]).map(\.value) == [0x201C, 0x20AC, 0x201D])
        // A character split between two syllables still reads as UTF-8, whole in the first.
        let split = Lyrics(song: song([(1, 0, .lyric, [0x77, 0xC5]), (1.2, 0, .lyric, [0x84, 0x61])]))
        #expect(split.encoding == .utf8)
        #expect(split.syllables.map(\.text) == ["wń", "a"])
        // Text stops at a NUL, as C strings in files do; other control characters show as spaces.
        let padded = Lyrics(song: song([(1, 0, .lyric, [0x48, 0x65, 0x6C, 0x00, 0x20, 0x20]), (1.2, 0, .lyric, [0x6C, 0x7F, 0x6F])]))
        #expect(padded.lines.map(\.text) == ["Hell o"])
    }

    /// A .kar's headers are not sung even when they are lyric events (some converters write
    /// them so); the first `@T` is the title, the next ones its credits.
    @Test func karaokeHeadersAmongLyricEventsAreNotSungAndTheFirstTitleIsTheTitle() {
        let texts: [(Double, Int, TextEvent.Kind, [UInt8])] = [
            (0, 0, .text, text("@KMIDI KARAOKE FILE")), (0, 0, .text, text("@V0100")), (0, 0, .text, text("@IMade here")),
            (0, 1, .lyric, text("@LENGL")), (0, 1, .lyric, text("@T Twinkle ")), (0, 1, .lyric, text("@TJane Taylor")),
            (1, 1, .lyric, text("Twin")), (1.5, 1, .lyric, text("kle")), (2, 1, .lyric, text("@home")),
        ]
        let withHeaders = song(texts)
        #expect(Lyrics(song: withHeaders).syllables.map(\.text) == ["Twin", "kle", "@home"])
        let headers = KaraokeHeaders(song: withHeaders)
        #expect(headers.title == "Twinkle" && headers.credits == ["Jane Taylor"])
        #expect(withHeaders.defaultTitle == "Twinkle")
        // The title header wins over the first track's name.
        #expect(song(texts, trackNames: ["Soft Karaoke", "Words"]).defaultTitle == "Twinkle")
    }

    /// Without `@T`, the first track's name, unless it is itself a header: `@TName` shows as
    /// `Name`, any other header as no title.
    @Test func aTrackNameThatIsAHeaderIsNotShownRaw() {
        #expect(song([], trackNames: ["Prelude", nil]).defaultTitle == "Prelude")
        #expect(song([], trackNames: ["@TMy Song", nil]).defaultTitle == "My Song")
        #expect(song([], trackNames: ["@KMIDI KARAOKE FILE", nil]).defaultTitle == nil)
        #expect(song([], trackNames: ["@home", nil]).defaultTitle == "@home")
        #expect(song([], trackNames: [nil, nil]).defaultTitle == nil)
        // Latin-1 bytes in a header, as in the lyrics.
        #expect(song([(0, 1, .text, [0x40, 0x54, 0x46, 0x72, 0xE8, 0x72, 0x65, 0x00, 0x41])]).defaultTitle == "Frère")
    }
}
