import Foundation
import Testing

/// What creators publish: containers by extension, transparent video that composites cleanly,
/// a background picture, normalized loudness and config files; through the binary, checked
/// with ffprobe and ffmpeg (overlay, ebur128).
@Suite(.enabled(if: VideoTools.available, "needs ffmpeg, ffprobe and a SoundFont (scripts/setup)"), .timeLimit(.minutes(30)))
struct PublishingTests {
    static let arpeggio = TestEnvironment.packageRoot.appendingPathComponent("fixtures/c-major-arpeggio.mid").path
    static let groove = TestEnvironment.packageRoot.appendingPathComponent("fixtures/demo-groove.mid").path
    static let small = ["--size", "320x180", "--fps", "15", "--soundfont", AudioTools.soundFont ?? "", "--quiet"]

    func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("midiviz-publish-\(getpid())-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    func ffmpeg(_ arguments: [String]) throws -> ProcessRunner.Result {
        let result = try ProcessRunner.run(URL(fileURLWithPath: VideoTools.ffmpeg!), ["-v", "error", "-y"] + arguments)
        #expect(result.status == 0, "ffmpeg \(arguments): \(result.stderr)")
        return result
    }

    /// ffprobe's fields of the first video stream, and its tags.
    func videoStream(_ path: String) throws -> [String: String] {
        let result = try ProcessRunner.run(
            URL(fileURLWithPath: VideoTools.ffprobe!),
            [
                "-v", "error", "-select_streams", "v:0", "-show_entries",
                "stream=codec_name,pix_fmt,profile,color_space,color_primaries,color_transfer:stream_tags",
                "-of", "default=noprint_wrappers=1", path,
            ])
        var fields: [String: String] = [:]
        for line in result.stdoutText.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { fields[parts[0].replacingOccurrences(of: "TAG:", with: "").lowercased()] = parts[1] }
        }
        return fields
    }

    /// Decoded RGB bytes of every frame (the first `frames`).
    func rgb(_ path: String) throws -> [UInt8] {
        [UInt8](try ffmpeg(["-i", path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]).stdout)
    }

    @Test(arguments: [("mov", "prores", "yuv422p10le"), ("webm", "vp9", "yuv420p"), ("gif", "gif", "bgra")])
    func theExtensionChoosesTheContainer(container: String, codec: String, pixelFormat: String) throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let out = dir + "/song." + container
        let result = try ProcessRunner.midiviz(["render", Self.arpeggio, "-o", out, "--to", "1"] + Self.small)
        #expect(result.status == 0, "\(result.stderr)")
        let video = try videoStream(out)
        #expect(video["codec_name"] == codec && video["pix_fmt"] == pixelFormat, "\(video)")
        if container != "gif" {
            // BT.709 said, as the pixels are: an editor reading "unknown" may take BT.601.
            #expect(video["color_space"] == "bt709" && video["color_primaries"] == "bt709" && video["color_transfer"] == "bt709", "\(video)")
        }
        let streams = try VideoTools.probe(out)
        if container == "gif" {
            #expect(streams["audio"] == nil)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: out))
            #expect(bytes.range(of: Data("NETSCAPE2.0".utf8)) != nil, "a looping GIF")
        } else {
            #expect(streams["audio"]?.codec == (container == "mov" ? "pcm_s16le" : "opus"))
        }
        #expect(EndToEndFolder.contents(dir) == ["song." + container], "no temporaries left")
    }

    @Test func anExtensionWeCannotWriteIsRefusedBeforeAnyWork() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = try ProcessRunner.midiviz(["render", Self.arpeggio, "-o", dir + "/song.avi"] + Self.small)
        #expect(result.status == 64 && result.stderr.contains("song.avi") && result.stderr.contains(".webm"), "\(result.stderr)")
        let transparent = try ProcessRunner.midiviz(["render", Self.arpeggio, "-o", dir + "/song.mp4", "--background", "transparent"] + Self.small)
        #expect(transparent.status == 64 && transparent.stderr.contains("no alpha"), "\(transparent.stderr)")
        #expect(EndToEndFolder.contents(dir).isEmpty)
    }

    /// A transparent frame laid over a colour with ffmpeg's overlay filter (as an editor does)
    /// equals the frame rendered on that colour, within rounding: no dark fringes.
    @Test(arguments: ["keyboard", "roll", "circles", "bars"])
    func aTransparentFrameCompositesLikeTheFrameOnThatColour(style: String) throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = try ffmpeg(["-f", "lavfi", "-i", "color=c=0x336699:s=320x180", "-frames:v", "1", dir + "/blue.png"])
        let look = ["--size", "320x180", "--style", style, "--chords", "--at", "1.2", "--title", "Glow and text"]
        for (name, extra) in [("clear", ["--background", "transparent"]), ("blue", ["--background-image", dir + "/blue.png", "--background-dim", "0"])] {
            let result = try ProcessRunner.midiviz(["frame", Self.arpeggio, "-o", dir + "/\(name)-frame.png"] + look + extra)
            #expect(result.status == 0, "\(result.stderr)")
        }
        #expect(try videoStream(dir + "/clear-frame.png")["pix_fmt"] == "rgba")
        let composited = [UInt8](
            try ffmpeg([
                "-i", dir + "/blue.png", "-i", dir + "/clear-frame.png", "-filter_complex", "[0][1]overlay=format=rgb",
                "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-",
            ]).stdout)
        let expected = try rgb(dir + "/blue-frame.png")
        #expect(composited.count == expected.count && !expected.isEmpty)
        let differences = zip(composited, expected).map { abs(Int($0) - Int($1)) }
        #expect((differences.max() ?? 255) <= 3, "largest difference \(differences.max() ?? -1)")
        let clear = try rgb(dir + "/clear-frame.png")
        #expect(Set(clear).count > 20, "the transparent frame draws something")
    }

    /// The same through ProRes 4444 (with alpha) and VP9 with alpha: both codecs are lossy, so
    /// single pixels at sharp edges may differ by their loss, but on average the composite is the
    /// frame, and no darker (a fringe would pull the signed mean down).
    @Test(arguments: [("mov", 32.0, 0.5), ("webm", 100.0, 1.5)])
    func transparentVideoCompositesLikeTheVideoOnThatColour(container: String, largest: Double, mean: Double) throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = try ffmpeg(["-f", "lavfi", "-i", "color=c=0x336699:s=320x180", "-frames:v", "1", dir + "/blue.png"])
        let look = ["--size", "320x180", "--fps", "15", "--style", "keyboard", "--to", "1", "--preroll", "0", "--no-audio", "--quiet"]
        var result = try ProcessRunner.midiviz(["render", Self.arpeggio, "-o", dir + "/clear." + container, "--background", "transparent"] + look)
        #expect(result.status == 0, "\(result.stderr)")
        result = try ProcessRunner.midiviz(
            [
                "render", Self.arpeggio, "--no-video", "--frames-dir", dir + "/blue",
                "--background-image", dir + "/blue.png", "--background-dim", "0",
            ] + look)
        #expect(result.status == 0, "\(result.stderr)")
        let stream = try videoStream(dir + "/clear." + container)
        if container == "mov" {
            #expect(stream["profile"]?.contains("4444") == true && stream["pix_fmt"]?.hasPrefix("yuva444p") == true, "\(stream)")
        } else {
            #expect(stream["alpha_mode"] == "1", "VP9 with alpha: \(stream)")
        }
        // Frame 10 over blue, decoding the alpha (libvpx's decoder keeps VP9's).
        let decoder = container == "webm" ? ["-c:v", "libvpx-vp9"] : []
        _ = try ffmpeg(
            decoder + [
                "-i", dir + "/clear." + container, "-vf", "select=eq(n\\,9)", "-frames:v", "1", "-pix_fmt", "rgba",
                dir + "/clear-10.png",
            ])
        let composited = [UInt8](
            try ffmpeg([
                "-i", dir + "/blue.png", "-i", dir + "/clear-10.png", "-filter_complex", "[0][1]overlay=format=rgb",
                "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-",
            ]).stdout)
        let expected = try rgb(dir + "/blue/frame_000010.png")
        #expect(composited.count == expected.count && !expected.isEmpty)
        let signed = zip(composited, expected).map { Double(Int($0) - Int($1)) }
        let differences = signed.map(abs)
        let average = differences.reduce(0, +) / Double(max(1, differences.count))
        let bias = signed.reduce(0, +) / Double(max(1, signed.count))
        #expect(
            (differences.max() ?? 255) <= largest && average <= mean && abs(bias) <= mean / 2,
            "\(container): largest \(differences.max() ?? -1), mean \(average), signed mean \(bias)")
    }

    /// A transparent GIF keeps one palette entry transparent: the background decodes with alpha 0.
    @Test func aTransparentGIFHasTransparentPixels() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = try ProcessRunner.midiviz(
            [
                "render", Self.arpeggio, "-o", dir + "/clear.gif", "--to", "1", "--preroll", "0",
                "--style", "keyboard", "--background", "transparent",
            ] + Self.small)
        #expect(result.status == 0, "\(result.stderr)")
        let rgba = [UInt8](
            try ffmpeg([
                "-i", dir + "/clear.gif", "-vf", "select=eq(n\\,9)", "-frames:v", "1", "-f", "rawvideo",
                "-pix_fmt", "rgba", "-",
            ]).stdout)
        let alpha = stride(from: 3, to: rgba.count, by: 4).map { rgba[$0] }
        let clear = alpha.filter { $0 == 0 }.count, solid = alpha.filter { $0 == 255 }.count
        #expect(clear > alpha.count / 4 && solid > alpha.count / 20 && clear + solid == alpha.count, "\(clear) clear, \(solid) solid of \(alpha.count)")
    }

    @Test func theBackgroundImageIsAnInputNotAnOutput() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = try ffmpeg(["-f", "lavfi", "-i", "color=c=0x336699:s=64x36", "-frames:v", "1", dir + "/photo.png"])
        let before = try Data(contentsOf: URL(fileURLWithPath: dir + "/photo.png"))
        for arguments in [
            ["frame", Self.arpeggio, "--at", "1", "-o", dir + "/photo.png"],
            ["render", Self.arpeggio, "--no-video", "--frames-dir", dir + "/f", "--audio", dir + "/photo.png"],
        ] {
            let result = try ProcessRunner.midiviz(arguments + ["--background-image", dir + "/photo.png"])
            #expect(result.status == 64 && result.stderr.contains("background image"), "\(result.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/photo.png")) == before)
    }

    @Test func aBackgroundImageCoversTheFrameDimmed() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // A 4:3 JPEG of two halves, red over green: covering 16:9 crops its top and bottom.
        _ = try ffmpeg(["-f", "lavfi", "-i", "color=c=0xC00000:s=400x150,pad=400:300:0:0:color=0x00C000", "-frames:v", "1", dir + "/halves.jpg"])
        let result = try ProcessRunner.midiviz([
            "frame", Self.arpeggio, "-o", dir + "/f.png", "--size", "320x180", "--at", "0",
            "--style", "circles", "--title", "", "--background-image", dir + "/halves.jpg",
            "--background-dim", "0.5",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let pixels = try rgb(dir + "/f.png")
        func at(_ x: Int, _ y: Int) -> [Int] { (0..<3).map { Int(pixels[(y * 320 + x) * 3 + $0]) } }
        // Corners, away from notes: red halved above, green halved below.
        for (x, y, expected) in [(2, 2, [96, 0, 0]), (317, 2, [96, 0, 0]), (2, 177, [0, 96, 0]), (317, 177, [0, 96, 0])] {
            #expect(zip(at(x, y), expected).allSatisfy { abs($0 - $1) <= 8 }, "(\(x), \(y)): \(at(x, y))")
        }
        let missing = try ProcessRunner.midiviz(["frame", Self.arpeggio, "--at", "1", "-o", dir + "/g.png", "--background-image", dir + "/none.png"])
        #expect(missing.status == 66 && missing.stderr.contains("none.png"), "\(missing.stderr)")
        try Data("not a picture".utf8).write(to: URL(fileURLWithPath: dir + "/bad.png"))
        let bad = try ProcessRunner.midiviz(["frame", Self.arpeggio, "--at", "1", "-o", dir + "/g.png", "--background-image", dir + "/bad.png"])
        #expect(bad.status == 65 && bad.stderr.contains("bad.png"), "\(bad.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/g.png"))
    }

    /// Integrated loudness and true peak of a file's sound, by ffmpeg's ebur128 filter.
    func loudness(_ path: String) throws -> (integrated: Double, truePeak: Double) {
        let result = try ProcessRunner.run(
            URL(fileURLWithPath: VideoTools.ffmpeg!),
            ["-nostats", "-i", path, "-af", "ebur128=peak=true", "-f", "null", "-"])
        let summary = result.stderr.components(separatedBy: "Summary:").last ?? ""
        func value(after label: String) -> Double {
            guard let range = summary.range(of: label) else { return .nan }
            return Double(summary[range.upperBound...].trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "") ?? .nan
        }
        return (value(after: "I:"), value(after: "Peak:"))
    }

    /// A quiet orchestra and a loud drum groove both come out at -14 LUFS under -1 dBTP.
    @Test(arguments: ["Tests/Corpus/musescore-cc0/concerto_for_orchestra_1.mid", "fixtures/demo-groove.mid"])
    func soundIsNormalizedToMinus14LUFS(song: String) throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = TestEnvironment.path(of: song)
        let result = try ProcessRunner.midiviz([
            "render", path, "-o", dir + "/song.mp4", "--to", "20", "--size", "160x90", "--fps", "10",
            "--soundfont", AudioTools.soundFont!, "--progress", "json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let measured = try loudness(dir + "/song.mp4")
        #expect(abs(measured.integrated + 14) <= 0.5 && measured.truePeak <= -1, "\(song): \(measured)")
        let summary = result.stdoutText.split(separator: "\n").last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) } as? [String: Any]
        let reported = summary?["loudness_lufs"] as? Double ?? .nan, gain = summary?["gain_db"] as? Double ?? .nan
        #expect(abs(reported + 14) <= 0.2 && gain.isFinite && summary?["loudness_measured_lufs"] is Double, "\(summary ?? [:])")
        let raw = try ProcessRunner.midiviz([
            "render", path, "-o", dir + "/raw.mp4", "--to", "20", "--size", "160x90", "--fps", "10",
            "--soundfont", AudioTools.soundFont!, "--loudness", "off", "--quiet",
        ])
        #expect(raw.status == 0, "\(raw.stderr)")
        let before = try loudness(dir + "/raw.mp4")
        let measuredBefore = summary?["loudness_measured_lufs"] as? Double ?? .nan
        #expect(abs(before.integrated - measuredBefore) <= 0.5, "--loudness off keeps the synthesizer's level: \(before) vs \(measuredBefore)")
        print("loudness \(song): synthesizer \(before), normalized \(measured), gain \(gain) dB")
    }

    /// The normalized sound in an MP4, encoded to AAC while the frames are still drawn and copied
    /// in at the end, is packet for packet ffmpeg's AAC of the same render's WAV, and starts and
    /// ends with the video; a WebM's sound is encoded at the end as before.
    @Test(arguments: ["mp4", "webm"])
    func theSoundEncodedAheadIsTheAACOfTheWAV(container: String) throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let video = dir + "/song." + container, wav = dir + "/song.wav"
        let result = try ProcessRunner.midiviz(["render", Self.groove, "-o", video, "--audio", wav, "--to", "6"] + Self.small)
        #expect(result.status == 0, "\(result.stderr)")
        let codec = container == "mp4" ? ["-c:a", "aac", "-b:a", "192k"] : ["-c:a", "libopus", "-b:a", "160k"]
        try ffmpeg(["-i", wav] + codec + ["-f", container, dir + "/alone." + container])
        func packets(_ path: String) throws -> String { try ffmpeg(["-i", path, "-map", "0:a", "-c", "copy", "-f", "md5", "-"]).stdoutText }
        let (inVideo, alone) = (try packets(video), try packets(dir + "/alone." + container))
        #expect(inVideo.hasPrefix("MD5=") && inVideo == alone, "\(container): \(inVideo) against \(alone)")
        if container == "mp4" {  // WebM's streams carry no duration
            let probe = try VideoTools.probe(video)
            let (audio, picture) = (probe["audio"]?.duration ?? 0, probe["video"]?.duration ?? 0)
            #expect(audio > 5.9 && abs(audio - picture) < 0.05, "sound \(audio) s, picture \(picture) s")
        }
        #expect(EndToEndFolder.contents(dir) == ["alone." + container, "song." + container, "song.wav"].sorted(), "no scratch file left")
    }

    /// A target the true-peak ceiling keeps out of reach is warned of, with what was reached
    /// (ffmpeg's ebur128 measures the same); one within reach is not.
    @Test func aLoudnessOutOfReachIsWarnedOf() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        func render(_ target: String, _ name: String) throws -> ProcessRunner.Result {
            try ProcessRunner.midiviz([
                "render", TestEnvironment.path(of: "fixtures/c-major-arpeggio.mid"), "--no-video", "--audio", dir + "/" + name,
                "--to", "3", "--loudness", target, "--soundfont", AudioTools.soundFont!,
            ])
        }
        let loud = try render("-3", "loud.wav")
        #expect(loud.status == 0, "\(loud.stderr)")
        #expect(loud.stderr.contains("midiviz: warning: --loudness -3: the sound reached "), "\(loud.stderr)")
        let reached = try loudness(dir + "/loud.wav")
        #expect(reached.integrated < -4 && reached.truePeak <= -1, "\(reached)")
        let usual = try render("-14", "usual.wav")
        #expect(usual.status == 0 && !usual.stderr.contains("warning"), "\(usual.stderr)")
    }

    /// A `--sample-rate` the container's codec does not carry is warned of, with the rate it
    /// carries (ffprobe reads that rate); one it carries is not.
    @Test(arguments: [("mp4", 30000, 32000), ("mp4", 192_000, 96000), ("webm", 44100, 48000), ("mp4", 44100, 44100), ("mov", 30000, 30000)])
    func aSampleRateTheCodecDoesNotCarryIsWarnedOf(container: String, asked: Int, carried: Int) throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let output = dir + "/v." + container
        let result = try ProcessRunner.midiviz(
            ["render", Self.arpeggio, "-o", output, "--to", "1", "--sample-rate", String(asked)] + Self.small.filter { $0 != "--quiet" })
        #expect(result.status == 0, "\(result.stderr)")
        let probed = try ProcessRunner.run(
            URL(fileURLWithPath: VideoTools.ffprobe!),
            ["-v", "error", "-select_streams", "a:0", "-show_entries", "stream=sample_rate", "-of", "csv=p=0", output])
        #expect(probed.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines) == String(carried))
        let warned = result.stderr.contains("warning: --sample-rate \(asked): a .\(container)'s")
        #expect(warned == (asked != carried), "\(result.stderr)")
        if asked != carried { #expect(result.stderr.contains("sound is \(carried) Hz, resampled"), "\(result.stderr)") }
    }

    /// Sound options given to a render that makes no sound (`--no-audio`, a GIF alone, frames
    /// alone) are warned of, with why; with sound made (a video with sound, or a WAV beside a
    /// GIF) they are not.
    @Test(
        arguments: [
            (["--no-audio", "--loudness", "-20"], "v.mp4", "--loudness: this render makes no sound (--no-audio), so it has no effect"),
            (["--gain", "0.5", "--loudness", "-20"], "v.gif", "--gain, --loudness: this render makes no sound (a .gif carries none; --audio"),
            (["--loudness", "-20", "--no-video", "--frames-dir", "frames"], nil, "--loudness: this render makes no sound (frames carry none"),
            (["--loudness", "-20", "--audio", "a.wav"], "v.gif", nil),
            (["--loudness", "-20"], "v.mp4", nil),
        ] as [([String], String?, String?)])
    func soundOptionsWithoutSoundAreWarnedOf(arguments: [String], video: String?, warning: String?) throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = try ProcessRunner.midiviz(
            ["render", Self.arpeggio, "--to", "1", "--size", "320x180", "--fps", "15"] + (video.map { ["-o", dir + "/" + $0] } ?? [])
                + arguments.map { ["a.wav", "frames"].contains($0) ? dir + "/" + $0 : $0 })
        #expect(result.status == 0, "\(result.stderr)")
        let warned = result.stderr.split(separator: "\n").filter { $0.contains("no effect") }
        if let warning {
            #expect(warned.count == 1 && warned[0].hasPrefix("midiviz: warning: " + warning), "\(result.stderr)")
        } else {
            #expect(warned.isEmpty, "\(result.stderr)")
        }
        guard let video else { return #expect(EngineFiles.contents(dir + "/frames").count > 5) }
        let streams = try ProcessRunner.run(
            URL(fileURLWithPath: VideoTools.ffprobe!), ["-v", "error", "-show_entries", "stream=codec_type", "-of", "csv=p=0", dir + "/" + video])
        #expect(streams.stdoutText.contains("audio") == (video == "v.mp4" && warning == nil), "\(streams.stdoutText)")
    }

    /// A frame too low to keep the overlays off the notes leaves them out, and `render`, `frame`
    /// and `batch` say so.
    @Test func overlaysLeftOutOfALowFrameAreWarnedOf() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let karaoke = TestEnvironment.path(of: "fixtures/karaoke-latin1.kar")
        let songs = dir + "/songs"
        try FileManager.default.createDirectory(atPath: songs, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: karaoke, toPath: songs + "/k.kar")
        let look = ["--size", "", "--title", "A title", "--lyrics", "--chords", "--color-by", "track"]
        for (size, warned) in [("1280x120", true), ("1280x360", false)] {
            var look = look
            look[1] = size
            let line = "--size \(size): too low to keep the title, the chord, the legend and the lyrics off the notes: left out"
            // A render, a poster and a batch (whose report keeps it too) say it alike.
            for command in [
                ["render", karaoke, "-o", dir + "/v.mp4", "--to", "1", "--fps", "10", "--no-audio"],
                ["frame", karaoke, "--at", "1", "-o", dir + "/poster.png"],
                ["batch", songs, "--output-dir", dir + "/videos", "--to", "1", "--fps", "10", "--no-audio", "--force", "--report", dir + "/r.json"],
            ] {
                let result = try ProcessRunner.midiviz(command + look)
                #expect(result.status == 0, "\(result.stderr)")
                #expect(result.stderr.contains(line) == warned, "\(command[0]) \(size): \(result.stderr)")
            }
            let report = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/r.json"))) as? [String: Any]
            let song = (report?["songs"] as? [[String: Any]])?.first
            #expect((song?["warnings"] as? [String]) == (warned ? [line] : []), "\(String(describing: song))")
        }
    }

    /// A range under EBU R128's 0.4-s block has no loudness to measure: its sound is written
    /// as made, and the line says why, not that it is silent.
    @Test func aRangeTooShortToMeasureIsNotCalledSilent() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = try ProcessRunner.midiviz([
            "render", TestEnvironment.path(of: "fixtures/demo-groove.mid"), "--no-video", "--audio", dir + "/short.wav",
            "--from", "0", "--to", "0.3", "--soundfont", AudioTools.soundFont!,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("too short to measure its loudness"), "\(result.stderr)")
        #expect(!result.stderr.contains("silent"), "\(result.stderr)")
        let wav = try WAVFile(path: dir + "/short.wav")
        #expect((wav.samples.first ?? []).contains { abs($0) > 0.01 }, "the drums sound in it")
    }

    @Test func aConfigFileGivesTheSamePixelsAsTheFlagsAndTheCommandLineWins() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try """
        # my look
        style = "keyboard"
        scheme = "ocean"
        chords = true
        fps = 12
        speed = 1.5
        size = "320x180"
        keys = "song"
        """.write(toFile: dir + "/look.toml", atomically: true, encoding: .utf8)
        let common = ["--no-video", "--no-audio", "--to", "0.5", "--preroll", "0", "--quiet"]
        var result = try ProcessRunner.midiviz(
            [
                "render", Self.arpeggio, "--config", dir + "/look.toml", "--fps", "10",
                "--frames-dir", dir + "/a",
            ] + common)
        #expect(result.status == 0, "\(result.stderr)")
        result = try ProcessRunner.midiviz(
            [
                "render", Self.arpeggio, "--style", "keyboard", "--scheme", "ocean", "--chords", "--fps", "10",
                "--speed", "1.5", "--size", "320x180", "--keys", "song", "--frames-dir", dir + "/b",
            ] + common)
        #expect(result.status == 0, "\(result.stderr)")
        let a = EndToEndFolder.contents(dir + "/a"), b = EndToEndFolder.contents(dir + "/b")
        #expect(a.count == 5 && a == b, "--fps 10 on the command line wins over the file's 12")
        for name in a {
            #expect(FileManager.default.contents(atPath: dir + "/a/" + name) == FileManager.default.contents(atPath: dir + "/b/" + name))
        }
        // --print-config writes what --config reads back.
        let printed = try ProcessRunner.midiviz(["render", Self.arpeggio, "--config", dir + "/look.toml", "--print-config"])
        #expect(printed.status == 0 && printed.stdoutText.contains("style = \"keyboard\"") && printed.stdoutText.contains("fps = 12"))
        try printed.stdoutText.write(toFile: dir + "/saved.toml", atomically: true, encoding: .utf8)
        let again = try ProcessRunner.midiviz(["render", Self.arpeggio, "--config", dir + "/saved.toml", "--print-config"])
        #expect(again.status == 0 && again.stdoutText == printed.stdoutText, "\(again.stderr)")
    }

    @Test func aConfigFilesPathsAreFromItsFolderAndAMissingFileIs66() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/looks", withIntermediateDirectories: true)
        _ = try ffmpeg(["-f", "lavfi", "-i", "color=c=0xC00000:s=64x36", "-frames:v", "1", dir + "/looks/red.png"])
        try "background-image = \"red.png\"\nbackground-dim = 0\nhide-track = [0]\n".write(toFile: dir + "/looks/red.toml", atomically: true, encoding: .utf8)
        let rendered = try ProcessRunner.midiviz([
            "render", Self.arpeggio, "--config", dir + "/looks/red.toml", "--size", "64x36", "--to", "0.2",
            "--no-video", "--no-audio", "--frames-dir", dir + "/frames", "--quiet",
        ])
        #expect(rendered.status == 0, "\(rendered.stderr)")
        let pixels = try rgb(dir + "/frames/frame_000001.png")
        #expect(pixels.count == 64 * 36 * 3 && abs(Int(pixels[0]) - 0xC0) <= 4 && pixels[1] < 8, "the red picture, found beside the file")
        let missing = try ProcessRunner.midiviz(["render", Self.arpeggio, "--config", dir + "/none.toml"])
        #expect(missing.status == 66 && missing.stderr.contains("none.toml"), "\(missing.stderr)")
    }

    @Test(arguments: [
        ("style = \"keyboard\"\ncolour = \"red\"\n", ":2: colour", "unknown key"),
        ("style = \"keyboard\"\n\nfps = \"fast\"\n", ":3: fps", "fast"),
        ("chords = 3\n", ":1: chords", "true or false"),
        ("speed = 9\n", ":1: speed", "speed must be between 0.5 and 2, not 9"),
        ("style = \n", ":1", "not TOML"),
        // A table or a dotted key is named on its own line.
        ("style = \"bars\"\n\n\n[x]\nscheme = \"fire\"\n", ":4: x", "tables are not options"),
        ("style = \"bars\"\nlook.scheme = \"fire\"\n", ":2: look", "tables are not options"),
    ])
    func aBadConfigNamesTheFileLineAndKey(text: String, place: String, cause: String) throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try text.write(toFile: dir + "/look.toml", atomically: true, encoding: .utf8)
        let result = try ProcessRunner.midiviz(["render", Self.arpeggio, "--config", dir + "/look.toml", "-o", dir + "/x.mp4"])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("look.toml" + place) && result.stderr.contains(cause), "\(result.stderr)")
        #expect(EndToEndFolder.contents(dir) == ["look.toml"])
    }
}

enum EndToEndFolder {
    static func contents(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }
}
