import Foundation
import Testing

/// One song over several machines: `render --segment K/N` on each, `join` after. The joined video
/// is the single render's: the same frames before encoding, frame count, timestamps and sound.
@Suite(
    .enabled(if: VideoTools.available, "ffmpeg/ffprobe or a SoundFont missing: apt-get install ffmpeg timgm6mb-soundfont (scripts/setup does)"),
    .timeLimit(.minutes(30)))
struct SegmentJoinTests {
    static let song = TestEnvironment.path(of: "fixtures/sync-notes.mid")
    static let look = ["--size", "160x90", "--fps", "30", "--style", "keyboard", "--quiet"]
    static let sound = ["--soundfont", AudioTools.soundFont ?? ""]

    func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("midiviz-join-\(getpid())-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    func run(_ arguments: [String]) throws -> ProcessRunner.Result {
        try ProcessRunner.midiviz(arguments)
    }

    /// The video packets' timestamps, in presentation order.
    func timestamps(_ path: String) throws -> [Int] {
        let result = try ProcessRunner.run(
            URL(fileURLWithPath: VideoTools.ffprobe!),
            ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts", "-of", "csv=p=0", path])
        return result.stdoutText.split(separator: "\n").compactMap { Int($0) }.sorted()
    }

    /// The sound decoded to 16-bit PCM.
    func decodedSound(_ path: String) throws -> Data {
        try ProcessRunner.run(URL(fileURLWithPath: VideoTools.ffmpeg!), ["-v", "error", "-i", path, "-map", "0:a", "-f", "s16le", "-"]).stdout
    }

    @Test func threeSegmentsJoinIntoTheSingleRender() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(try run(["render", Self.song, "-o", dir + "/whole.mp4"] + Self.look + Self.sound).status == 0)
        #expect(try run(["render", Self.song, "--raw-video-out", dir + "/whole.yuv"] + Self.look + Self.sound).status == 0)
        var raw = Data()
        for k in 1...3 {
            #expect(try run(["render", Self.song, "--segment", "\(k)/3", "-o", dir + "/part-\(k).mp4"] + Self.look + Self.sound).status == 0)
            #expect(try run(["render", Self.song, "--segment", "\(k)/3", "--raw-video-out", dir + "/part-\(k).yuv"] + Self.look + Self.sound).status == 0)
            raw.append(try Data(contentsOf: URL(fileURLWithPath: dir + "/part-\(k).yuv")))
            #expect(try VideoTools.probe(dir + "/part-\(k).mp4")["audio"] == nil, "a segment is silent")
        }
        let whole = try Data(contentsOf: URL(fileURLWithPath: dir + "/whole.yuv"))
        #expect(raw.count == whole.count && raw == whole, "the segments' frames are the single render's, byte for byte")

        let joined = try run(
            ["join"] + (1...3).map { dir + "/part-\($0).mp4" } + ["--song", Self.song, "-o", dir + "/joined.mp4"]
                + Self.look + Self.sound)
        #expect(joined.status == 0, "\(joined.stderr)")
        let single = try VideoTools.probe(dir + "/whole.mp4"), together = try VideoTools.probe(dir + "/joined.mp4")
        #expect(together["video"]?.frames == single["video"]?.frames && single["video"]?.frames == whole.count / (160 * 90 * 3 / 2))
        let joinedTimes = try timestamps(dir + "/joined.mp4"), singleTimes = try timestamps(dir + "/whole.mp4")
        #expect(!joinedTimes.isEmpty && joinedTimes == singleTimes, "the same timestamps across the joins")
        let sound = try decodedSound(dir + "/joined.mp4"), singleSound = try decodedSound(dir + "/whole.mp4")
        #expect(!sound.isEmpty && sound == singleSound, "the same sound, so the same sync")
    }

    @Test func partsThatDoNotMakeTheSongAreRefused() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for k in [1, 3] {
            #expect(try run(["render", Self.song, "--segment", "\(k)/3", "-o", dir + "/part-\(k).mp4"] + Self.look + Self.sound).status == 0)
        }
        let missing = try run(["join", dir + "/part-1.mp4", dir + "/part-3.mp4", "--song", Self.song, "-o", dir + "/joined.mp4"] + Self.look + Self.sound)
        #expect(missing.status == 65 && missing.stderr.contains("part 2 of 3 is missing"), "\(missing.stderr)")
        let overPart = try run(["join", dir + "/part-1.mp4", "--song", Self.song, "-o", dir + "/part-1.mp4"] + Self.sound)
        #expect(overPart.status == 64 && overPart.stderr.contains("it is the part \(dir)/part-1.mp4"), "\(overPart.stderr)")
        #expect(EngineFiles.contents(dir) == ["part-1.mp4", "part-3.mp4"], "nothing written, no temporary left")
        #expect(try run(["render", Self.song, "--segment", "1/3", "--from", "1"]).status == 64)
        #expect(try run(["render", Self.song, "--segment", "4/3"]).status == 64)
    }
}

extension SegmentJoinTests {
    static let otherSong = TestEnvironment.path(of: "fixtures/c-major-arpeggio.mid")

    /// The decoded frames, one `framemd5` line each (stream, timestamps, size, MD5), with its header.
    func frameHashes(_ path: String) throws -> [String] {
        let result = try ProcessRunner.run(URL(fileURLWithPath: VideoTools.ffmpeg!), ["-v", "error", "-i", path, "-map", "0:v", "-f", "framemd5", "-"])
        return result.stdoutText.split(separator: "\n").map(String.init)
    }

    /// `render --segment K/N` of `song` into `path`.
    func segment(_ k: Int, of n: Int, to path: String, song: String = Self.song, extra: [String] = []) throws {
        let result = try run(["render", song, "--segment", "\(k)/\(n)", "-o", path] + Self.look + Self.sound + extra)
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test func partsJoinInTheirOrderWhateverTheArgumentsOrder() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Lossless x264: the decoded frames are the rendered ones, so parts and whole compare.
        let lossless = ["--crf", "0"]
        #expect(try run(["render", Self.song, "-o", dir + "/whole.mp4"] + Self.look + Self.sound + lossless).status == 0)
        for k in 1...3 { try segment(k, of: 3, to: dir + "/part-\(k).mp4", extra: lossless) }
        // As a glob orders part-10 before part-2: the arguments out of order.
        let joined = try run(
            ["join"] + [3, 1, 2].map { dir + "/part-\($0).mp4" } + ["--song", Self.song, "-o", dir + "/joined.mp4"] + Self.look + Self.sound)
        #expect(joined.status == 0, "\(joined.stderr)")
        let single = try frameHashes(dir + "/whole.mp4"), together = try frameHashes(dir + "/joined.mp4")
        #expect(single.count > 10 && together == single, "the joined video's decoded frames are the single render's, in order")
        let wholeStreams = try VideoTools.probe(dir + "/whole.mp4"), joinedStreams = try VideoTools.probe(dir + "/joined.mp4")
        #expect(joinedStreams["video"]?.duration == wholeStreams["video"]?.duration && (wholeStreams["video"]?.duration ?? 0) > 1)
        #expect(joinedStreams["audio"]?.duration == wholeStreams["audio"]?.duration)
    }

    /// A segment's PNG frames are named as in the whole render, so the folders of all the
    /// segments make the whole render's folder, file for file and byte for byte.
    @Test func segmentsFramesAreNamedAsInTheWholeRender() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let whole = try run(["render", Self.song, "--no-video", "--frames-dir", dir + "/whole"] + Self.look + Self.sound)
        #expect(whole.status == 0, "\(whole.stderr)")
        var merged: [String: Data] = [:]
        for k in 1...3 {
            let part = try run(["render", Self.song, "--segment", "\(k)/3", "--no-video", "--frames-dir", dir + "/seg\(k)"] + Self.look + Self.sound)
            #expect(part.status == 0, "\(part.stderr)")
            for name in EngineFiles.contents(dir + "/seg\(k)") {
                #expect(merged[name] == nil, "\(name) in two segments")
                merged[name] = try Data(contentsOf: URL(fileURLWithPath: dir + "/seg\(k)/" + name))
            }
        }
        let names = EngineFiles.contents(dir + "/whole")
        #expect(names.count > 10 && merged.keys.sorted() == names)
        for name in names { #expect(merged[name] == (try Data(contentsOf: URL(fileURLWithPath: dir + "/whole/" + name))), "\(name)") }
    }

    /// `join` warns of a `--sample-rate` the MP4's AAC does not carry, as `render` does.
    @Test func joinWarnsOfASampleRateTheMP4DoesNotCarry() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let rate = ["--sample-rate", "30000"]
        for k in 1...2 { try segment(k, of: 2, to: dir + "/part-\(k).mp4", extra: rate) }
        let joined = try run(
            ["join", dir + "/part-1.mp4", dir + "/part-2.mp4", "--song", Self.song, "-o", dir + "/joined.mp4"]
                + Self.look.filter { $0 != "--quiet" } + Self.sound + rate)
        #expect(joined.status == 0, "\(joined.stderr)")
        #expect(joined.stderr.contains("warning: --sample-rate 30000: a .mp4's AAC sound is 32000 Hz, resampled"), "\(joined.stderr)")
        let probed = try ProcessRunner.run(
            URL(fileURLWithPath: VideoTools.ffprobe!),
            ["-v", "error", "-select_streams", "a:0", "-show_entries", "stream=sample_rate", "-of", "csv=p=0", dir + "/joined.mp4"])
        #expect(probed.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines) == "32000")
    }

    /// `--segment auto` takes K and N from the engine's variables (here a Slurm array's, task
    /// IDs 10 to 12) and names each part SONG.part-K-of-N.mp4; the parts, globbed in any order,
    /// join into the single render's frames.
    @Test func segmentAutoTakesItsShareFromTheEnvironment() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.copyItem(atPath: Self.song, toPath: dir + "/song.mid")
        let lossless = ["--crf", "0"]
        #expect(try run(["render", dir + "/song.mid", "-o", dir + "/whole.mp4"] + Self.look + Self.sound + lossless).status == 0)
        for task in 10...12 {
            let slurm = [
                "SLURM_ARRAY_TASK_ID": String(task), "SLURM_ARRAY_TASK_MIN": "10", "SLURM_ARRAY_TASK_MAX": "12", "SLURM_ARRAY_TASK_STEP": "1",
                "SLURM_ARRAY_TASK_COUNT": "3",
            ]
            let part = try ProcessRunner.midiviz(
                ["render", dir + "/song.mid", "--segment", "auto"] + Self.look + Self.sound + lossless, environment: slurm)
            #expect(part.status == 0, "task \(task): \(part.stderr)")
        }
        #expect(EngineFiles.contents(dir) == ["song.mid", "song.part-1-of-3.mp4", "song.part-2-of-3.mp4", "song.part-3-of-3.mp4", "whole.mp4"])
        let joined = try run(
            ["join"] + [2, 3, 1].map { dir + "/song.part-\($0)-of-3.mp4" } + ["--song", dir + "/song.mid", "-o", dir + "/joined.mp4"] + Self.look
                + Self.sound)
        #expect(joined.status == 0, "\(joined.stderr)")
        #expect(try frameHashes(dir + "/joined.mp4") == frameHashes(dir + "/whole.mp4"))
        // A share that is none is refused, saying which variable gave it.
        let none = try ProcessRunner.midiviz(
            ["render", dir + "/song.mid", "--segment", "auto"] + Self.look + Self.sound, environment: ["MIDIVIZ_SHARD": "0/3"])
        #expect(none.status == 64 && none.stderr.contains("--segment auto: MIDIVIZ_SHARD=0/3 is not K/N"), "\(none.stderr)")
    }

    @Test func joinRefusesPartsThatDoNotMakeTheSongNamingThem() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for k in 1...3 { try segment(k, of: 3, to: dir + "/part-\(k).mp4") }
        try segment(2, of: 3, to: dir + "/bars-2.mp4", extra: ["--style", "bars"])
        try segment(1, of: 3, to: dir + "/other-1.mp4", song: Self.otherSong)
        try segment(3, of: 4, to: dir + "/four-3.mp4")
        #expect(try run(["render", Self.song, "-o", dir + "/whole.mp4"] + Self.look + Self.sound).status == 0)
        try FileManager.default.copyItem(atPath: dir + "/part-2.mp4", toPath: dir + "/again-2.mp4")
        let part2 = try Data(contentsOf: URL(fileURLWithPath: dir + "/part-2.mp4"))
        try part2.prefix(part2.count / 2).write(to: URL(fileURLWithPath: dir + "/cut-2.mp4"))
        var damaged = part2
        let middle = part2.count * 2 / 3
        damaged.replaceSubrange(middle..<middle + 64, with: Data(repeating: 0xA5, count: 64))
        try damaged.write(to: URL(fileURLWithPath: dir + "/damaged-2.mp4"))
        try "not a video\n".write(toFile: dir + "/text-2.mp4", atomically: true, encoding: .utf8)
        // Re-encoded with its segment tag kept: at half the size, and in 4:4:4.
        for (name, filter) in [("small-2.mp4", ["-vf", "scale=80:46"]), ("444-2.mp4", ["-pix_fmt", "yuv444p"])] {
            let reencoded = try ProcessRunner.run(
                URL(fileURLWithPath: VideoTools.ffmpeg!),
                ["-v", "error", "-i", dir + "/part-2.mp4", "-map_metadata", "0", "-movflags", "use_metadata_tags", "-c:v", "libx264"] + filter + [
                    dir + "/" + name
                ])
            #expect(reencoded.status == 0, "\(reencoded.stderr)")
        }
        let inputs = EngineFiles.contents(dir)

        func join(_ parts: [String], song: String = Self.song, output: String = "joined.mp4") throws -> ProcessRunner.Result {
            try run(["join"] + parts.map { dir + "/" + $0 } + ["--song", song, "-o", dir + "/" + output] + Self.look + Self.sound)
        }
        // Each case: the parts, the exit status, what the message says.
        let cases: [(parts: [String], song: String, status: Int32, says: [String])] = [
            (["part-1.mp4", "part-2.mp4", "again-2.mp4", "part-3.mp4"], Self.song, 65, ["part-2.mp4", "again-2.mp4", "segment 2 of 3"]),
            (["part-1.mp4", "part-1.mp4", "part-3.mp4"], Self.song, 65, ["part-1.mp4", "twice"]),
            (["part-1.mp4", "part-3.mp4"], Self.song, 65, ["part 2 of 3 is missing"]),
            (["part-3.mp4"], Self.song, 65, ["parts 1 and 2 of 3 are missing"]),
            (["part-1.mp4", "bars-2.mp4", "part-3.mp4"], Self.song, 65, ["bars-2.mp4", "other options"]),
            (["other-1.mp4", "part-2.mp4", "part-3.mp4"], Self.song, 65, ["other-1.mp4", "another song"]),
            (["part-1.mp4", "part-2.mp4", "part-3.mp4"], Self.otherSong, 65, ["part-1.mp4", "another song"]),
            (["part-1.mp4", "part-2.mp4", "four-3.mp4"], Self.song, 65, ["four-3.mp4", "segment 3 of 4"]),
            (["whole.mp4"], Self.song, 65, ["whole.mp4", "not a segment"]),
            (["part-1.mp4", "cut-2.mp4", "part-3.mp4"], Self.song, 65, ["cut-2.mp4", "damaged"]),
            (["part-1.mp4", "damaged-2.mp4", "part-3.mp4"], Self.song, 65, ["damaged-2.mp4", "damaged"]),
            (["part-1.mp4", "small-2.mp4", "part-3.mp4"], Self.song, 65, ["small-2.mp4 holds 80x46 yuv420p frames, not the 160x90 yuv420p"]),
            (["part-1.mp4", "444-2.mp4", "part-3.mp4"], Self.song, 65, ["444-2.mp4 holds 160x90 yuv444p frames"]),
            (["part-1.mp4", "gone-2.mp4", "part-3.mp4"], Self.song, 66, ["gone-2.mp4"]),
            // ffmpeg's complaint without the "file:" name it was given.
            (["part-1.mp4", "text-2.mp4", "part-3.mp4"], Self.song, 65, ["text-2.mp4: not a video join can read (Invalid data found when processing input)"]),
        ]
        for (parts, song, status, says) in cases {
            let result = try join(parts, song: song)
            #expect(result.status == status && says.allSatisfy(result.stderr.contains), "\(parts): \(result.status) \(result.stderr)")
        }
        // Join writes the one container it can make with the right bytes.
        for output in ["joined.webm", "joined.mov", "joined.gif"] {
            let result = try join(["part-1.mp4", "part-2.mp4", "part-3.mp4"], output: output)
            #expect(result.status == 64 && result.stderr.contains(output), "\(output): \(result.status) \(result.stderr)")
        }
        #expect(EngineFiles.contents(dir) == inputs, "nothing written, no temporary left, no input changed")
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/part-2.mp4")) == part2)
    }

    @Test func segmentRefusesContainersJoinCannotJoinBeforeAnyWork() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for name in ["part-1.webm", "part-1.mov", "part-1.gif"] {
            let result = try run(["render", Self.song, "--segment", "1/3", "-o", dir + "/" + name] + Self.look + Self.sound)
            #expect(result.status == 64 && result.stderr.contains(name) && result.stderr.contains(".mp4"), "\(name): \(result.stderr)")
        }
        #expect(EngineFiles.contents(dir).isEmpty)
    }

    @Test func hugeOrOutOfRangeSegmentNumbersAreRefused() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let specs = [
            "9223372036854775807/9223372036854775807", "4611686018427387904/9223372036854775807", "2/100000000", "0/3", "4/3", "-1/3",
            "1/0", "1/99999999999999999999", "1/3/3", "a/3",
        ]
        for spec in specs {
            let result = try run(["render", Self.song, "--segment", spec, "-o", dir + "/part.mp4"] + Self.look + Self.sound)
            #expect(!result.signaled && result.status == 64 && result.stderr.contains("--segment"), "\(spec): \(result.status) \(result.stderr)")
        }
        #expect(EngineFiles.contents(dir).isEmpty)
    }
}

enum EngineFiles {
    static func contents(_ folder: String) -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted() }
}
