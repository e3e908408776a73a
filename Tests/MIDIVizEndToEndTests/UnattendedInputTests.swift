import Foundation
import Testing

/// Inputs an unattended run meets (issue 26), through the binary: a background image that is no
/// picture, names ffmpeg would take for protocols or options, a song named like an option, a
/// report in a folder that cannot be written, a long song's final mux under a short stall
/// timeout, a `.kar`'s headers.
@Suite(
    .enabled(if: VideoTools.available, "ffmpeg/ffprobe or a SoundFont missing: apt-get install ffmpeg timgm6mb-soundfont (scripts/setup does)"),
    .timeLimit(.minutes(30)))
struct UnattendedInputTests {
    static let arpeggio = TestEnvironment.path(of: "fixtures/c-major-arpeggio.mid")
    static let small = ["--size", "64x36", "--fps", "10", "--preroll", "0", "--soundfont", AudioTools.soundFont ?? ""]
    /// What `frame` takes of them.
    static let poster = ["--size", "64x36"]

    func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("midiviz-inputs-\(getpid())-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    func contents(_ folder: String) -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted() }

    /// A 64x36 picture of one colour, made by ffmpeg.
    func picture(_ path: String, color: String, format: String = "png") throws {
        let made = try ProcessRunner.run(
            URL(fileURLWithPath: VideoTools.ffmpeg!),
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "color=\(color):s=64x36", "-frames:v", "1", "-update", "1", "-f",
                format == "png" ? "image2" : "mjpeg", "file:" + path,
            ])
        #expect(made.status == 0, "\(made.stderr)")
    }

    /// The RGB of the pixel at (x, y) of a PNG, decoded by ffmpeg.
    func pixel(_ path: String, x: Int, y: Int, width: Int) throws -> [UInt8] {
        let rgb = try ProcessRunner.run(
            URL(fileURLWithPath: VideoTools.ffmpeg!), ["-v", "error", "-i", "file:" + path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]
        ).stdout
        let offset = (y * width + x) * 3
        return rgb.count >= offset + 3 ? Array(rgb[offset..<offset + 3]) : []
    }

    // MARK: A background image that is not a picture

    /// Each is refused before any work with one line naming the file and the cause: 65 for bad
    /// bytes, 66 for what cannot be read as a file. Nothing is written.
    @Test(arguments: [
        ("empty.png", Int32(65), "cannot use background image empty.png: it is empty"),
        ("text.png", 65, "cannot use background image text.png: not a picture ffmpeg can read (Invalid data found when processing input)"),
        ("cut.png", 65, "cannot use background image cut.png: a broken PNG ("),
        ("cut.jpg", 65, "cannot use background image cut.jpg: a truncated JPEG (its last scan has no end)"),
        ("folder.png", 66, "cannot read background image folder.png: it is a folder"),
        ("fifo.png", 66, "cannot read background image fifo.png: not a regular file (a device, FIFO or socket)"),
        ("missing.png", 66, "cannot read background image missing.png: no such file"),
    ])
    func aBackgroundImageThatIsNoPictureIsRefusedWithItsCause(name: String, status: Int32, message: String) throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try picture(dir + "/whole.png", color: "red")
        try picture(dir + "/whole.jpg", color: "red", format: "jpeg")
        let png = try Data(contentsOf: URL(fileURLWithPath: dir + "/whole.png"))
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: dir + "/whole.jpg"))
        _ = FileManager.default.createFile(atPath: dir + "/empty.png", contents: Data())
        _ = FileManager.default.createFile(atPath: dir + "/text.png", contents: Data("not a picture\n".utf8))
        _ = FileManager.default.createFile(atPath: dir + "/cut.png", contents: png.prefix(png.count / 2))
        _ = FileManager.default.createFile(atPath: dir + "/cut.jpg", contents: jpeg.prefix(jpeg.count * 2 / 3))
        try FileManager.default.createDirectory(atPath: dir + "/folder.png", withIntermediateDirectories: false)
        #expect(mkfifo(dir + "/fifo.png", 0o600) == 0)
        let before = contents(dir)
        for command in [["render", Self.arpeggio, "-o", "out.mp4"] + Self.small, ["frame", Self.arpeggio, "--at", "1", "-o", "out.png"] + Self.poster] {
            let result = try ProcessRunner.midiviz(command + ["--background-image", name], currentDirectory: URL(fileURLWithPath: dir))
            #expect(result.status == status && !result.signaled, "\(command[0]) \(name): \(result.status) \(result.stderr)")
            #expect(result.stderr.hasPrefix("midiviz: " + message) && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            #expect(!result.stderr.contains("Error marking filters"))
            #expect(contents(dir) == before, "nothing written, nothing left")
        }
    }

    // MARK: Names that are protocols or options to ffmpeg

    /// A picture named like a protocol, in the current folder and named relatively: the file
    /// is what is read (its red shows through), not a URL or standard input.
    @Test(arguments: ["pipe:0", "http:x.png", "file:y.png", "-x.png", "a%d.png"])
    func aBackgroundImageNamedLikeAProtocolIsReadAsAFile(name: String) throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try picture(dir + "/" + name, color: "red")
        try picture(dir + "/y.png", color: "blue")  // what `file:y.png` would be to ffmpeg
        let result = try ProcessRunner.midiviz(
            ["frame", Self.arpeggio, "--at", "0", "-o", "poster.png", "--background-dim", "0", "--background-image", "./" + name] + Self.poster,
            currentDirectory: URL(fileURLWithPath: dir))
        #expect(result.status == 0, "\(result.stderr)")
        let relative = try ProcessRunner.midiviz(
            ["frame", Self.arpeggio, "--at", "0", "-o", "poster2.png", "--background-dim", "0", "--background-image=" + name] + Self.poster,
            currentDirectory: URL(fileURLWithPath: dir))
        #expect(relative.status == 0, "\(relative.stderr)")
        for poster in ["poster.png", "poster2.png"] {
            // A corner the arpeggio leaves alone: the picture's red.
            let corner = try pixel(dir + "/" + poster, x: 63, y: 35, width: 64)
            #expect(corner.count == 3 && corner[0] > 200 && corner[1] < 40 && corner[2] < 40, "\(poster): \(corner)")
        }
    }

    /// Outputs named like protocols or options, relative to the current folder: each is written
    /// under its own name, a whole video of the song, and no other file appears.
    @Test(arguments: ["pipe:0", "http:x.mp4", "file:y.mp4", "-x.mp4"])
    func outputsNamedLikeProtocolsAreWrittenUnderTheirNames(name: String) throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = try ProcessRunner.midiviz(
            ["render", Self.arpeggio, "--output=" + name, "--to", "1", "--quiet"] + Self.small + (name == "pipe:0" ? ["--audio", "http:z.wav"] : []),
            currentDirectory: URL(fileURLWithPath: dir))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(contents(dir) == ([name] + (name == "pipe:0" ? ["http:z.wav"] : [])).sorted())
        let streams = try VideoTools.probe(dir + "/" + name)
        #expect(streams["video"]?.frames == 10 && abs((streams["audio"]?.duration ?? 0) - 1) < 0.05, "\(streams)")
    }

    /// `join` reads parts named like protocols as the files they are, and those whose path
    /// holds a newline (which ffmpeg's list of parts cannot hold: it failed, exit 1).
    @Test func joinReadsPartsNamedLikeProtocols() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let parts = ["pipe:0", "http:x.mp4", "new\nline.mp4"]
        for (index, part) in parts.enumerated() {
            let made = try ProcessRunner.midiviz(
                ["render", Self.arpeggio, "--segment", "\(index + 1)/3", "--output=" + part, "--quiet"] + Self.small,
                currentDirectory: URL(fileURLWithPath: dir))
            #expect(made.status == 0, "\(made.stderr)")
        }
        let whole = try ProcessRunner.midiviz(
            ["render", Self.arpeggio, "-o", "whole.mp4", "--quiet"] + Self.small, currentDirectory: URL(fileURLWithPath: dir))
        #expect(whole.status == 0, "\(whole.stderr)")
        try FileManager.default.createDirectory(atPath: dir + "/out\nput", withIntermediateDirectories: false)
        let joined = try ProcessRunner.midiviz(
            ["join", "--song", Self.arpeggio, "--output=out\nput/file:j.mp4", "--quiet"] + Self.small + ["--"] + parts,
            currentDirectory: URL(fileURLWithPath: dir))
        #expect(joined.status == 0, "\(joined.stderr)")
        #expect(try VideoTools.probe(dir + "/out\nput/file:j.mp4")["video"]?.frames == VideoTools.probe(dir + "/whole.mp4")["video"]?.frames)
        #expect(!contents(dir).contains("j.mp4") && contents(dir + "/out\nput") == ["file:j.mp4"], "\(contents(dir + "/out\nput"))")
    }

    // MARK: A song named like an option

    /// `render -dash.mid` printed the help and exited 0 (`-h` among the letters). A file name
    /// beginning with `-` is refused (64) with how to name it; after `--` it is rendered.
    @Test func aSongNamedLikeAnOptionIsRefusedOrRenderedAfterTheDashes() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.copyItem(atPath: Self.arpeggio, toPath: dir + "/-dash.mid")
        for arguments in [["render", "-dash.mid"], ["render", "-dash.mid", "--no-audio"], ["info", "-dash.mid"], ["render", "x.mid", "-o", "-x.mp4"]] {
            let refused = try ProcessRunner.midiviz(arguments, currentDirectory: URL(fileURLWithPath: dir))
            let name = arguments.first { $0.hasPrefix("-") && $0.contains(".") }!
            #expect(refused.status == 64, "\(arguments): \(refused.status) \(refused.stderr)")
            #expect(refused.stderr.hasPrefix("midiviz: \(name) begins with '-'") && refused.stderr.contains("./\(name)"), "\(refused.stderr)")
            #expect(refused.stdout.isEmpty, "no help")
        }
        let rendered = try ProcessRunner.midiviz(
            ["render", "--to", "1", "--quiet"] + Self.small + ["--", "-dash.mid"], currentDirectory: URL(fileURLWithPath: dir))
        #expect(rendered.status == 0, "\(rendered.stderr)")
        #expect(try VideoTools.probe(dir + "/-dash.mp4")["video"]?.frames == 10)
        let dotted = try ProcessRunner.midiviz(["info", "./-dash.mid", "--json"], currentDirectory: URL(fileURLWithPath: dir))
        #expect(dotted.status == 0 && dotted.stdoutText.contains("\"note_count\":32"), "\(dotted.stderr)")
        // Negative numbers are values, not names.
        let quieter = try ProcessRunner.midiviz(
            ["render", Self.arpeggio, "--no-video", "--audio", dir + "/q.wav", "--to", "1", "--loudness", "-23.5", "--quiet"] + Self.small)
        #expect(quieter.status == 0 && FileManager.default.fileExists(atPath: dir + "/q.wav"), "\(quieter.stderr)")
    }

    // MARK: A report that cannot be written

    /// A report in a folder that does not exist or cannot be written: exit 73 (cannot create),
    /// naming the path, before any song is rendered.
    @Test(arguments: ["missing/r.json", "file/r.json"])
    func aReportThatCannotBeWrittenIsCannotCreate(report: String) throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.copyItem(atPath: Self.arpeggio, toPath: dir + "/a.mid")
        _ = FileManager.default.createFile(atPath: dir + "/file", contents: Data("x".utf8))
        for flag in ["--report", "--junit"] {
            let result = try ProcessRunner.midiviz(
                ["batch", dir + "/a.mid", "--output-dir", dir + "/videos", flag, dir + "/" + report] + Self.small)
            #expect(result.status == 73, "\(flag) \(report): \(result.status) \(result.stderr)")
            #expect(result.stderr.hasPrefix("midiviz: cannot create \(dir)/\(report)"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/videos"), "no song rendered")
        }
    }

    // MARK: The final mux of a long song

    /// A 3-minute song (normalized, so its sound is encoded to AAC by an ffmpeg of its own and
    /// put with the video at the end) at a tiny size under `--stall-timeout 1`: the frames are done
    /// long before the sound, whose encoding then takes longer than a second, but ffmpeg reports
    /// progress all along, so the watchdog lets it finish; the progress lines cover the wait.
    @Test func aLongMuxThatProgressesOutlastsTheStallTimeout() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // 90 notes of 1.5 s, one every 2 s: 180 s.
        var events: [UInt8] = []
        for index in 0..<90 {
            let pitch = UInt8(60 + index % 12)
            events += (index == 0 ? [0x00] : [0x60]) + [0x90, pitch, 90] + [0x82, 0x20, 0x80, pitch, 0]
        }
        events += [0x00, 0xFF, 0x2F, 0x00]
        let song =
            Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0, 96] + Array("MTrk".utf8) + withUnsafeBytes(of: UInt32(events.count).bigEndian, Array.init)
            + events
        _ = FileManager.default.createFile(atPath: dir + "/long.mid", contents: Data(song))
        let result = try ProcessRunner.midiviz(
            [
                "render", dir + "/long.mid", "-o", dir + "/long.mp4", "--size", "32x18", "--fps", "5", "--stall-timeout", "1", "--progress", "json",
                "--soundfont", AudioTools.soundFont ?? "",
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let streams = try VideoTools.probe(dir + "/long.mp4")
        #expect(
            abs((streams["video"]?.duration ?? 0) - 180) < 5 && abs((streams["audio"]?.duration ?? 0) - (streams["video"]?.duration ?? 0)) < 0.1, "\(streams)")
        let lines = result.stdoutText.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let muxing = lines.filter { $0["stage"] as? String == "muxing" }
        #expect(!muxing.isEmpty, "the mux shows in the progress")
        #expect(muxing.allSatisfy { abs(($0["duration_s"] as? Double ?? 0) - (streams["video"]?.duration ?? 0)) < 0.2 })
        #expect(lines.last?["done"] as? Bool == true)
    }

    // MARK: A .kar's headers

    /// `@K`, `@V`, `@I`, `@L`, `@T` are headers, not words: `info` lists only the sung
    /// syllables, and the title a render shows is the first `@T`.
    @Test func karaokeHeadersAreNotSungAndTheFirstTitleHeaderIsTheTitle() throws {
        let song = TestEnvironment.path(of: "fixtures/karaoke-headers.kar")
        let info = try ProcessRunner.midiviz(["info", song, "--json"])
        #expect(info.status == 0)
        let object = try JSONSerialization.jsonObject(with: info.stdout) as? [String: Any]
        let syllables = (object?["lyrics"] as? [[Any]])?.compactMap { $0.last as? String }
        #expect(syllables == ["Twin", "kle ", "twin", "kle"])
        #expect(object?["title"] as? String == "Twinkle Twinkle")
        let text = try ProcessRunner.midiviz(["info", song])
        #expect(text.stdoutText.contains("  title: Twinkle Twinkle (Jane Taylor)\n") && !text.stdoutText.contains("@"), "\(text.stdoutText)")
        // The poster shows the title: the same pixels as with --title given.
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let look = ["--at", "0.2", "--size", "320x180"]
        #expect(try ProcessRunner.midiviz(["frame", song, "-o", dir + "/default.png"] + look).status == 0)
        #expect(try ProcessRunner.midiviz(["frame", song, "-o", dir + "/given.png", "--title", "Twinkle Twinkle"] + look).status == 0)
        #expect(try ProcessRunner.midiviz(["frame", song, "-o", dir + "/none.png", "--title", ""] + look).status == 0)
        let given = try Data(contentsOf: URL(fileURLWithPath: dir + "/given.png"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/default.png")) == given)
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/none.png")) != given, "the title is drawn")
    }

    /// A damaged file's warnings on the terminal: the first 20 and how many more, not thousands
    /// of lines in a batch's log (here 30, each naming its own offset).
    @Test func aDamagedFilesWarningsAreCappedOnTheTerminal() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var body: [UInt8] = []
        for _ in 0..<30 { body += [0x00, 0xFF, 0x51, 0x03, 0, 0, 0] }  // a tempo of 0, ignored
        body += [0x00, 0x90, 60, 100, 0x60, 0x80, 60, 0, 0x00, 0xFF, 0x2F, 0x00]
        let length = [UInt8(body.count >> 24), UInt8(body.count >> 16 & 0xFF), UInt8(body.count >> 8 & 0xFF), UInt8(body.count & 0xFF)]
        let song: [UInt8] = Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0, 96] + Array("MTrk".utf8) + length + body
        try Data(song).write(to: URL(fileURLWithPath: dir + "/tempos.mid"))
        let result = try ProcessRunner.midiviz([
            "render", dir + "/tempos.mid", "-o", dir + "/tempos.mp4", "--no-audio", "--to", "0.5", "--size", "64x36", "--fps", "10",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let warned = result.stderr.split(separator: "\n").filter { $0.hasPrefix("midiviz: warning: ") }
        #expect(warned.count == 21, "\(result.stderr)")
        #expect(warned.prefix(20).allSatisfy { $0.contains("tempo of 0 microseconds") })
        #expect(warned.last?.hasSuffix("… 10 more (`midiviz info --json SONG` lists a song's)") == true, "\(warned.last ?? "")")
    }

    /// A file cut short before its first note renders a blank video, as it must, but says so:
    /// on the terminal and in a batch's report, where it still counts as rendered.
    @Test func aSongWithNoNotesIsRenderedWithAWarning() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let body: [UInt8] = [0x00, 0xFF, 0x51, 0x03, 0x07, 0xA1, 0x20, 0x00, 0x90]  // a tempo, then the file ends
        let song: [UInt8] = Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0, 96] + Array("MTrk".utf8) + [0, 0, 0, UInt8(body.count + 40)] + body
        try Data(song).write(to: URL(fileURLWithPath: dir + "/cut.mid"))
        let small = ["--no-audio", "--size", "64x36", "--fps", "10"]
        let warning = "the song has no notes: none are drawn, and none sound"
        let render = try ProcessRunner.midiviz(["render", dir + "/cut.mid", "-o", dir + "/cut.mp4", "--to", "0.5"] + small)
        #expect(render.status == 0, "\(render.stderr)")
        #expect(render.stderr.contains("midiviz: warning: \(warning)"), "\(render.stderr)")
        let batch = try ProcessRunner.midiviz(["batch", dir + "/cut.mid", "--output-dir", dir + "/out", "--report", dir + "/r.json", "--quiet"] + small)
        #expect(batch.status == 0, "\(batch.stderr)")
        let report = try String(contentsOfFile: dir + "/r.json", encoding: .utf8)
        #expect(report.contains(warning), "\(report)")
        let lively = try ProcessRunner.midiviz(["render", Self.arpeggio, "-o", dir + "/a.mp4", "--to", "0.5"] + small)
        #expect(lively.status == 0 && !lively.stderr.contains("no notes"), "\(lively.stderr)")
    }

    /// `render`, `frame` and a batch's report give a song's warnings in one order: what the
    /// options leave out first, then what the loader repaired.
    @Test func theWarningsComeInOneOrder() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // E2 and C4 sound, then the file ends inside a note-on.
        let body: [UInt8] = [0, 0x90, 40, 100, 0, 0x90, 60, 100, 0x30, 0x80, 40, 0, 0, 0x80, 60, 0, 0x10, 0x90, 62]
        let song: [UInt8] = Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0, 96] + Array("MTrk".utf8) + [0, 0, 0, UInt8(body.count + 20)] + body
        try Data(song).write(to: URL(fileURLWithPath: dir + "/cut.mid"))
        let options = ["--keys", "C4-B4", "--size", "64x36"]
        func warnings(_ run: ProcessRunner.Result) -> [String] {
            run.stderr.split(separator: "\n").compactMap { $0.hasPrefix("midiviz: warning: ") ? String($0.dropFirst(18)) : nil }
        }
        let render = try ProcessRunner.midiviz(["render", dir + "/cut.mid", "-o", dir + "/cut.mp4", "--no-audio", "--fps", "10"] + options)
        #expect(render.status == 0, "\(render.stderr)")
        let said = warnings(render)
        #expect(said.count >= 2 && said.first == "--keys C4-B4: 1 note outside the keys, not drawn", "\(said)")
        #expect(said.dropFirst().allSatisfy { $0.hasPrefix("file is truncated") || $0.hasPrefix("track 0") }, "\(said)")
        let frame = try ProcessRunner.midiviz(["frame", dir + "/cut.mid", "--at", "0.1", "-o", dir + "/cut.png"] + options)
        #expect(frame.status == 0 && warnings(frame) == said, "\(frame.stderr)")
        let batch = try ProcessRunner.midiviz(
            ["batch", dir + "/cut.mid", "--output-dir", dir + "/out", "--report", dir + "/r.json", "--quiet", "--no-audio", "--fps", "10"] + options)
        #expect(batch.status == 0, "\(batch.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/r.json"))) as? [String: Any]
        let songs = report?["songs"] as? [[String: Any]]
        #expect(songs?.first?["warnings"] as? [String] == said, "\(String(describing: songs))")
    }
}
