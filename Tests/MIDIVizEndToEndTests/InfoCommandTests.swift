import Foundation
import Testing

/// `midiviz info` as a user runs it: exit codes, one-line errors, the summary and the JSON.
@Suite(.timeLimit(.minutes(30))) struct InfoCommandTests {
    static let fixture = TestEnvironment.packageRoot.appendingPathComponent("fixtures/c-major-arpeggio.mid").path

    @Test func missingFileExits66NamingIt() throws {
        let result = try ProcessRunner.midiviz(["info", "/nonexistent/song.mid"])
        #expect(result.status == 66 && !result.signaled)
        #expect(result.stderr == "midiviz: cannot read /nonexistent/song.mid: No such file or directory\n")
    }

    @Test func directoryExits66() throws {
        let result = try ProcessRunner.midiviz(["info", NSTemporaryDirectory()])
        #expect(result.status == 66)
        #expect(result.stderr.contains("not a regular file"))
    }

    /// The capabilities that let root read a file whatever its mode.
    static let readAnythingCapabilities = "-dac_override,-dac_read_search"

    /// setpriv (util-linux), when it can start a program without `readAnythingCapabilities`.
    static let setpriv: String? = {
        guard let path = ["/usr/bin/setpriv", "/bin/setpriv"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return nil }
        let dropped = InfoCommandTests.readAnythingCapabilities
        let check = try? ProcessRunner.run(URL(fileURLWithPath: path), ["--inh-caps=\(dropped)", "--bounding-set=\(dropped)", "/bin/true"])
        return check?.status == 0 ? path : nil
    }()

    /// Root reads a file of mode 0 anyway, so as root (as CI runs) midiviz runs under setpriv
    /// without the capabilities that allow that, and the mode holds for it as for anyone.
    @Test(
        .enabled(
            if: getuid() != 0 || InfoCommandTests.setpriv != nil,
            "as root this needs setpriv (util-linux) able to drop CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH"))
    func unreadableFileExits66() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("midiviz-unreadable-\(getpid()).mid")
        try #require(FileManager.default.createFile(atPath: url.path, contents: Data("MThd".utf8), attributes: [.posixPermissions: 0]))
        defer { try? FileManager.default.removeItem(at: url) }
        let arguments = ["info", url.path]
        let result: ProcessRunner.Result
        if getuid() == 0 {
            let setpriv = try #require(Self.setpriv)
            result = try ProcessRunner.run(
                URL(fileURLWithPath: setpriv),
                [
                    "--inh-caps=\(Self.readAnythingCapabilities)", "--bounding-set=\(Self.readAnythingCapabilities)",
                    TestEnvironment.binary.path,
                ] + arguments)
        } else {
            result = try ProcessRunner.midiviz(arguments)
        }
        #expect(result.status == 66 && !result.signaled, "\(result.stderr)")
        #expect(result.stderr == "midiviz: cannot read \(url.path): Permission denied\n")
    }

    @Test func textFileExits65NamingTheCause() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("midiviz-notes-\(getpid()).mid")
        try Data("just some notes\n".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let result = try ProcessRunner.midiviz(["info", url.path])
        #expect(result.status == 65)
        #expect(result.stderr == "midiviz: cannot read \(url.path): not a Standard MIDI File (no MThd header at the start)\n")
    }

    @Test func notesWithoutJSONIsAUsageError() throws {
        let result = try ProcessRunner.midiviz(["info", "--notes", Self.fixture])
        #expect(result.status == 64)
    }

    @Test func summaryDescribesTheFixture() throws {
        let result = try ProcessRunner.midiviz(["info", Self.fixture])
        #expect(result.status == 0, "\(result.stderr)")
        let text = result.stdoutText
        #expect(text.contains("format 1, 480 ticks per quarter note, 2 tracks"))
        #expect(text.contains("duration 0:08.000"))
        #expect(text.contains("tempo: 120.0 bpm at 0:00.000"))
        #expect(text.contains("time signatures: 4/4 at 0:00.000"))
        #expect(text.contains("\"C major arpeggio\": 32 notes, channel 1, program 0"))
    }

    @Test func jsonHasTheDocumentedShape() throws {
        let result = try ProcessRunner.midiviz(["info", "--json", "--notes", Self.fixture])
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        #expect(object["duration_s"] as? Double == 8.0)
        #expect((object["tempo_changes"] as? [[Double]]) == [[0, 120]])
        let notes = try #require(object["notes"] as? [[Double]])
        #expect(notes.count == 32)
        #expect(notes.first == [0, 0.25, 60, 100, 0, 1])
        let keys: [[Double]] = notes.map { [$0[0], $0[2], $0[4], $0[5]] }
        #expect(keys == keys.sorted { $0.lexicographicallyPrecedes($1) })
    }
}

@Suite(.timeLimit(.minutes(30))) struct TimeBaseTests {
    func notes(_ fixture: String) throws -> (notes: [[Double]], duration: Double) {
        let path = TestEnvironment.packageRoot.appendingPathComponent("fixtures/\(fixture)").path
        let result = try ProcessRunner.midiviz(["info", "--json", "--notes", path])
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        return (try #require(object["notes"] as? [[Double]]), try #require(object["duration_s"] as? Double))
    }

    @Test func smpteDivisionGivesSecondsFromFrames() throws {
        let song = try notes("smpte-25fps.mid")
        #expect(song.notes.map { $0[0] } == [0, 0.5, 1, 1.5])
        #expect(song.notes.map { $0[1] } == [0.25, 0.75, 1.25, 1.75])
    }

    @Test func tempoChangeMovesLaterNotes() throws {
        let song = try notes("tempo-map.mid")
        // 8 beats at 120 bpm (0.5 s), then 6 at 90 bpm (2/3 s).
        let firstBars: [Double] = (0..<8).map { Double($0) * 0.5 }
        let lastBars: [Double] = (0..<6).map { 4.0 + Double($0) * 2.0 / 3.0 }
        let expected = firstBars + lastBars
        #expect(song.notes.count == 14)
        for (note, start) in zip(song.notes, expected) { #expect(abs(note[0] - start) < 1e-5) }  // 90 bpm is stored as 666667 µs
        #expect(abs(song.duration - 8) < 1e-5)
    }
}
