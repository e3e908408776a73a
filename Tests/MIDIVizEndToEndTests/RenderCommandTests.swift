import Foundation
import MIDIVizCore
import MIDIVizIO
import Testing

/// `midiviz render --frames-dir` and `midiviz frame` through the real binary.
@Suite(.timeLimit(.minutes(30))) struct RenderCommandTests {
    static let arpeggio = TestEnvironment.packageRoot.appendingPathComponent("fixtures/c-major-arpeggio.mid").path

    func temporaryDirectory(_ name: String) -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("midiviz-\(name)-\(getpid())-\(UUID().uuidString)")
        try? FileManager.default.removeItem(at: url)
        return url
    }

    func frames(in directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    @Test func writesEveryFrameOfTheSongAndItsTail() throws {
        let out = temporaryDirectory("frames")
        defer { try? FileManager.default.removeItem(at: out) }
        // No title: the last frame is checked for being dark.
        let result = try ProcessRunner.midiviz([
            "render", Self.arpeggio, "--frames-dir", out.path, "--no-video", "--size", "320x180", "--fps", "10",
            "--title", "", "--quiet",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "--quiet prints nothing")
        let names = try frames(in: out)
        // A lead-in of 0.5 s and a frame (6 frames), 8 s of song, 1 s of fade, at 10 fps.
        #expect(names.count == 96)
        #expect(names.first == "frame_000001.png" && names.last == "frame_000096.png")
        #expect(!names.contains { $0.hasPrefix(".") }, "no staging folder left behind")
        func isDark(_ pixel: UInt32) -> Bool { (pixel & 0xFF) < 40 && ((pixel >> 8) & 0xFF) < 40 }
        // Frame 1 shows no note yet; frame 7 shows t = 0: the first note, C4, a red (rainbow C)
        // circle left of centre.
        #expect(try PNGReader.read(out.appendingPathComponent("frame_000001.png").path).pixels.allSatisfy(isDark))
        #expect(try PNGReader.read(out.appendingPathComponent("frame_000006.png").path).pixels.allSatisfy(isDark))
        let first = try PNGReader.read(out.appendingPathComponent("frame_000007.png").path)
        #expect(first.width == 320 && first.height == 180)
        let x = Int(320 * (0.06 + 0.88 * 0.5 / 12))
        let red = (0..<180).map { first.color(x: x, y: $0) }.filter { $0.r > 0.6 && $0.g < 0.4 && $0.b < 0.4 }
        #expect(red.count >= 5, "a red circle in the C column")
        // The last frame shows only the fading end: nothing as bright.
        let last = try PNGReader.read(out.appendingPathComponent("frame_000096.png").path)
        #expect(last.pixels.allSatisfy(isDark))
    }

    @Test(arguments: ["bars", "roll", "keyboard"])
    func pixelsDoNotDependOnTheNumberOfJobs(style: String) throws {
        var hashes: [[UInt64]] = []
        for jobs in ["1", "2"] {
            let out = temporaryDirectory("jobs\(jobs)")
            defer { try? FileManager.default.removeItem(at: out) }
            let result = try ProcessRunner.midiviz([
                "render", Self.arpeggio, "--frames-dir", out.path, "--no-video", "--size", "160x90",
                "--fps", "6", "--style", style, "--scheme", "ocean", "--chords", "--jobs", jobs, "--preroll", "0",
            ])
            #expect(result.status == 0, "\(result.stderr)")
            hashes.append(try frames(in: out).map { try PNGReader.read(out.appendingPathComponent($0).path).pixelHash })
        }
        #expect(hashes[0].count == 54 && hashes[0] == hashes[1])
        #expect(Set(hashes[0]).count > 10, "frames differ from each other")
    }

    /// `frame --at bar:N` shows the bar's first beat, as `--from bar:N` counts bars; a song
    /// with SMPTE time division has no bars to count (64, saying so), and no poster is written.
    @Test func posterAtABarIsTheFrameAtThatBarsStart() throws {
        let out = temporaryDirectory("poster-bar")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        let fixtures = TestEnvironment.packageRoot.appendingPathComponent("fixtures")
        let tempoMap = fixtures.appendingPathComponent("tempo-map.mid").path
        let common = ["--size", "320x180", "--style", "roll"]
        // Bar 2 of tempo-map.mid starts at 2 s, bar 3 (in 3/4 at 90 bpm) at 4 s.
        var hashes: [String: UInt64] = [:]
        for at in ["bar:2", "2", "bar:3", "0:04"] {
            let poster = out.appendingPathComponent("\(at).png").path
            let result = try ProcessRunner.midiviz(["frame", tempoMap, "--at", at, "-o", poster] + common)
            #expect(result.status == 0, "\(result.stderr)")
            hashes[at] = try PNGReader.read(poster).pixelHash
        }
        #expect(hashes["bar:2"] == hashes["2"] && hashes["bar:3"] == hashes["0:04"])
        #expect(hashes["bar:2"] != hashes["bar:3"])
        let smpte = out.appendingPathComponent("smpte.png").path
        let refused = try ProcessRunner.midiviz(["frame", fixtures.appendingPathComponent("smpte-25fps.mid").path, "--at", "bar:2", "-o", smpte])
        #expect(refused.status == 64 && refused.stderr.hasPrefix("midiviz: --at bar:2:") && refused.stderr.contains("no bars to count"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: smpte))
        let zero = try ProcessRunner.midiviz(["frame", tempoMap, "--at", "bar:0", "-o", smpte])
        #expect(zero.status == 64, "bars count from 1: \(zero.stderr)")
    }

    /// PNG frames and posters may have an odd width and height (only a video's 4:2:0 chroma
    /// needs even ones): a sequence frame equals the poster at its time in the styles that move
    /// the frame before, and a video at that size is refused before anything is written.
    @Test func oddSizesAreForPNGsNotVideos() throws {
        let out = temporaryDirectory("odd-size")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        let dense = TestEnvironment.packageRoot.appendingPathComponent("fixtures/dense-random.mid").path
        for style in ["roll", "keyboard"] {
            // The frame rate sets how far a frame moves: the poster's is the sequence's.
            let common = ["--size", "321x181", "--style", style, "--fps", "10"]
            let folder = out.appendingPathComponent(style).path
            let sequence = try ProcessRunner.midiviz(["render", dense, "--frames-dir", folder, "--no-video", "--preroll", "0", "--to", "2"] + common)
            #expect(sequence.status == 0, "\(sequence.stderr)")
            let frame = try PNGReader.read(folder + "/frame_000016.png")
            #expect(frame.width == 321 && frame.height == 181)
            let poster = out.appendingPathComponent("\(style).png").path
            let single = try ProcessRunner.midiviz(["frame", dense, "--at", "1.5", "-o", poster] + common)
            #expect(single.status == 0, "\(single.stderr)")
            #expect(try PNGReader.read(poster).pixelHash == frame.pixelHash, "\(style): frame 16 at 10 fps is the poster at 1.5 s")
        }
        let demoFrames = out.appendingPathComponent("demo").path
        let demo = try ProcessRunner.midiviz(["demo", "--no-video", "--frames-dir", demoFrames, "--size", "321x181", "--to", "0.5"])
        #expect(demo.status == 0, "\(demo.stderr)")
        let demoFrame = try PNGReader.read(demoFrames + "/frame_000001.png")
        #expect(demoFrame.width == 321 && demoFrame.height == 181)
        let video = out.appendingPathComponent("odd.mp4").path
        let refused = try ProcessRunner.midiviz(["render", dense, "--size", "321x181", "-o", video, "--no-audio"])
        #expect(refused.status == 64 && refused.stderr.contains("--size") && refused.stderr.contains("321x181"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: video))
    }

    @Test func posterFrameEqualsTheSequenceFrameAtThatTime() throws {
        let out = temporaryDirectory("poster")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        let common = ["--size", "320x180", "--style", "circles", "--scheme", "fire", "--grid"]
        let sequence = try ProcessRunner.midiviz(
            ["render", Self.arpeggio, "--frames-dir", out.appendingPathComponent("seq").path, "--no-video", "--fps", "10", "--preroll", "0"] + common)
        #expect(sequence.status == 0, "\(sequence.stderr)")
        let poster = out.appendingPathComponent("poster.png").path
        let single = try ProcessRunner.midiviz(["frame", Self.arpeggio, "--at", "0:01.500", "-o", poster] + common)
        #expect(single.status == 0, "\(single.stderr)")
        let posterPixels = try PNGReader.read(poster).pixelHash
        // t = 1.5 s is frame 16 (index 15) at 10 fps.
        #expect(posterPixels == (try PNGReader.read(out.appendingPathComponent("seq/frame_000016.png").path).pixelHash))
        // Outputs are staged as `.NAME.midiviz-PID-XXXXXX` beside them (PID: the midiviz child's);
        // both runs are over, so the folder holds the two outputs and no temporary.
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == ["poster.png", "seq"])
    }

    @Test(arguments: [
        ["--size", "0x0"], ["--size", "wide"], ["--fps", "0"], ["--style", "spiral"], ["--scheme", "neon"],
        ["--speed", "3"], ["--png-level", "12"], ["--jobs", "0"], ["--background", "#12345"], ["--crf", "60"],
        ["--preset", "warp"], ["--from", "bar:0"], ["--to", "soon"], ["--progress", "xml"],
        ["--from", "bar:9223372036854775807"], ["--from", "1e300"], ["--config", ""],
        // Fractions other than the NTSC ones: ffmpeg's MP4 writer would round some of them.
        ["--fps", "25/2"], ["--fps", "119.88"], ["--fps", "30/0"], ["--fps", "241"],
    ])
    func badOptionsAreUsageErrors(options: [String]) throws {
        let out = temporaryDirectory("bad")
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try ProcessRunner.midiviz(["render", Self.arpeggio, "--frames-dir", out.path, "--no-video"] + options)
        #expect(result.status == 64, "\(options): \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path), "nothing created for a usage error")
    }

    /// A frame rate refused is quoted as people write it (`30.5`, not the `61/2` it is kept as).
    @Test func aRefusedFrameRateIsQuotedAsTyped() throws {
        for (typed, quoted) in [("30.5", "30.5"), ("241", "241"), ("25/2", "12.5"), ("30001/1001", "30001/1001")] {
            let result = try ProcessRunner.midiviz(["render", Self.arpeggio, "--no-video", "--frames-dir", "/nonexistent/frames", "--fps", typed])
            #expect(result.status == 64 && result.stderr.contains("--fps must be a whole number from 1 to 240"), "\(typed): \(result.stderr)")
            #expect(result.stderr.hasSuffix("(23.976, 29.97, 47.952, 59.94), not \(quoted)\n"), "\(typed): \(result.stderr)")
        }
    }

    /// An option this render leaves unused (another style's look, a background's settings
    /// without one, x264's settings for PNG frames) is warned of, with why; used, it is not.
    @Test func anOptionWithNoEffectIsWarnedOf() throws {
        let out = temporaryDirectory("unused")
        defer { try? FileManager.default.removeItem(at: out) }
        func warnings(_ options: [String]) throws -> String {
            let frames = out.appendingPathComponent(UUID().uuidString).path
            let result = try ProcessRunner.midiviz(
                ["render", Self.arpeggio, "--frames-dir", frames, "--no-video", "--fps", "5", "--size", "160x90", "--to", "1"] + options)
            #expect(result.status == 0, "\(options): \(result.stderr)")
            return result.stderr
        }
        let unused = try warnings(["--style", "circles", "--window", "5", "--bars", "pitch-class", "--background-dim", "0.3", "--crf", "30"])
        #expect(
            unused.contains(
                "midiviz: warning: --bars (--style bars only), --background-dim (no --background-image or --background-video), --window (roll and keyboard only), --crf (no video is made): no effect on this render"
            ), "\(unused)")
        let used = try warnings(["--style", "bars", "--bars", "pitch-class", "--direction", "up"])
        #expect(used.contains("--direction (roll and keyboard only): no effect") && !used.contains("--bars ("), "\(used)")
        #expect(try !warnings(["--style", "keyboard", "--window", "5", "--direction", "up"]).contains("no effect"))
    }

    /// `-` names no file here (elsewhere, standard output), and `--png-level` without frames
    /// does nothing: both refused, nothing written.
    @Test(arguments: [
        (["-o", "-"], "--output -: midiviz writes files, not to standard output"),
        (["--no-video", "--audio", "-"], "--audio -: midiviz writes files"),
        (["--no-video", "--frames-dir", "-"], "--frames-dir -: midiviz writes files"),
        (["--png-level", "5", "-o", "x.mp4"], "--png-level is for --frames-dir, which is not given"),
    ])
    func aDashOrAnUnusedPNGLevelIsRefused(options: [String], words: String) throws {
        let out = temporaryDirectory("dash")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try ProcessRunner.midiviz(["render", Self.arpeggio, "--size", "160x90"] + options, currentDirectory: out)
        #expect(result.status == 64 && result.stderr.contains(words), "\(options): \(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).isEmpty)
    }

    @Test func aToPastTheEndIsTheEnd() throws {
        let out = temporaryDirectory("pastend")
        defer { try? FileManager.default.removeItem(at: out) }
        var counts: [Int] = []
        for (name, range) in [("all", [String]()), ("huge", ["--to", "bar:9223372036854775807"]), ("late", ["--to", "99:00"])] {
            let folder = out.appendingPathComponent(name)
            let result = try ProcessRunner.midiviz(
                ["render", Self.arpeggio, "--frames-dir", folder.path, "--no-video", "--fps", "10", "--size", "160x90"] + range)
            #expect(result.status == 0, "\(range): \(result.stderr)")
            counts.append(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".png") }.count)
        }
        #expect(counts[0] > 10 && counts == [counts[0], counts[0], counts[0]], "\(counts)")
    }

    @Test func unwritableFolderExits73AndLeavesNothing() throws {
        let file = temporaryDirectory("plainfile")
        try Data("x".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try ProcessRunner.midiviz(["render", Self.arpeggio, "--no-video", "--frames-dir", file.appendingPathComponent("frames").path])
        #expect(result.status == 73)
        #expect(result.stderr.hasPrefix("midiviz: cannot create \(file.appendingPathComponent("frames").path)"), "\(result.stderr)")
    }

    @Test func badSongExits65BeforeAnyOutput() throws {
        let out = temporaryDirectory("badsong")
        defer { try? FileManager.default.removeItem(at: out) }
        let song = TestEnvironment.path(of: "Tests/Corpus/jazz-soft/test-not-a-midi-file.mid")
        let result = try ProcessRunner.midiviz(["render", song, "--frames-dir", out.path, "--no-video"])
        #expect(result.status == 65)
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }
}
