import Foundation
import MIDIVizCore
import Testing

/// The real tools the video tests read their results with.
enum VideoTools {
    static let ffmpeg: String? = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let ffprobe: String? = ["/usr/bin/ffprobe", "/usr/local/bin/ffprobe"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static var available: Bool { ffmpeg != nil && ffprobe != nil && AudioTools.soundFont != nil }

    struct Stream { var codec: String; var frames: Int; var duration: Double }

    static func probe(_ path: String) throws -> [String: Stream] {
        let result = try ProcessRunner.run(
            URL(fileURLWithPath: ffprobe!),
            [
                "-v", "error", "-count_frames", "-show_entries",
                "stream=codec_type,codec_name,nb_read_frames,duration", "-of", "json", path,
            ])
        let object = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
        var streams: [String: Stream] = [:]
        for stream in (object?["streams"] as? [[String: Any]]) ?? [] {
            streams[stream["codec_type"] as? String ?? "?"] = Stream(
                codec: stream["codec_name"] as? String ?? "",
                frames: Int(stream["nb_read_frames"] as? String ?? "") ?? -1,
                duration: Double(stream["duration"] as? String ?? "") ?? -1)
        }
        return streams
    }
}

@Suite(
    .enabled(if: VideoTools.available, "ffmpeg/ffprobe or a SoundFont missing: apt-get install ffmpeg timgm6mb-soundfont (scripts/setup does)"),
    .timeLimit(.minutes(30)))
struct VideoTests {
    static let fixtures = TestEnvironment.packageRoot.appendingPathComponent("fixtures")

    func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("midiviz-video-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func demoIsH264AndAACOfOneLength() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try ProcessRunner.midiviz(["demo", "--size", "320x180", "--fps", "30", "--quiet"], currentDirectory: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let video = folder.appendingPathComponent("demo.mp4").path
        let streams = try VideoTools.probe(video)
        let picture = try #require(streams["video"]), sound = try #require(streams["audio"])
        #expect(picture.codec == "h264" && sound.codec == "aac")
        // 8 s of song + at least the 1 s fade, at 30 fps; the sound has exactly that length.
        #expect(picture.frames >= 270 && picture.frames <= 330, "\(picture.frames) frames")
        #expect(abs(picture.duration - Double(picture.frames) / 30) < 0.001)
        #expect(abs(picture.duration - sound.duration) <= 1.0 / 30, "video \(picture.duration) s, audio \(sound.duration) s")
        // +faststart: the index (moov) comes before the media (mdat).
        let head = try Data(contentsOf: URL(fileURLWithPath: video)).prefix(4096)
        let moov = head.range(of: Data("moov".utf8)), mdat = head.range(of: Data("mdat".utf8))
        #expect(moov != nil && (mdat == nil || moov!.lowerBound < mdat!.lowerBound))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(leftovers == ["demo.mp4"], "no partial files: \(leftovers)")
    }

    /// At a whole rate and at NTSC's 30000/1001 (29.97), where frame k shows k × 1001/30000 s.
    @Test(arguments: ["30", "30000/1001"])
    func soundAndPictureAreInSync(rate: String) throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = folder.appendingPathComponent("sync.mp4").path
        let fps = try #require(FrameRate(text: rate)).perSecond
        let result = try ProcessRunner.midiviz([
            "render", Self.fixtures.appendingPathComponent("sync-notes.mid").path, "-o", video,
            "--size", "320x180", "--fps", rate, "--no-reverb", "--no-chorus", "--quiet",
            "--title", "",  // no title text in the columns watched below
            "--soundfont", AudioTools.soundFont!,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let rateRead = try ProcessRunner.run(
            URL(fileURLWithPath: VideoTools.ffprobe!), ["-v", "error", "-select_streams", "v", "-show_entries", "stream=r_frame_rate", "-of", "csv=p=0", video])
        #expect(rateRead.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines) == (rate.contains("/") ? rate : rate + "/1"))
        let streams = try VideoTools.probe(video)
        let picture = try #require(streams["video"]), sound = try #require(streams["audio"])
        #expect(abs(picture.duration - Double(picture.frames) / fps) < 0.001, "\(picture.frames) frames in \(picture.duration) s")
        #expect(abs(picture.duration - sound.duration) <= 1 / fps, "video \(picture.duration) s, audio \(sound.duration) s")
        // Audio onsets: where the 1 ms level first passes 0.02 after at least 300 ms below it.
        let audio = try ProcessRunner.run(
            URL(fileURLWithPath: VideoTools.ffmpeg!), ["-v", "error", "-i", video, "-f", "s16le", "-ac", "1", "-ar", "48000", "-"])
        let samples: [Int16] = audio.stdout.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        var audioOnsets: [Double] = []
        var quietSince = 0
        for block in 0..<(samples.count / 48) {
            let peak = samples[block * 48..<(block + 1) * 48].map { abs(Int($0)) }.max() ?? 0
            if peak > 655 {
                if block - quietSince >= 300 { audioOnsets.append(Double(block) / 1000) }
                quietSince = block + 1
            }
        }
        // Picture onsets: the first frame in which each note's column lights up.
        let frames = try ProcessRunner.run(URL(fileURLWithPath: VideoTools.ffmpeg!), ["-v", "error", "-i", video, "-f", "rawvideo", "-pix_fmt", "gray", "-"])
        let luma = [UInt8](frames.stdout)
        let frameBytes = 320 * 180
        var pictureOnsets: [Double] = []
        for pitchClass in [0, 2, 4, 5, 7, 9] {
            let column = Int(320 * (0.06 + 0.88 * (Double(pitchClass) + 0.5) / 12))
            for frame in 0..<(luma.count / frameBytes) {
                let brightest = (0..<180).map { luma[frame * frameBytes + $0 * 320 + column] }.max() ?? 0
                if brightest > 90 { pictureOnsets.append(Double(frame) / fps); break }
            }
        }
        #expect(audioOnsets.count == 6, "audio onsets \(audioOnsets)")
        #expect(pictureOnsets.count == 6, "picture onsets \(pictureOnsets)")
        for (heard, seen) in zip(audioOnsets, pictureOnsets) {
            #expect(abs(heard - seen) <= 1 / fps, "heard at \(heard) s, seen at \(seen) s")
        }
        print("A/V sync: heard \(audioOnsets), seen \(pictureOnsets)")
    }

    @Test func rangeByBarsCutsPictureAndSoundAtTheSameInstant() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = folder.appendingPathComponent("bars.mp4").path
        // Bars 2 and 3 of tempo-map.mid: from 2 s to 6 s (bar 3 is in 3/4 at 90 bpm).
        let result = try ProcessRunner.midiviz([
            "render", Self.fixtures.appendingPathComponent("tempo-map.mid").path, "-o", video,
            "--from", "bar:2", "--to", "bar:4", "--size", "160x90", "--fps", "30", "--quiet",
            "--soundfont", AudioTools.soundFont!,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let streams = try VideoTools.probe(video)
        #expect(streams["video"]?.frames == 120, "4 s at 30 fps")
        #expect(abs((streams["audio"]?.duration ?? 0) - 4.0) <= 1.0 / 30)
    }

    /// Tubular bells struck for 0.5 s ring on until about 3.5 s, well past the picture's end
    /// (about 2 s): `--to 3` ends picture and sound at 3 s, and with `--postroll 1` at 4 s (the
    /// bells still ringing on to it); a `--to` past the ringing ends where the ringing does, as
    /// without one, also one so far past it that its samples would not fit an Int (it crashed).
    @Test(arguments: [(3.0, 0.0, 90), (3.0, 1.0, 120), (10.0, 0.0, 0), (1e15, 0.0, 0)])
    func aToWhileTheSoundRingsOnEndsThere(to: Double, postroll: Double, frames: Int) throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let body: [UInt8] = [0x00, 0xC0, 14, 0x00, 0x90, 60, 110, 0x60, 0x80, 60, 0, 0x00, 0xFF, 0x2F, 0x00]
        let song = folder.appendingPathComponent("bells.mid")
        try Data(Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0, 96] + Array("MTrk".utf8) + [0, 0, 0, UInt8(body.count)] + body).write(to: song)
        func render(_ name: String, _ range: [String]) throws -> [String: VideoTools.Stream] {
            let video = folder.appendingPathComponent(name).path
            let result = try ProcessRunner.midiviz(
                ["render", song.path, "-o", video, "--size", "160x90", "--fps", "30", "--quiet", "--soundfont", AudioTools.soundFont!] + range)
            #expect(result.status == 0, "\(result.stderr)")
            return try VideoTools.probe(video)
        }
        // From 0: no lead-in before the song.
        let whole = try render("whole.mp4", ["--from", "0"])
        let ranged = try render("ranged.mp4", ["--from", "0", "--to", String(to), "--postroll", String(postroll)])
        let rung = try #require(whole["video"]?.frames)
        #expect(rung > 100, "the bells ring past 3 s: \(rung) frames")
        #expect(ranged["video"]?.frames == (frames > 0 ? frames : rung))
        #expect(abs((ranged["audio"]?.duration ?? 0) - Double(ranged["video"]?.frames ?? 0) / 30) <= 1.0 / 30)
    }

    @Test func rangeInSecondsAndClockTime() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = folder.appendingPathComponent("range.mp4").path
        let result = try ProcessRunner.midiviz([
            "render", Self.fixtures.appendingPathComponent("c-major-arpeggio.mid").path, "-o", video,
            "--from", "1.5", "--to", "0:03.250", "--size", "160x90", "--fps", "20", "--no-audio", "--quiet",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let streams = try VideoTools.probe(video)
        #expect(streams["video"]?.frames == 35 && streams["audio"] == nil, "1.75 s at 20 fps, silent")
    }

    @Test func missingFFmpegExits69() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try ProcessRunner.midiviz(
            ["demo", "--no-audio"], currentDirectory: folder,
            environment: ["MIDIVIZ_FFMPEG": "/nonexistent/ffmpeg"])
        #expect(result.status == 69)
        #expect(result.stderr.hasPrefix("midiviz: ffmpeg not found"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func failingFFmpegIsReportedWithItsOwnWords() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fake = folder.appendingPathComponent("fake-ffmpeg").path
        try "#!/bin/sh\ncat >/dev/null\necho 'Unknown encoder libx264 (a broken build)' >&2\nexit 1\n".write(toFile: fake, atomically: true, encoding: .utf8)
        chmod(fake, 0o755)
        let result = try ProcessRunner.midiviz(
            ["demo", "--no-audio", "--size", "160x90", "-o", folder.appendingPathComponent("x.mp4").path],
            environment: ["MIDIVIZ_FFMPEG": fake])
        #expect(result.status == 1)
        #expect(result.stderr.contains("ffmpeg failed (exit 1): Unknown encoder libx264 (a broken build)"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["fake-ffmpeg"])
    }

    /// An ffmpeg that fails after the frames, encoding the normalized sound beside them (`-map
    /// 0:a`) or putting it with the video (`-map 1:a`), is reported naming the output and the
    /// tool's words, exit 1, with nothing left beside the song.
    @Test(arguments: ["-map 0:a", "-map 1:a"])
    func ffmpegFailingWithTheSoundNamesTheOutput(stage: String) throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fake = folder.appendingPathComponent("fake-ffmpeg").path, video = folder.appendingPathComponent("x.mp4").path
        let script =
            "#!/bin/sh\ncase \"$*\" in *'\(stage)'*) echo 'Unknown encoder aac (a broken build)' >&2; exit 1;; esac\nexec \(VideoTools.ffmpeg!) \"$@\"\n"
        try script.write(toFile: fake, atomically: true, encoding: .utf8)
        chmod(fake, 0o755)
        let result = try ProcessRunner.midiviz(
            ["demo", "--size", "160x90", "--fps", "20", "-o", video, "--soundfont", AudioTools.soundFont!], environment: ["MIDIVIZ_FFMPEG": fake])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(
            result.stderr.hasPrefix("midiviz: cannot write \(video): ffmpeg failed (exit 1): Unknown encoder aac (a broken build)"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["fake-ffmpeg"])
    }

    /// SIGINT, SIGTERM and SIGHUP while frames stream to ffmpeg, with a WAV and a frames folder
    /// too: exit 128 + the signal, the old outputs intact, no temporary, no ffmpeg, no log.
    /// Whether the parent passed the signals on blocked (a thread of a Dispatch queue) or not
    /// (a shell, where they were once dropped).
    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143)), (SIGHUP, Int32(129))], [false, true])
    func signalLeavesNoTemporaryFileAndNoFFmpeg(signal: (number: Int32, expected: Int32), blockedByParent: Bool) throws {
        let (signal, expected) = signal
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scratch = folder.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: false)
        let video = folder.appendingPathComponent("long.mp4").path, wav = folder.appendingPathComponent("long.wav").path
        let frames = folder.appendingPathComponent("frames").path
        try Data("old video".utf8).write(to: URL(fileURLWithPath: video))
        try Data("old sound".utf8).write(to: URL(fileURLWithPath: wav))
        try FileManager.default.createDirectory(atPath: frames, withIntermediateDirectories: false)
        try Data("old frame".utf8).write(to: URL(fileURLWithPath: frames + "/frame_000001.png"))
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let process = Process()
        process.executableURL = TestEnvironment.binary
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": scratch.path]) { $1 }
        // A long song, so the frames are streaming to ffmpeg when the signal comes.
        process.arguments = [
            "render", TestEnvironment.path(of: "Tests/Corpus/musescore-cc0/concerto_for_orchestra_1.mid"),
            "-o", video, "--audio", wav, "--frames-dir", frames, "--soundfont", AudioTools.soundFont!,
            "--size", "160x90", "--fps", "10", "--progress", "json",
        ]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        let startedBlocked = try ProcessRunner.start(process, signalsBlocked: blockedByParent)
        #expect(startedBlocked == blockedByParent, "the mask it was spawned with")
        // The first progress line: frames are being made (after the sound).
        let firstLine = out.fileHandleForReading.availableData
        #expect(String(decoding: firstLine, as: UTF8.self).contains("frames_done"))
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == expected)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == before, "no temporary left")
        #expect(try String(contentsOfFile: video, encoding: .utf8) == "old video")
        #expect(try String(contentsOfFile: wav, encoding: .utf8) == "old sound")
        #expect(try FileManager.default.contentsOfDirectory(atPath: frames) == ["frame_000001.png"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty, "no log left in TMPDIR")
        let ps = try ProcessRunner.run(URL(fileURLWithPath: "/bin/ps"), ["-eo", "args"])
        #expect(!ps.stdoutText.contains(folder.path), "no ffmpeg left writing into the folder")
    }

    /// A signal while a normalized sound is put with the finished video (the last ffmpeg run)
    /// still interrupts: exit 130, the old video intact, nothing left (it once ended 0 with the
    /// new video, from a hostile pass). A WebM, whose sound is encoded in that run: an MP4's is
    /// encoded beside the frames, and its last run, a copy, may be over before the signal.
    @Test func aSignalWhileTheSoundIsPutWithTheVideoInterrupts() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = folder.appendingPathComponent("long.webm").path
        try Data("old video".utf8).write(to: URL(fileURLWithPath: video))
        let process = Process()
        process.executableURL = TestEnvironment.binary
        process.arguments = [
            "render", TestEnvironment.path(of: "Tests/Corpus/musescore-cc0/concerto_for_orchestra_1.mid"), "-o", video,
            "--soundfont", AudioTools.soundFont!, "--size", "160x90", "--fps", "10", "--progress", "json",
        ]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        _ = try ProcessRunner.start(process, signalsBlocked: false)
        var said = Data()
        while !String(decoding: said, as: UTF8.self).contains("muxing") {
            let more = out.fileHandleForReading.availableData
            if more.isEmpty { break }
            said += more
        }
        #expect(String(decoding: said, as: UTF8.self).contains("muxing"), "the render reached the last ffmpeg run")
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 130)
        #expect(try String(contentsOfFile: video, encoding: .utf8) == "old video")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["long.webm"], "no temporary left")
    }
}
