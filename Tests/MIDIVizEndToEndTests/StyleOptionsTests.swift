import Foundation
import MIDIVizCore
import MIDIVizIO
import Testing

/// The roll and keyboard styles and the options around them, through the real binary.
@Suite(.timeLimit(.minutes(30))) struct StyleOptionsTests {
    static let arpeggio = TestEnvironment.packageRoot.appendingPathComponent("fixtures/c-major-arpeggio.mid").path

    func frame(_ arguments: [String]) throws -> Canvas {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("midiviz-style-\(getpid())-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let at = arguments.contains("--at") ? [] : ["--at", "1"]
        let result = try ProcessRunner.midiviz(["frame", Self.arpeggio, "-o", path, "--size", "480x270"] + at + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        return try PNGReader.read(path)
    }

    @Test func keyboardLightsTheKeyOfTheSoundingNote() throws {
        // The arpeggio spans F3–E5: with --keys song the piano is C3–B5, 21 white keys.
        let whiteKey = Float(480) / 21
        let span = PianoKeys.whiteKeySpan(60)
        let x = Int(((span.lower + span.upper) / 2 - Float(PianoKeys.whiteKeyIndex(48))) * whiteKey)
        let y = 262  // low on the white key, below the black keys
        let sounding = try frame(["--style", "keyboard", "--keys", "song", "--at", "0.1"]).color(x: x, y: y)
        let released = try frame(["--style", "keyboard", "--keys", "song", "--at", "0.3"]).color(x: x, y: y)
        #expect(sounding.r > 0.7 && sounding.g < 0.6 && sounding.b < 0.6, "C4 sounds at 0.1 s: its key is lit red (rainbow C), \(sounding)")
        #expect(released.r > 0.85 && released.g > 0.85 && released.b > 0.85, "at 0.3 s E4 sounds instead: C4 is white again, \(released)")
    }

    @Test func titleDefaultsToTheFirstTracksName() throws {
        let byDefault = try frame(["--style", "bars"])
        let named = try frame(["--style", "bars", "--title", "midiviz demo"])  // the fixture's track-0 name
        let none = try frame(["--style", "bars", "--title", ""])
        let other = try frame(["--style", "bars", "--title", "Another"])
        #expect(byDefault.pixelHash == named.pixelHash)
        #expect(byDefault.pixelHash != none.pixelHash && other.pixelHash != byDefault.pixelHash)
        // Text means bright pixels in the top-left corner, which bars leave empty.
        func brightInCorner(_ canvas: Canvas) -> Int {
            (0..<30).flatMap { y in (0..<240).map { canvas.color(x: $0, y: y) } }.filter { $0.luma > 0.5 }.count
        }
        #expect(brightInCorner(byDefault) > 20)
        #expect(brightInCorner(none) == 0)
    }

    @Test func chordNameAppearsInTheTopRightCorner() throws {
        func brightInCorner(_ canvas: Canvas) -> Int {
            (0..<40).flatMap { y in (380..<480).map { canvas.color(x: $0, y: y) } }.filter { $0.luma > 0.5 }.count
        }
        // The arpeggio plays one note at a time: no chord. The groove holds C E G at 10.95 s.
        let chordless = try frame(["--style", "keyboard", "--chords", "--at", "1.1"])
        #expect(brightInCorner(chordless) == 0, "one note at a time is no chord")
        let groove = TestEnvironment.packageRoot.appendingPathComponent("fixtures/demo-groove.mid").path
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("midiviz-chord-\(getpid()).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        for (chords, expectText) in [(true, true), (false, false)] {
            let result = try ProcessRunner.midiviz(
                ["frame", groove, "-o", path, "--size", "480x270", "--style", "bars", "--at", "10.95"]
                    + (chords ? ["--chords"] : []))
            #expect(result.status == 0, "\(result.stderr)")
            #expect((brightInCorner(try PNGReader.read(path)) > 20) == expectText, "--chords \(chords)")
        }
    }

    @Test(arguments: [(["--window", "0.1"], "--window"), (["--keys", "61"], "--keys"), (["--style", "tiles"], "--style")])
    func badStyleOptionsAreUsageErrors(arguments: [String], option: String) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("midiviz-bad-\(getpid()).png").path
        let result = try ProcessRunner.midiviz(["frame", Self.arpeggio, "-o", path, "--at", "1"] + arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(option), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
