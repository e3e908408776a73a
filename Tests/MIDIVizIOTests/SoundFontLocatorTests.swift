import Foundation
import MIDIVizIO
import Testing

/// Which SoundFont a render that names none plays.
@Suite(.timeLimit(.minutes(30))) struct SoundFontLocatorTests {
    /// The first readable file of the list, whatever comes after it.
    @Test func theFirstReadableDefaultIsChosen() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("midiviz-locator-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("missing.sf2").path
        let first = folder.appendingPathComponent("first.sf2").path, second = folder.appendingPathComponent("second.sf3").path
        for path in [first, second] { #expect(FileManager.default.createFile(atPath: path, contents: Data("sfbk".utf8))) }
        #expect(try SoundFontLocator.locate(explicit: nil, environment: [:], defaults: [missing, first, second]) == first)
        #expect(try SoundFontLocator.locate(explicit: nil, environment: [:], defaults: [missing, second, first]) == second)
        #expect(throws: AudioError.self) { try SoundFontLocator.locate(explicit: nil, environment: [:], defaults: [missing]) }
    }

    /// With Debian's uncompressed MuseScore General installed, it is played rather than the SF3
    /// (Debian's alternatives may name either as `sf3/MuseScore_General.sf3`).
    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: "/usr/share/sounds/sf2/MuseScore_General_Full.sf2"),
            "apt-get install musescore-general-soundfont-lossless (scripts/setup does)"))
    func theUncompressedMuseScoreGeneralComesFirst() throws {
        #expect(try SoundFontLocator.locate(explicit: nil, environment: [:]) == "/usr/share/sounds/sf2/MuseScore_General_Full.sf2")
    }

    /// A missing SoundFont named by `$MIDIVIZ_SOUNDFONT` (set long ago, in a profile) says so;
    /// one named by `--soundfont` does not need to.
    @Test func aMissingSoundFontSaysWhereItsNameCameFrom() throws {
        let missing = "/nonexistent-midiviz/none.sf2"
        let fromVariable = #expect(throws: AudioError.self) {
            try SoundFontLocator.locate(explicit: nil, environment: ["MIDIVIZ_SOUNDFONT": missing], defaults: [])
        }
        #expect(fromVariable?.description == "cannot read SoundFont \(missing): no such file (from $MIDIVIZ_SOUNDFONT)")
        let given = #expect(throws: AudioError.self) {
            try SoundFontLocator.locate(explicit: missing, environment: ["MIDIVIZ_SOUNDFONT": "/elsewhere.sf2"], defaults: [])
        }
        #expect(given?.description == "cannot read SoundFont \(missing): no such file")
    }
}
