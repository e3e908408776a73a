import Foundation
import Testing

@testable import MIDIVizCore
@testable import MIDIVizIO

/// Scores as input: the notes and length midiviz reads from a score are those of MuseScore's own
/// MIDI export of it (`musescore3 -o x.mid score`), and those the score holds.
@Suite(.timeLimit(.minutes(30)), .enabled(if: SheetTools.available, Comment(rawValue: SheetTools.missing)))
struct ScoreInputTests {
    /// The repository's fixtures, and the shared corpus's scores when it is beside the repository.
    static let scores: [String] = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let own = [
            "c-major-scale.musicxml", "pickup-tempo.musicxml", "repeat-endings.musicxml", "da-capo-fine.musicxml", "partitura_score_example.musicxml",
        ].map(SheetTools.fixture)
        let shared = root.deletingLastPathComponent().appendingPathComponent("shared/corpus/scores").path
        let corpus = ((try? FileManager.default.contentsOfDirectory(atPath: shared)) ?? []).filter { ScoreTools.isScore($0) }.sorted().map {
            shared + "/" + $0
        }
        return own + corpus
    }()

    /// MuseScore's own MIDI export of `score`, loaded as a MIDI file.
    static func exported(_ score: String) throws -> Song {
        try ScoreTools.withTemporaryFolder { folder in
            let midi = folder + "/export.mid"
            let run = try MuseScore.run(try #require(ScoreTools.museScore()), ["-o", midi, score], in: folder)
            #expect(run.exitedCleanly, "\(run.errorLines)")
            return try SongLoader.loadMIDI(bytes: SongLoader.readFile(midi), name: midi)
        }
    }

    static func summary(_ song: Song) -> [String] {
        song.notes.map { "\($0.pitch)@\(Int(($0.startSeconds * 1000).rounded()))-\(Int(($0.endSeconds * 1000).rounded()))" }
    }

    @Test(arguments: scores)
    func notesAndLengthAreThoseOfMuseScoresOwnExport(score: String) throws {
        let song = try SongLoader.load(path: score)
        let reference = try Self.exported(score)
        #expect(song.notes.count == reference.notes.count)
        #expect(abs(song.durationSeconds - reference.durationSeconds) < 0.001)
        #expect(Self.summary(song) == Self.summary(reference))
        #expect(song.musicXML?.isEmpty == false, "the MusicXML for the sheet music is kept")
    }

    @Test func theFixturesHoldTheNotesTheyWereWrittenWith() throws {
        let scale = try SongLoader.load(path: SheetTools.fixture("c-major-scale.musicxml"))
        #expect(scale.notes.map(\.pitch) == [60, 62, 64, 65, 67, 69, 71, 72])
        #expect(scale.notes.map { ($0.startSeconds * 10).rounded() / 10 } == [0, 0.6, 1.2, 1.8, 2.4, 3.0, 3.6, 4.2])
        #expect(abs(scale.durationSeconds - 4.8) < 0.001)
        let pickup = try SongLoader.load(path: SheetTools.fixture("pickup-tempo.musicxml"))
        #expect(pickup.notes.count == 24)
        // One quarter at 90, three bars of 3/4 at 90, two at 150, two at 60.
        #expect(abs(pickup.durationSeconds - ((1 + 6) * 60.0 / 90 + 6 * 60.0 / 150 + 6 * 60.0 / 60)) < 0.001)
        #expect(pickup.tempoChanges.map { Int($0.beatsPerMinute.rounded()) } == [90, 150, 60])
        // Played unfolded: bar 1, its first ending, bar 1 again, the second ending, bar 4.
        let repeated = try SongLoader.load(path: SheetTools.fixture("repeat-endings.musicxml"))
        let played: [Int] = [60, 62, 64, 65, 67, 69, 71, 72, 60, 62, 64, 65, 76, 74, 71, 67, 69, 65, 62, 60]
        #expect(repeated.notes.map { Int($0.pitch) } == played)
        #expect(abs(repeated.durationSeconds - 10) < 0.001)
    }

    /// The same score as MusicXML, compressed MusicXML and MuseScore's own formats gives the same notes.
    @Test func everyScoreFormatGivesTheSameNotes() throws {
        let source = SheetTools.fixture("pickup-tempo.musicxml")
        let expected = Self.summary(try SongLoader.load(path: source))
        try ScoreTools.withTemporaryFolder { folder in
            for format in ["mxl", "mscz", "mscx", "xml"] {
                let converted = "\(folder)/pickup.\(format)"
                let run = try MuseScore.run(try #require(ScoreTools.museScore()), ["-o", converted, source], in: folder)
                try #require(run.exitedCleanly, "\(run.errorLines)")
                #expect(Self.summary(try SongLoader.load(path: converted)) == expected, "\(format)")
            }
        }
    }

    /// What MuseScore says of a score: its last line that is not noise, without the HTML its
    /// dialogs' messages carry; its `\tto <path>` line is noise, whatever HTML stripping makes of
    /// it (a hostile pass found "(\tto )" in a message).
    /// A score's title and parts name the song and its tracks (MuseScore's MIDI names none):
    /// `info` and the title and legend of a frame show them. A part of two staves names two.
    @Test func aScoresTitleAndPartsNameTheSongAndItsTracks() throws {
        let drums = try SongLoader.load(path: SheetTools.fixture("with-drums.musicxml"))
        #expect(drums.defaultTitle == "With drums")
        #expect(drums.tracks.map(\.name) == ["With drums", "Piano", "Drums"])
        #expect(drums.notes.filter { $0.channel == 9 }.allSatisfy { drums.tracks[$0.track].name == "Drums" })
        // No title, a piano on two staves whose name is not printed: still its tracks' names.
        let piano = try SongLoader.load(path: SheetTools.fixture("no-text.musicxml"))
        #expect(piano.defaultTitle == nil)
        #expect(piano.tracks.map(\.name) == [nil, "Piano, staff 1", "Piano, staff 2"])
    }

    @Test func musicXMLNamesReadTitlesPartsAndStaves() throws {
        func names(_ body: String) -> MusicXMLNames? { MusicXMLNames(Array(#"<?xml version="1.0"?>"#.utf8) + Array(body.utf8)) }
        let score = names(
            #"<score-partwise><movement-title>Movement</movement-title><part-list><score-part id="A"><part-name>Flute</part-name></score-part>"#
                + #"<score-part id="B"><part-name> </part-name></score-part></part-list><part id="A"><measure><note/></measure></part>"#
                + #"<part id="B"><measure><attributes><staves>2</staves></attributes><note/></measure></part></score-partwise>"#)
        #expect(score?.title == "Movement")
        #expect(score.map { $0.parts.map(\.name) } == ["Flute", nil] && score.map { $0.parts.map(\.staves) } == [1, 2])
        #expect(score?.staffNames == ["Flute", nil, nil])
        // A work title comes before a movement's; a timewise score, or one cut short, is not read.
        #expect(names(#"<score-partwise><work><work-title>Work</work-title></work><movement-title>M</movement-title></score-partwise>"#)?.title == "Work")
        #expect(names(#"<score-timewise><movement-title>M</movement-title></score-timewise>"#) == nil)
        // Else a title frame's words (MuseScore writes them only as credits): a credit typed
        // title, else the largest centred words, the first of a size.
        let composer = #"<credit><credit-words justify="right" font-size="30">Composer</credit-words></credit>"#
        let big =
            #"<credit><credit-words justify="center" font-size="24">Big</credit-words>"#
            + #"<credit-words justify="center" font-size="24">#</credit-words></credit>"#
        let typed = #"<credit><credit-type>title</credit-type><credit-words font-size="10">Typed</credit-words></credit>"#
        #expect(names("<score-partwise>" + composer + big + "</score-partwise>")?.title == "Big")
        #expect(names("<score-partwise>" + big + typed + "</score-partwise>")?.title == "Typed")
        #expect(names("<score-partwise><work><work-title>Work</work-title></work>" + typed + "</score-partwise>")?.title == "Work")
        #expect(names("<score-partwise>" + composer + "</score-partwise>")?.title == nil)
        #expect(names(#"<score-partwise><movement-title>M</movement-title>"#) == nil)
        // Tracks named only when there is one a staff (and a first of tempo), and only those unnamed.
        var song = try SongLoader.loadMIDI(bytes: SMFBytes.file(format: 1, division: 96, tracks: [[], [], [], []]), name: "x.mid")
        song.tracks[2].name = "Own"
        score?.name(&song)
        #expect(song.tracks.map(\.name) == ["Movement", "Flute", "Own", nil])
        var fewer = try SongLoader.loadMIDI(bytes: SMFBytes.file(format: 1, division: 96, tracks: [[], [], []]), name: "x.mid")
        score?.name(&fewer)
        #expect(fewer.tracks.map(\.name) == ["Movement", nil, nil])
    }

    @Test func museScoresComplaintLeavesItsNoiseOut() {
        let lines = ["convert </tmp/x/score.musicxml>...", "Error at line 2: no instrument found for <b>part</b>", "\tto </tmp/x/score.mid>"]
        #expect(MuseScore.complaint(lines) == "Error at line 2: no instrument found for part")
        #expect(MuseScore.complaint(["\tto </tmp/x/score.mid>", "... success!"]) == nil)
    }
}
