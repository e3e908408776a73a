import Foundation
import Testing
import ZIPFoundation

/// Sheet music and scores through the binary: exit codes, messages and leftovers when a tool is
/// missing, when a score is garbage, when a tool hangs; and what works with the tools.
@Suite(.timeLimit(.minutes(30)))
struct SheetCommandTests {
    /// MuseScore 3 on PATH, and python3 that imports verovio.
    static let toolsAvailable: Bool = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        func onPath(_ tool: String) -> String? {
            path.split(separator: ":").map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        }
        guard onPath("musescore3") != nil, let python = onPath("python3") else { return false }
        return (try? ProcessRunner.run(URL(fileURLWithPath: python), ["-c", "import verovio"]).status) == 0
    }()
    static let missing = "needs musescore3 (apt) and python3 with verovio (pip, scripts/requirements-sheet.txt); scripts/setup installs them"

    static let scale = TestEnvironment.path(of: "fixtures/sheet/c-major-scale.musicxml")
    static let arpeggio = TestEnvironment.path(of: "fixtures/c-major-arpeggio.mid")

    func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("midiviz-sheet-\(getpid())-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    func contents(_ folder: String) -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted() }

    @Test func aMissingMuseScoreIsExit69NamingThePackageForScoresOnly() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let gone = ["MIDIVIZ_MUSESCORE": folder + "/no-musescore3", "MIDIVIZ_PYTHON": folder + "/no-python3"]
        let info = try ProcessRunner.midiviz(["info", Self.scale], environment: gone)
        #expect(info.status == 69)
        #expect(info.stderr.contains("c-major-scale.musicxml") && info.stderr.contains("musescore3"), "\(info.stderr)")
        let poster = folder + "/poster.png"
        let sheet = try ProcessRunner.midiviz(["frame", Self.arpeggio, "--at", "1", "--size", "64x36", "--sheet", "-o", poster], environment: gone)
        #expect(sheet.status == 69)
        #expect(sheet.stderr.contains("verovio") || sheet.stderr.contains("musescore3"), "\(sheet.stderr)")
        #expect(contents(folder).isEmpty, "nothing written")
        // Without --sheet, MIDI input needs neither.
        let plain = try ProcessRunner.midiviz(["frame", Self.arpeggio, "--at", "1", "--size", "64x36", "-o", poster], environment: gone)
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(contents(folder) == ["poster.png"])
    }

    @Test func aMissingVerovioIsExit69NamingThePackage() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let sheet = try ProcessRunner.midiviz(
            ["frame", Self.arpeggio, "--at", "1", "--size", "64x36", "--style", "sheet", "-o", folder + "/poster.png"],
            environment: ["MIDIVIZ_PYTHON": folder + "/no-python3"])
        #expect(sheet.status == 69)
        #expect(sheet.stderr.contains("c-major-arpeggio.mid") && sheet.stderr.contains("pip install verovio"), "\(sheet.stderr)")
        #expect(contents(folder).isEmpty)
    }

    @Test(
        .enabled(if: toolsAvailable, Comment(rawValue: missing)),
        arguments: [
            "garbage.musicxml", "garbage.mscz", "empty.mxl", "no-notes.musicxml", "cut-short.musicxml", "cut-short.mxl", "zipped.musicxml",
            "timewise.musicxml", "timewise.mxl", "no-parts.musicxml", "no-parts.mxl",
        ])
    func aScoreThatIsNoneIsExit65NamingItWithNothingLeft(name: String) throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/" + name
        let bytes: [UInt8] =
            switch name {
            case "garbage.mscz": (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }
            case "empty.mxl": []
            case "no-notes.musicxml":
                Array(
                    #"<?xml version="1.0"?><score-partwise version="3.1"><part-list><score-part id="P1"><part-name>x</part-name></score-part></part-list><part id="P1"><measure number="1"/></part></score-partwise>"#
                        .utf8)
            // MuseScore read it up to the cut, 8 of its 24 notes, and said nothing.
            case "cut-short.musicxml": Array(try Self.cutShortScore())
            // The same in a whole ZIP archive: MuseScore read it likewise, as did midiviz.
            case "cut-short.mxl": try Self.compressedScore(Self.cutShortScore())
            // A whole .mxl under a plain MusicXML's name; a score-timewise MusicXML (MuseScore
            // found no notes in it).
            case "zipped.musicxml": try Self.compressedScore(Data(contentsOf: URL(fileURLWithPath: Self.scale)))
            case "timewise.musicxml": Array(Self.timewiseScore)
            // The same compressed: MuseScore found no notes in it, and that was all midiviz said.
            case "timewise.mxl": try Self.compressedScore(Self.timewiseScore)
            // MuseScore crashed on it (exit 1, "killed by signal 11"), as on one with an empty part list.
            case "no-parts.musicxml": Array(#"<?xml version="1.0"?><score-partwise version="3.1"/>"#.utf8)
            case "no-parts.mxl": try Self.compressedScore(Data(#"<?xml version="1.0"?><score-partwise version="3.1"><part-list/></score-partwise>"#.utf8))
            default: Array("this is not a score\n".utf8)
            }
        FileManager.default.createFile(atPath: input, contents: Data(bytes))
        let poster = try ProcessRunner.midiviz(["frame", input, "--at", "0", "--size", "64x36", "-o", folder + "/poster.png"])
        #expect(poster.status == 65, "\(poster.stderr)")
        #expect(poster.stderr.contains(name), "\(poster.stderr)")
        if name.hasPrefix("cut-short") { #expect(poster.stderr.contains("not well-formed XML (line 3): cut short or damaged"), "\(poster.stderr)") }
        if name == "zipped.musicxml" { #expect(poster.stderr.contains("a ZIP archive, not XML: a compressed score is named .mxl"), "\(poster.stderr)") }
        if name.hasPrefix("timewise") { #expect(poster.stderr.contains("score-timewise MusicXML, which MuseScore 3 does not read"), "\(poster.stderr)") }
        if name.hasPrefix("no-") { #expect(poster.stderr.contains("a MusicXML score with no notes in it"), "\(poster.stderr)") }
        let video = try ProcessRunner.midiviz(["render", input, "--size", "64x36", "--fps", "10", "--no-audio", "-o", folder + "/video.mp4"])
        #expect(video.status == 65, "\(video.stderr)")
        #expect(contents(folder) == [name], "only the input is left")
        #expect(FileManager.default.contents(atPath: input) == Data(bytes), "the input is untouched")
    }

    /// An archive's score is the file its container names: other XML in it (a template with no
    /// notes, a timewise file) is not read as the score (it refused the archive, exit 65).
    @Test(.enabled(if: toolsAvailable, Comment(rawValue: missing)))
    func anArchiveIsReadByTheScoreItsContainerNames() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let archive = try Archive(accessMode: .create)
        let container = Data(
            #"<?xml version="1.0" encoding="UTF-8"?><container><rootfiles><rootfile full-path="music/score.musicxml"/></rootfiles></container>"#.utf8)
        let blank = Data(#"<?xml version="1.0"?><score-partwise version="4.0"><part-list/></score-partwise>"#.utf8)
        for (path, data) in [
            ("META-INF/container.xml", container), ("music/score.musicxml", try Data(contentsOf: URL(fileURLWithPath: Self.scale))),
            ("templates/blank.musicxml", blank), ("templates/timewise.musicxml", Self.timewiseScore),
        ] {
            try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        try #require(archive.data).write(to: URL(fileURLWithPath: folder + "/extra.mxl"))
        let info = try ProcessRunner.midiviz(["info", folder + "/extra.mxl"])
        #expect(info.status == 0 && info.stdoutText.contains("8 notes"), "\(info.stderr)")
    }

    /// A score-timewise MusicXML: one part, one measure, one note.
    static let timewiseScore = Data(
        #"<?xml version="1.0"?><score-timewise version="3.1"><part-list><score-part id="P1"><part-name>x</part-name></score-part></part-list><measure number="1"><part id="P1"><note><pitch><step>C</step><octave>4</octave></pitch><duration>1</duration></note></part></measure></score-timewise>"#
            .utf8)

    /// The first 2,000 bytes of a score.
    static func cutShortScore() throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: TestEnvironment.path(of: "fixtures/sheet/pickup-tempo.musicxml"))).prefix(2000)
    }

    /// A compressed MusicXML file (`.mxl`) holding `score` as `score.musicxml`.
    static func compressedScore(_ score: Data) throws -> [UInt8] {
        let archive = try Archive(accessMode: .create)
        let container = Data(
            #"<?xml version="1.0" encoding="UTF-8"?><container><rootfiles><rootfile full-path="score.musicxml"/></rootfiles></container>"#.utf8)
        for (path, data) in [("META-INF/container.xml", container), ("score.musicxml", score)] {
            try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        return [UInt8](try #require(archive.data))
    }

    @Test(.enabled(if: toolsAvailable, Comment(rawValue: missing)))
    func aHangingToolIsStoppedWithinItsTimeLimit() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let hanging = folder + "/musescore3"
        FileManager.default.createFile(atPath: hanging, contents: Data("#!/bin/sh\nexec sleep 60\n".utf8))
        chmod(hanging, 0o755)
        let started = Date()
        let result = try ProcessRunner.midiviz(
            ["frame", Self.scale, "--at", "0", "--size", "64x36", "-o", folder + "/poster.png"],
            environment: ["MIDIVIZ_MUSESCORE": hanging, "MIDIVIZ_SCORE_TIMEOUT": "2"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("c-major-scale.musicxml") && result.stderr.contains("within 2 s"), "\(result.stderr)")
        #expect(Date().timeIntervalSince(started) < 30)
        #expect(contents(folder) == ["musescore3"])
    }

    /// A score tool that crashes is a tool failure (exit 1) naming the tool and the signal, not
    /// a file it cannot read (65): a hostile pass found a valid MIDI file called unreadable.
    @Test(.enabled(if: toolsAvailable, Comment(rawValue: missing)))
    func aCrashingToolIsNotBlamedOnTheFile() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let crashing = folder + "/musescore3"
        FileManager.default.createFile(atPath: crashing, contents: Data("#!/bin/sh\nkill -SEGV $$\n".utf8))
        chmod(crashing, 0o755)
        let environment = ["MIDIVIZ_MUSESCORE": crashing, "MIDIVIZ_CACHE": "off"]
        let score = try ProcessRunner.midiviz(["info", Self.scale], environment: environment)
        #expect(score.status == 1, "\(score.stderr)")
        #expect(score.stderr.contains("MuseScore 3 (\(crashing)) crashed (killed by signal 11) while reading it"), "\(score.stderr)")
        let arpeggio = TestEnvironment.path(of: "fixtures/c-major-arpeggio.mid")
        let sheet = try ProcessRunner.midiviz(
            ["frame", arpeggio, "--at", "1", "--sheet", "--size", "64x36", "-o", folder + "/p.png"], environment: environment)
        #expect(sheet.status == 1 && sheet.stderr.contains("crashed (killed by signal 11) while notating it"), "\(sheet.stderr)")
        #expect(contents(folder) == ["musescore3"])
    }

    @Test(.enabled(if: toolsAvailable, Comment(rawValue: missing)))
    func aScoreAndASheetBandRender() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let info = try ProcessRunner.midiviz(["info", Self.scale, "--json"])
        #expect(info.status == 0, "\(info.stderr)")
        for (name, arguments) in [("band.png", ["--style", "keyboard", "--sheet"]), ("sheet.png", ["--style", "sheet"])] {
            let poster = try ProcessRunner.midiviz(["frame", Self.scale, "--at", "2", "--size", "320x180", "-o", folder + "/" + name] + arguments)
            #expect(poster.status == 0, "\(poster.stderr)")
        }
        #expect(contents(folder) == ["band.png", "sheet.png"])
    }

    /// A whole render with the band, and a batch that finds a score in a folder.
    @Test(.enabled(if: toolsAvailable, Comment(rawValue: missing)))
    func aScoreRendersAndBatchFindsIt() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let small = ["--size", "160x90", "--fps", "10", "--no-audio"]
        let video = try ProcessRunner.midiviz(["render", Self.scale, "--style", "keyboard", "--sheet", "-o", folder + "/scale.mp4"] + small)
        #expect(video.status == 0, "\(video.stderr)")
        let songs = folder + "/songs"
        try FileManager.default.createDirectory(atPath: songs, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.scale, toPath: songs + "/scale.musicxml")
        let batch = try ProcessRunner.midiviz(["batch", songs, "--output-dir", folder + "/videos", "--style", "sheet"] + small)
        #expect(batch.status == 0, "\(batch.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder + "/videos/scale.mp4"))
    }

    /// An engraving whose numbers no page has (another tool, a tampered cache entry) is a score
    /// Verovio cannot engrave (65), not a crash converting them to pixels.
    @Test(
        .enabled(if: toolsAvailable, Comment(rawValue: missing)),
        arguments: [
            #"{"width": 1e308, "height": 5, "anchors": [], "staffSpace": 0, "heads": []}"#,
            #"{"width": 500, "height": 50, "anchors": [[0, 1e300], [1, -1e300]], "staffSpace": 1, "heads": []}"#,
            #"{"width": 500, "height": 50, "anchors": [[0, 0], [1, 10]], "staffSpace": -1e300, "heads": []}"#,
            #"{"width": 500, "height": 50, "anchors": [[0, 0], [1e-300, 1e12]], "staffSpace": 1, "heads": []}"#,
            #"{"width": 500, "height": 50, "anchors": [[1, 0], [0, 10]], "staffSpace": 1, "heads": []}"#,
        ])
    func anEngravingOutOfAnyPagesRangeIsRefused(layout: String) throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Called as `python3 -c SCRIPT SCORE SVG`: prints the layout and writes an SVG.
        let python = folder + "/python3"
        try "#!/bin/sh\nprintf '%s' '\(layout)'\necho '<svg/>' > \"$4\"\n".write(toFile: python, atomically: true, encoding: .utf8)
        chmod(python, 0o755)
        let poster = try ProcessRunner.midiviz(
            ["frame", Self.arpeggio, "--at", "1", "--size", "64x36", "--sheet", "-o", folder + "/poster.png"],
            environment: ["MIDIVIZ_PYTHON": python, "MIDIVIZ_CACHE": "off"])
        #expect(poster.status == 65 && !poster.signaled, "\(poster.stderr)")
        #expect(poster.stderr.contains("c-major-arpeggio.mid") && poster.stderr.contains("Verovio cannot engrave it"), "\(poster.stderr)")
        #expect(contents(folder) == ["python3"])
    }

    /// A tool variable naming a folder, or a tool that fails, is said to be the tool's doing; a
    /// bare name is looked up on PATH; a TMPDIR that is not there falls back to /tmp.
    @Test func aToolVariableThatNamesNoProgramSaysSo() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (variable, words) in [
            ("MIDIVIZ_MUSESCORE", "MIDIVIZ_MUSESCORE=\(folder) names no program"), ("MIDIVIZ_FFMPEG", "MIDIVIZ_FFMPEG=\(folder) names no program"),
        ] {
            let arguments = variable == "MIDIVIZ_FFMPEG" ? ["render", Self.arpeggio, "-o", folder + "/v.mp4"] : ["info", Self.scale]
            let run = try ProcessRunner.midiviz(arguments, environment: [variable: folder, "MIDIVIZ_CACHE": "off"])
            #expect(run.status == 69 && run.stderr.contains(words), "\(run.stderr)")
        }
        // A program that fails even to say its version is not MuseScore 3: the score is not blamed
        // (it was "not a score MuseScore 3 (/bin/false) can read", exit 65), nor the MIDI file
        // it notates for the sheet music.
        let failing = try ProcessRunner.midiviz(["info", Self.scale], environment: ["MIDIVIZ_MUSESCORE": "/bin/false", "MIDIVIZ_CACHE": "off"])
        #expect(
            failing.status == 69 && failing.stderr.contains("MuseScore 3 (/bin/false) failed while reading it, and cannot say its version"), "\(failing.stderr)"
        )
        let sheet = try ProcessRunner.midiviz(
            ["frame", Self.arpeggio, "--at", "1", "--size", "64x36", "--sheet", "-o", folder + "/poster.png"],
            environment: ["MIDIVIZ_MUSESCORE": "/bin/false", "MIDIVIZ_CACHE": "off"])
        #expect(sheet.status == 69 && sheet.stderr.contains("MuseScore 3 (/bin/false) failed while notating it"), "\(sheet.stderr)")
        #expect(contents(folder).isEmpty)
    }

    /// A time limit for the score tools that is not a number of seconds above 0 is refused before
    /// any tool runs (it was 120 s, unsaid), for a score read and for sheet music engraved.
    @Test(arguments: ["10m", "0", "-5", "nan", "inf", "1e999"])
    func aToolTimeLimitThatIsNoNumberOfSecondsIsRefused(value: String) throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for arguments in [["info", Self.scale], ["frame", Self.arpeggio, "--at", "1", "--size", "64x36", "--sheet", "-o", folder + "/poster.png"]] {
            let run = try ProcessRunner.midiviz(arguments, environment: ["MIDIVIZ_SCORE_TIMEOUT": value, "MIDIVIZ_CACHE": "off"])
            #expect(run.status == 69 && !run.signaled, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("MIDIVIZ_SCORE_TIMEOUT=\(value) is not a number of seconds above 0"), "\(arguments): \(run.stderr)")
        }
        #expect(contents(folder).isEmpty)
    }

    /// A tool named without a path, a TMPDIR that is not there, a time limit in seconds with
    /// spaces around it, a blank one (as unset): the tools run.
    @Test(.enabled(if: toolsAvailable, Comment(rawValue: missing)))
    func aToolFoundByNameOrWithoutTMPDIRRuns() throws {
        for environment in [
            ["MIDIVIZ_MUSESCORE": "musescore3"], ["TMPDIR": "/nonexistent"], ["MIDIVIZ_SCORE_TIMEOUT": " 30 "], ["MIDIVIZ_SCORE_TIMEOUT": "  "],
        ] {
            let run = try ProcessRunner.midiviz(["info", Self.scale], environment: environment.merging(["MIDIVIZ_CACHE": "off"]) { $1 })
            #expect(run.status == 0 && run.stdoutText.contains("notes"), "\(environment): \(run.stderr)")
        }
    }
}
