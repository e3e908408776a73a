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

    /// A summary that cannot be written (a full disk, a closed stdout) is an error, exit 74,
    /// not a success with the JSON lost.
    @Test func aSummaryThatCannotBeWrittenIsExit74() throws {
        for (redirect, cause) in [("> /dev/full", "No space left on device"), (">&-", "Bad file descriptor")] {
            let result = try ProcessRunner.run(
                URL(fileURLWithPath: "/bin/sh"), ["-c", "\"$0\" info --json \"$1\" \(redirect)", TestEnvironment.binary.path, Self.fixture])
            #expect(result.status == 74, "\(redirect): \(result.stderr)")
            #expect(result.stderr == "midiviz: cannot write the summary of \(Self.fixture) to the standard output: \(cause)\n", "\(redirect)")
        }
    }

    /// Track names are read as the lyrics are (Windows-1252 when not UTF-8: curly quotes, the
    /// euro), and the summary shows their control characters as spaces: a name cannot retitle
    /// or clear the terminal. Nine key signatures say the ninth is there.
    @Test func namesAreDecodedAndShownSafely() throws {
        func meta(_ type: UInt8, _ data: [UInt8]) -> [UInt8] { [0x00, 0xFF, type, UInt8(data.count)] + data }
        func track(_ body: [UInt8]) -> [UInt8] {
            let body = body + [0x00, 0xFF, 0x2F, 0x00]
            return Array("MTrk".utf8) + (0..<4).map { UInt8(truncatingIfNeeded: body.count >> (24 - 8 * $0)) } + body
        }
        let keys: [UInt8] = (0..<9).flatMap { index -> [UInt8] in [0x60, 0xFF, 0x59, 0x02, UInt8(index % 8), 0x00] }
        let first = track(meta(0x03, [0x93] + Array("Price".utf8) + [0x94, 0x20, 0x35, 0x80]) + keys)
        let second = track(meta(0x03, Array("Song\u{1B}]0;pwned\u{07}\u{1B}[2J".utf8)) + [0x00, 0x90, 60, 100, 0x60, 0x80, 60, 0])
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("midiviz-names-\(getpid()).mid")
        try Data(Array("MThd".utf8) + [0, 0, 0, 6, 0, 1, 0, 2, 0, 96] + first + second).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let summary = try ProcessRunner.midiviz(["info", url.path])
        #expect(summary.status == 0, "\(summary.stderr)")
        #expect(summary.stdoutText.contains("0 \"\u{201C}Price\u{201D} 5\u{20AC}\": 0 notes"), "\(summary.stdoutText)")
        #expect(summary.stdoutText.contains("1 \"Song ]0;pwned  [2J\": 1 note,"), "\(summary.stdoutText)")
        #expect(!summary.stdoutText.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
        #expect(summary.stdoutText.contains(", … 1 more\n"), "\(summary.stdoutText)")
        let json = try ProcessRunner.midiviz(["info", "--json", url.path])
        let object = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        let names = (object["tracks"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
        #expect(names == ["\u{201C}Price\u{201D} 5\u{20AC}", "Song\u{1B}]0;pwned\u{07}\u{1B}[2J"], "JSON keeps the name as read")
        #expect((object["key_signatures"] as? [Any])?.count == 9)
    }

    /// 40,000 notes cross the batches the notes are written in; the document around them is the
    /// one `--json` writes alone, and holds every note once, in order.
    @Test func manyNotesAreWrittenInBatchesIntoTheSameDocument() throws {
        var body: [UInt8] = []
        for index in 0..<40_000 {
            body += [0x00, 0x90, UInt8(21 + index % 88), 100, 0x01, 0x80, UInt8(21 + index % 88), 0]
        }
        body += [0x00, 0xFF, 0x2F, 0x00]
        let track = Array("MTrk".utf8) + (0..<4).map { UInt8(truncatingIfNeeded: body.count >> (24 - 8 * $0)) } + body
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("midiviz-many-\(UUID().uuidString).mid")
        try Data(Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0, 96] + track).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let alone = try ProcessRunner.midiviz(["info", "--json", url.path])
        let withNotes = try ProcessRunner.midiviz(["info", "--json", "--notes", url.path])
        #expect(alone.status == 0 && withNotes.status == 0, "\(withNotes.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: withNotes.stdout) as? [String: Any])
        let notes = try #require(object["notes"] as? [[Double]])
        #expect(notes.count == 40_000)
        #expect(notes.enumerated().allSatisfy { index, note in note[2] == Double(21 + index % 88) && abs(note[0] - Double(index) / 192) < 1e-6 })
        // Taking the notes out leaves the bytes of the document without them.
        let text = withNotes.stdoutText
        let start = try #require(text.range(of: ",\"notes\":["))
        let end = try #require(text.range(of: "]],", range: start.upperBound..<text.endIndex))
        #expect(String(text[..<start.lowerBound]) + "," + String(text[end.upperBound...]) == alone.stdoutText)
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
