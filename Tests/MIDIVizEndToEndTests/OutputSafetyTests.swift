import Foundation
import Testing

/// The outputs through the binary, tried as a hostile user would: nothing is lost, nothing
/// partial is left, nothing waits forever.
@Suite(
    .enabled(if: VideoTools.available, "ffmpeg/ffprobe or a SoundFont missing: apt-get install ffmpeg timgm6mb-soundfont (scripts/setup does)"),
    .timeLimit(.minutes(30)))
struct OutputSafetyTests {
    static let arpeggio = TestEnvironment.path(of: "fixtures/c-major-arpeggio.mid")
    static let small = ["--size", "160x90", "--fps", "10", "--preroll", "0", "--soundfont", AudioTools.soundFont ?? ""]

    func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("midiviz-safety-\(getpid())-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    func contents(_ folder: String) -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted() }

    @Test(arguments: [["-o", "SONG"], ["--no-video", "--audio", "SONG"], ["-o", "x.wav", "--audio", "x.wav"]])
    func outputsThatWouldLoseDataAreUsageErrors(arguments: [String]) throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let song = folder + "/song.mid"
        try FileManager.default.copyItem(atPath: Self.arpeggio, toPath: song)
        let result = try ProcessRunner.midiviz(
            ["render", song] + Self.small + arguments.map { $0 == "SONG" ? song : $0 },
            currentDirectory: URL(fileURLWithPath: folder))
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("midiviz: refusing to write") && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: song)) == Data(contentsOf: URL(fileURLWithPath: Self.arpeggio)))
        #expect(contents(folder) == ["song.mid"])
    }

    /// Found by the options fuzzer: a one-character output name crashed (Foundation's
    /// `deletingLastPathComponent` traps on it). Relative names in the current folder, and
    /// outputs spelled with a trailing slash or a doubled one, are written where they name.
    @Test(arguments: [["-o", "a"], ["-o", "./b", "--audio", "c"], ["--no-video", "--frames-dir", "d/"], ["-o", "e//f.mp4"]])
    func shortAndOddlySpelledNamesAreWritten(arguments: [String]) throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/e", withIntermediateDirectories: false)
        let result = try ProcessRunner.midiviz(
            ["render", Self.arpeggio, "--to", "0.5", "--quiet"] + Self.small + arguments,
            currentDirectory: URL(fileURLWithPath: folder))
        #expect(result.status == 0, "\(result.stderr)")
        let written = ["a": "a", "./b": "b", "c": "c", "d/": "d", "e//f.mp4": "e"]
        let expected = (arguments.compactMap { written[$0] } + (arguments.contains("e//f.mp4") ? [] : ["e"])).sorted()
        #expect(contents(folder) == expected)
        if arguments.contains("e//f.mp4") { #expect(contents(folder + "/e") == ["f.mp4"]) }
        if arguments.contains("d/") { #expect(contents(folder + "/d").count == 5) }
    }

    @Test func aFIFOOrAFolderIsNeverReplaced() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(mkfifo(folder + "/poster.png", 0o644) == 0)
        let frame = try ProcessRunner.midiviz(["frame", Self.arpeggio, "--at", "1", "-o", folder + "/poster.png"])
        #expect(frame.status == 73, "\(frame.stderr)")
        var status = stat()
        #expect(stat(folder + "/poster.png", &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
        try FileManager.default.createDirectory(atPath: folder + "/out.mp4", withIntermediateDirectories: false)
        let render = try ProcessRunner.midiviz(["render", Self.arpeggio, "-o", folder + "/out.mp4"] + Self.small)
        #expect(render.status == 73)
        #expect(render.stderr == "midiviz: cannot write \(folder)/out.mp4: it is a folder\n")
        #expect(contents(folder) == ["out.mp4", "poster.png"])
    }

    /// ffmpeg failing after the sound and frames are made: the new WAV and frames do not
    /// replace the old ones; no log or temporary is left anywhere, nor the folders made to hold
    /// a new frames folder.
    @Test func aFailedRunCommitsNothing() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/tmp", withIntermediateDirectories: false)
        try FileManager.default.createDirectory(atPath: folder + "/frames", withIntermediateDirectories: false)
        try Data("old frame".utf8).write(to: URL(fileURLWithPath: folder + "/frames/frame_000001.png"))
        try Data("old sound".utf8).write(to: URL(fileURLWithPath: folder + "/song.wav"))
        let result = try ProcessRunner.midiviz(
            [
                "render", Self.arpeggio, "-o", folder + "/song.mp4", "--audio", folder + "/song.wav",
                "--frames-dir", folder + "/frames",
            ] + Self.small,
            environment: ["MIDIVIZ_FFMPEG": "/bin/false", "TMPDIR": folder + "/tmp"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("midiviz: cannot write \(folder)/song.mp4: ffmpeg failed"), "\(result.stderr)")
        let nested = try ProcessRunner.midiviz(
            [
                "render", Self.arpeggio, "-o", folder + "/song.mp4",
                "--frames-dir", folder + "/new/deeper/frames",
            ] + Self.small,
            environment: ["MIDIVIZ_FFMPEG": "/bin/false", "TMPDIR": folder + "/tmp"])
        #expect(nested.status == 1)
        #expect(contents(folder) == ["frames", "song.wav", "tmp"])
        #expect(try String(contentsOfFile: folder + "/song.wav", encoding: .utf8) == "old sound")
        #expect(contents(folder + "/frames") == ["frame_000001.png"])
        #expect(contents(folder + "/tmp").isEmpty)
    }

    /// A successful run: all three outputs, nothing else, in the output folder or in TMPDIR.
    @Test func aSuccessfulRunLeavesItsOutputsOnly() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/tmp", withIntermediateDirectories: false)
        let result = try ProcessRunner.midiviz(
            [
                "render", Self.arpeggio, "-o", folder + "/song.mp4", "--audio", folder + "/song.wav",
                "--frames-dir", folder + "/frames", "--to", "1", "--quiet",
            ] + Self.small,
            environment: ["TMPDIR": folder + "/tmp"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(contents(folder) == ["frames", "song.mp4", "song.wav", "tmp"])
        #expect(contents(folder + "/frames").count == 10)
        #expect(contents(folder + "/tmp").isEmpty)
        #expect(try VideoTools.probe(folder + "/song.mp4")["video"]?.frames == 10)
    }

    /// An ffmpeg that stops reading (frames, or frames and sound): the watchdog ends the run
    /// instead of waiting forever.
    @Test(arguments: [true, false])
    func anFFmpegThatStopsReadingIsStopped(silent: Bool) throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fake = folder + "/stuck-ffmpeg"
        let stuck = "sleep 600.\(silent ? 1 : 2)"  // one per case: the cases run at once
        try "#!/bin/sh\nexec \(stuck)\n".write(toFile: fake, atomically: true, encoding: .utf8)
        chmod(fake, 0o755)
        let sound = silent ? ["--no-audio"] : ["--soundfont", AudioTools.soundFont!]
        let result = try ProcessRunner.midiviz(
            [
                "render", Self.arpeggio, "-o", folder + "/song.mp4", "--size", "640x360",
                "--stall-timeout", "1",
            ] + sound, environment: ["MIDIVIZ_FFMPEG": fake])
        #expect(result.status == 1)
        if silent {
            #expect(result.stderr == "midiviz: ffmpeg accepted no frame for 1 s (--stall-timeout): stopped it\n")
        } else {
            // Frames or sound, whichever waits first.
            #expect(
                result.stderr.hasPrefix("midiviz: ffmpeg ") && result.stderr.hasSuffix(" for 1 s (--stall-timeout): stopped it\n"),
                "\(result.stderr)")
        }
        #expect(contents(folder) == ["stuck-ffmpeg"])
        let ps = try ProcessRunner.run(URL(fileURLWithPath: "/bin/ps"), ["-eo", "args"])
        #expect(!ps.stdoutText.contains(stuck), "the stuck ffmpeg is gone")
    }

    /// From a second hostile pass: a FIFO as the background video is refused at once (ffprobe
    /// waited on it for ever, and outlived us); a frame in the frames folder that the render
    /// reads is refused, not deleted or overwritten; an "ffmpeg" that ends well but writes
    /// nothing fails, leaving no empty video; the loader's repairs are said, as `info` says them.
    @Test func whatASecondHostilePassFoundIsRefused() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func render(_ arguments: [String], environment: [String: String] = [:]) throws -> ProcessRunner.Result {
            try ProcessRunner.midiviz(["render"] + arguments + Self.small, currentDirectory: URL(fileURLWithPath: folder), environment: environment)
        }
        #expect(mkfifo(folder + "/clip.mp4", 0o644) == 0)
        let fifo = try render([Self.arpeggio, "-o", "v.mp4", "--background-video", "clip.mp4", "--no-audio"])
        #expect(fifo.status == 66 && fifo.stderr.contains("cannot read background video clip.mp4: not a regular file"), "\(fifo.stderr)")

        try FileManager.default.createDirectory(atPath: folder + "/frames", withIntermediateDirectories: false)
        try FileManager.default.copyItem(atPath: Self.arpeggio, toPath: folder + "/frames/frame_000001.png")
        let reads = try render([folder + "/frames/frame_000001.png", "--frames-dir", "frames", "--no-video", "--to", "1"])
        #expect(reads.status == 64 && reads.stderr.contains("refusing to write frames into frames: its frame_000001.png is the input song"), "\(reads.stderr)")
        #expect(FileManager.default.contents(atPath: folder + "/frames/frame_000001.png") == FileManager.default.contents(atPath: Self.arpeggio))

        try "#!/bin/sh\ncat >/dev/null\n".write(toFile: folder + "/eat.sh", atomically: true, encoding: .utf8)
        chmod(folder + "/eat.sh", 0o755)
        let eaten = try render([Self.arpeggio, "-o", "e.mp4", "--to", "1"], environment: ["MIDIVIZ_FFMPEG": folder + "/eat.sh"])
        #expect(eaten.status == 1 && eaten.stderr.contains("ffmpeg wrote nothing into e.mp4"), "\(eaten.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/e.mp4"))

        // Outputs named as folders, or not named: one line, not a scratch file's name.
        for (arguments, words) in [
            (["-o", "new/"], "cannot write new/: it names a folder"), (["-o", "new/."], "cannot write new/.: it names a folder"),
            (["-o", ""], "an output needs a name"),
            (["--raw-video-out", "r.yuv", "-o", "o.mp4"], "it takes no --output"),
        ] {
            let refused = try render([Self.arpeggio, "--to", "1"] + arguments)
            #expect(refused.status == 64 && refused.stderr.contains(words) && !refused.stderr.contains(".f32"), "\(refused.stderr)")
        }

        let repaired = try render([TestEnvironment.path(of: "fixtures/truncated-30-tracks.mid"), "-o", "r.mp4", "--to", "1", "--no-audio"])
        #expect(repaired.status == 0, "\(repaired.stderr)")
        #expect(repaired.stderr.contains("midiviz: warning: ") && repaired.stderr.contains("truncated"), "\(repaired.stderr)")
    }

    /// From a third hostile pass: another program's frames (`frame_1.png`) in the frames folder
    /// are refused, not deleted; an output that is a symbolic link is written through (the
    /// frames land in the linked folder, the video at the link's target, the links stay), and
    /// one to nothing is refused; the demo is not cut into segments it could not join; a track
    /// the song has not is said with its option, an input without a name as such.
    @Test func whatAThirdHostilePassFoundIsKept() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func render(_ arguments: [String], command: String = "render") throws -> ProcessRunner.Result {
            try ProcessRunner.midiviz([command] + arguments + Self.small, currentDirectory: URL(fileURLWithPath: folder))
        }
        let frames = [Self.arpeggio, "--no-video", "--to", "1"]
        for name in ["frame_1.png", "frame_0000001.png", "frame_000000.png"] {
            try FileManager.default.createDirectory(atPath: folder + "/theirs", withIntermediateDirectories: false)
            try Data("theirs".utf8).write(to: URL(fileURLWithPath: folder + "/theirs/" + name))
            let refused = try render(frames + ["--frames-dir", "theirs"])
            #expect(refused.status == 73 && refused.stderr.contains("other than frames (\(name))"), "\(name): \(refused.stderr)")
            #expect(contents(folder + "/theirs") == [name])
            try FileManager.default.removeItem(atPath: folder + "/theirs")
        }

        try FileManager.default.createDirectory(atPath: folder + "/disk", withIntermediateDirectories: false)
        try Data("old".utf8).write(to: URL(fileURLWithPath: folder + "/disk/frame_000001.png"))
        try FileManager.default.createSymbolicLink(atPath: folder + "/linked", withDestinationPath: "disk")
        let linked = try render(frames + ["--frames-dir", "linked"])
        #expect(linked.status == 0, "\(linked.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder + "/linked") == "disk")
        #expect(contents(folder + "/disk").count == 10 && FileManager.default.contents(atPath: folder + "/disk/frame_000001.png") != Data("old".utf8))

        try Data("old".utf8).write(to: URL(fileURLWithPath: folder + "/disk/v.mp4"))
        try FileManager.default.createSymbolicLink(atPath: folder + "/v.mp4", withDestinationPath: "disk/v.mp4")
        let video = try render([Self.arpeggio, "-o", "v.mp4", "--to", "1", "--no-audio"])
        #expect(video.status == 0, "\(video.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder + "/v.mp4") == "disk/v.mp4")
        #expect(try VideoTools.probe(folder + "/disk/v.mp4")["video"]?.frames == 10)

        try FileManager.default.createSymbolicLink(atPath: folder + "/nowhere.mp4", withDestinationPath: "gone/n.mp4")
        let dangling = try render([Self.arpeggio, "-o", "nowhere.mp4", "--to", "1", "--no-audio"])
        #expect(
            dangling.status == 73 && dangling.stderr.contains("cannot write nowhere.mp4: it is a symbolic link to nothing (gone/n.mp4)"),
            "\(dangling.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/gone"))

        let track = try render([Self.arpeggio, "-o", "t.mp4", "--hide-track", "99"])
        #expect(track.status == 64 && track.stderr.contains("--hide-track 99: the song has "), "\(track.stderr)")
        let nothing = try render([Self.arpeggio, "-o", "t.mp4", "--only-track", "1", "--hide-track", "1"])
        #expect(nothing.status == 64 && nothing.stderr.contains("--only-track 1 and --hide-track 1 contradict each other"), "\(nothing.stderr)")

        let unnamed = try ProcessRunner.midiviz(["info", ""])
        #expect(unnamed.status == 66 && unnamed.stderr == "midiviz: cannot read \"\": an input needs a name, not an empty one\n", "\(unnamed.stderr)")

        let demo = try render(["--segment", "1/2"], command: "demo")
        #expect(demo.status == 64 && demo.stderr.contains("demo renders the whole demo: --segment is for `midiviz render SONG`"), "\(demo.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/demo.mp4"))
    }

    /// Every check follows links as the kernel will: an output reaching into the frames folder
    /// through a link is refused as one named inside it; a folder or a link named as a frame
    /// is not a frame (refused, kept); links round in a loop are said as such. What replaces an
    /// output keeps its permissions.
    @Test func everyCheckFollowsLinks() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func render(_ arguments: [String]) throws -> ProcessRunner.Result {
            try ProcessRunner.midiviz(
                ["render", Self.arpeggio, "--to", "1", "--no-audio"] + arguments + Self.small, currentDirectory: URL(fileURLWithPath: folder))
        }
        try FileManager.default.createDirectory(atPath: folder + "/fr", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: folder + "/frl", withDestinationPath: "fr")
        for arguments in [["--frames-dir", "frl", "-o", "fr/x.mp4"], ["--frames-dir", "fr", "-o", "frl/x.mp4"]] {
            let inside = try render(arguments)
            #expect(inside.status == 64 && inside.stderr.contains("another output lies inside the frames folder"), "\(arguments): \(inside.stderr)")
        }
        #expect(contents(folder + "/fr").isEmpty)
        // A frames folder not made yet: the output inside it is refused as such, whichever
        // comes first, not for its missing folder (73), and nothing is made.
        for arguments in [["-o", "new/x.mp4", "--frames-dir", "new"], ["--frames-dir", "new", "-o", "new/x.mp4"]] {
            let inside = try render(arguments)
            #expect(inside.status == 64 && inside.stderr.contains("another output lies inside the frames folder"), "\(arguments): \(inside.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder + "/new"))
        }
        // The same through a link to a folder not made yet, named either way.
        try FileManager.default.createSymbolicLink(atPath: folder + "/later", withDestinationPath: "unmade")
        for arguments in [["-o", "unmade/x.mp4", "--frames-dir", "later"], ["--frames-dir", "later", "-o", "later/x.mp4"]] {
            let inside = try render(arguments)
            #expect(inside.status == 64 && inside.stderr.contains("another output lies inside the frames folder"), "\(arguments): \(inside.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder + "/unmade"))
        }
        // A frames folder inside another output, a file: refused before anything is made (it
        // was lost with exit 0 inside a WAV, or left beside a video made anyway).
        for arguments in [["-o", "v.mp4", "--audio", "a.wav", "--frames-dir", "a.wav/fr"], ["-o", "x.mp4", "--frames-dir", "x.mp4/frames"]] {
            let inside = try ProcessRunner.midiviz(
                ["render", Self.arpeggio, "--to", "1"] + arguments + Self.small, currentDirectory: URL(fileURLWithPath: folder))
            #expect(inside.status == 64 && inside.stderr.contains("another output, which is a file"), "\(arguments): \(inside.stderr)")
            for made in ["v.mp4", "a.wav", "x.mp4"] { #expect(!FileManager.default.fileExists(atPath: folder + "/" + made), "\(made)") }
        }
        // `up/..` is where the kernel takes it: the link's target's parent, fr (not the folder).
        try FileManager.default.createDirectory(atPath: folder + "/fr/inner", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: folder + "/up", withDestinationPath: "fr/inner")
        let dotted = try render(["--frames-dir", "fr", "-o", "up/../x.mp4"])
        #expect(dotted.status == 64 && dotted.stderr.contains("another output lies inside the frames folder"), "\(dotted.stderr)")
        try FileManager.default.removeItem(atPath: folder + "/fr/inner")

        try FileManager.default.createDirectory(atPath: folder + "/fn/frame_000001.png/deep", withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: URL(fileURLWithPath: folder + "/fn/frame_000001.png/deep/inside.txt"))
        let named = try render(["--no-video", "--frames-dir", "fn"])
        #expect(named.status == 73 && named.stderr.contains("other than frames (frame_000001.png)"), "\(named.stderr)")
        #expect(FileManager.default.contents(atPath: folder + "/fn/frame_000001.png/deep/inside.txt") == Data("keep".utf8))

        try FileManager.default.createSymbolicLink(atPath: folder + "/loop-a.mp4", withDestinationPath: "loop-b.mp4")
        try FileManager.default.createSymbolicLink(atPath: folder + "/loop-b.mp4", withDestinationPath: "loop-a.mp4")
        let loop = try render(["-o", "loop-a.mp4"])
        #expect(loop.status == 73 && loop.stderr.contains("cannot write loop-a.mp4: its symbolic links lead round in a loop"), "\(loop.stderr)")

        try Data("old".utf8).write(to: URL(fileURLWithPath: folder + "/private.mp4"))
        chmod(folder + "/private.mp4", 0o600)
        let replaced = try render(["-o", "private.mp4"])
        #expect(replaced.status == 0, "\(replaced.stderr)")
        let attributes = try FileManager.default.attributesOfItem(atPath: folder + "/private.mp4")
        #expect((attributes[.posixPermissions] as? Int) == 0o600 && (attributes[.size] as? Int ?? 0) > 3)
        // A frames folder keeps what its group and others may do; its owner may still write it.
        chmod(folder + "/fr", 0o750)
        let frames = try render(["--no-video", "--frames-dir", "fr"])
        #expect(frames.status == 0, "\(frames.stderr)")
        #expect((try FileManager.default.attributesOfItem(atPath: folder + "/fr")[.posixPermissions] as? Int) == 0o750)
        #expect(contents(folder + "/fr").count == 10)
    }

    /// A file named for another format, a negative number, a hexadecimal one: one plain line,
    /// 64, and nothing written.
    @Test func aNameOrANumberSaysWhatItIs() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func run(_ arguments: [String]) throws -> ProcessRunner.Result {
            try ProcessRunner.midiviz(
                arguments + (arguments[0] == "frame" ? ["--size", "160x90"] : Self.small), currentDirectory: URL(fileURLWithPath: folder))
        }
        for (arguments, words) in [
            (["frame", Self.arpeggio, "--at", "1", "-o", "poster.jpg"], "cannot write poster.jpg: it would hold a PNG file under .jpg; name it .png"),
            (
                ["render", Self.arpeggio, "--no-video", "--audio", "song.mp3"],
                "cannot write song.mp3: it would hold a WAV file under .mp3; name it .wav or .wave"
            ),
            (["render", Self.arpeggio, "-o", "v.mp4", "--from", "-1"], #"--from: "-1" is not a time"#),
            (["render", Self.arpeggio, "-o", "v.mp4", "--speed", "-1"], "--speed must be between 0.5 and 2, not -1"),
            (["render", Self.arpeggio, "-o", "v.mp4", "--hide-track", "-1"], "--hide-track must be a track numbered from 0"),
            (["render", Self.arpeggio, "-o", "v.mp4", "--from", "0x1"], #"--from: "0x1" is not a time"#),
            (["render", Self.arpeggio, "-o", "v.mp4", "--window", "0x4"], #"--window: "0x4""#),
            (["frame", Self.arpeggio, "--at", "-1", "-o", "p.png"], #"--at: "-1" is not a time: seconds (0 or more)"#),
            (["frame", Self.arpeggio, "--at", "bar:0", "-o", "p.png"], #"--at: "bar:0" is not a time"#),
            (["render", Self.arpeggio, "-o", "v.mp4", "--quiet", "--progress", "json"], "--quiet and --progress json contradict each other"),
            (["frame", Self.arpeggio, "--at", "9.1000000001", "-o", "p.png"], "--at 9.1 s is outside"),
            (["frame", Self.arpeggio, "--at", "bar:99", "-o", "p.png"], "--at bar:99 (196 s) is outside"),
            (["frame", Self.arpeggio, "--at", "1:00", "-o", "p.png"], "--at 1:00 (60 s) is outside"),
            (["render", Self.arpeggio, "-o", "v.mp4", "--to", "0"], "nothing to render: --to 0:00.000 is not a frame after the start 0:00.000"),
            (
                ["render", Self.arpeggio, "-o", "v.mp4", "--from", "5", "--to", "3", "--postroll", "1"],
                "nothing to render: --to 0:03.000 (0:04.000 with --postroll) is not a frame after the start 0:05.000"
            ),
            (
                ["render", Self.arpeggio, "-o", "v.mp4", "--from", "60"],
                "nothing to render: --from 1:00.000 is not a frame before the picture's end"
            ),
        ] {
            let refused = try run(arguments)
            #expect(refused.status == 64 && refused.stderr.contains(words), "\(arguments): \(refused.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
        // A Latin-1 name (`caf\xe9.mid`) reaches midiviz with U+FFFD for its byte.
        for command in [["info"], ["frame", "--at", "0", "-o", "p.png"], ["render", "-o", "v.mp4"]] {
            let latin1 = try ProcessRunner.midiviz([command[0], "caf\u{FFFD}.mid"] + command.dropFirst(), currentDirectory: URL(fileURLWithPath: folder))
            #expect(latin1.status == 66 && latin1.stderr.contains("its name as given is not UTF-8: rename it"), "\(latin1.stderr)")
        }
        // Any case of the right extension, or none, is written.
        #expect(try run(["frame", Self.arpeggio, "--at", "1", "-o", "poster.PNG"]).status == 0)
        #expect(try run(["render", Self.arpeggio, "--no-video", "--to", "1", "--audio", "sound"]).status == 0)
        #expect(FileManager.default.contents(atPath: folder + "/poster.PNG")?.starts(with: [0x89, 0x50, 0x4E, 0x47]) == true)
        #expect(FileManager.default.contents(atPath: folder + "/sound")?.starts(with: Array("RIFF".utf8)) == true)
    }
}
