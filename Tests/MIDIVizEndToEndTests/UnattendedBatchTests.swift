import Foundation
import Testing

/// `midiviz batch` left to run alone, given hostile paths and reports: nothing outside
/// `--output-dir` is written, no input is replaced, unreadable inputs are failed songs, and
/// merging refuses anything but every shard of one batch.
@Suite(
    .enabled(if: VideoTools.available, "ffmpeg/ffprobe or a SoundFont missing: apt-get install ffmpeg timgm6mb-soundfont (scripts/setup does)"),
    .timeLimit(.minutes(30)))
struct UnattendedBatchTests {
    static let small = ["--size", "160x90", "--fps", "10", "--to", "1", "--preroll", "0", "--no-audio"]

    /// A folder with `songs/a.mid`, `songs/b.mid` and `x/e.mid`; removed by the caller.
    func folder() throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("midiviz-unattended-\(UUID().uuidString.prefix(8))").path
        for sub in ["songs", "x"] { try FileManager.default.createDirectory(atPath: root + "/" + sub, withIntermediateDirectories: true) }
        for (fixture, name) in [("c-major-arpeggio.mid", "songs/a.mid"), ("drum-beat.mid", "songs/b.mid"), ("tempo-map.mid", "x/e.mid")] {
            try FileManager.default.copyItem(atPath: TestEnvironment.path(of: "fixtures/" + fixture), toPath: root + "/" + name)
        }
        return root
    }

    func batch(_ arguments: [String], in root: String) throws -> ProcessRunner.Result {
        try ProcessRunner.midiviz(["batch"] + arguments + Self.small, currentDirectory: URL(fileURLWithPath: root))
    }

    func report(_ path: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any] ?? [:]
    }

    /// Every file under `root`, with its bytes.
    func snapshot(_ root: String) -> [String: Data] {
        var files: [String: Data] = [:]
        for case let name as String in FileManager.default.enumerator(atPath: root)?.allObjects ?? [] {
            if let data = FileManager.default.contents(atPath: root + "/" + name) { files[name] = data }
        }
        return files
    }

    /// A manifest's song whose output would land outside the output folder (through `..` in its
    /// input or output, a link to a folder elsewhere, or a video that is a link elsewhere)
    /// refuses the batch; nothing is written.
    @Test func noOutputLandsOutsideTheOutputFolder() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/v", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/elsewhere", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root + "/v/link", withDestinationPath: root + "/elsewhere")
        // A video that is a link elsewhere (outputs are written through links).
        try Data("keep me too".utf8).write(to: URL(fileURLWithPath: root + "/elsewhere/f.mp4"))
        try FileManager.default.createSymbolicLink(atPath: root + "/v/f.mp4", withDestinationPath: root + "/elsewhere/f.mp4")
        // The file the old batch overwrote: x/e.mp4, beside x/e.mid.
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: root + "/x/e.mp4"))
        let before = snapshot(root)
        for (line, words) in [
            (#"{"input": "../x/e.mid"}"#, "refusing to write v/../x/e.mp4 for ../x/e.mid: it is outside the output folder v"),
            (#"{"input": "a.mid", "output": "link/a.mp4"}"#, "refusing to write v/link/a.mp4 for a.mid: a link takes it outside the output folder"),
            (#"{"input": "a.mid", "output": "f.mp4"}"#, "refusing to write v/f.mp4 for a.mid: a link takes it outside the output folder"),
            (#"{"input": "a.mid", "output": "../a.mp4"}"#, #"songs/m.jsonl:1: "output" must be a name inside the output folder"#),
            (#"{"input": "a.mid", "output": "/tmp/a.mp4"}"#, #"songs/m.jsonl:1: "output" must be a name inside the output folder"#),
            // A number is no file name (it was read as the file `1`, and that song failed).
            (#"{"input": 1}"#, #"songs/m.jsonl:1: "input" must name a file, as a string"#),
            (#"{"input": "a.mid", "output": 2}"#, #"songs/m.jsonl:1: "output" must name the video, as a string"#),
        ] {
            try (line + "\n").write(toFile: root + "/songs/m.jsonl", atomically: true, encoding: .utf8)
            let result = try batch(["songs/m.jsonl", "--output-dir", "v"], in: root)
            #expect(result.status == 64 && result.stderr.contains(words), "\(line): \(result.stderr)")
            try FileManager.default.removeItem(atPath: root + "/songs/m.jsonl")
            #expect(snapshot(root) == before, "\(line) wrote something")
        }
        // Named inside the folder, the same song renders there.
        try (#"{"input": "../x/e.mid", "output": "e.mp4"}"# + "\n").write(toFile: root + "/songs/m.jsonl", atomically: true, encoding: .utf8)
        let result = try batch(["songs/m.jsonl", "--output-dir", "v"], in: root)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try VideoTools.probe(root + "/v/e.mp4")["video"]?.frames == 10)
        #expect(FileManager.default.contents(atPath: root + "/x/e.mp4") == Data("keep me".utf8))
    }

    /// No report and no song's video or record may be a file the batch reads or writes: the
    /// config file, the font, a song, a manifest, a record. Refused before any work, the file
    /// as it was.
    @Test func noOutputIsAnInputOfTheRun() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try "fps = 10\n".write(toFile: root + "/look.toml", atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", toPath: root + "/font.ttf")
        try (#"{"input": "b.mid", "output": "b.mp4"}"# + "\n").write(toFile: root + "/songs/m.jsonl", atomically: true, encoding: .utf8)
        let before = snapshot(root)
        for (arguments, words) in [
            (["songs/a.mid", "--output-dir", "v", "--config", "look.toml", "--report", "look.toml"], "refusing to write look.toml: it is the config file"),
            (["songs/a.mid", "--output-dir", "v", "--font", "font.ttf", "--junit", "font.ttf"], "refusing to write font.ttf: it is the font"),
            (["songs/a.mid", "--output-dir", "v", "--report", "songs/a.mid"], "refusing to write songs/a.mid: it is the input song a.mid"),
            (["songs/m.jsonl", "--output-dir", "v", "--report", "songs/m.jsonl"], "refusing to write songs/m.jsonl: it is the manifest"),
            (["songs/a.mid", "--output-dir", "v", "--report", "v/a.mp4.midiviz.json"], "refusing to write v/a.mp4.midiviz.json: it is the record of a.mid"),
            (["songs/a.mid", "--output-dir", "v", "--report", "v/a.mp4"], "refusing to write v/a.mp4: it is the video of a.mid"),
            // A manifest line whose output is the manifest itself.
            (["songs/m.jsonl", "--output-dir", "songs"], ""),
        ] {
            if arguments == ["songs/m.jsonl", "--output-dir", "songs"] {
                try (#"{"input": "a.mid", "output": "m.jsonl"}"# + "\n").write(toFile: root + "/songs/m.jsonl", atomically: true, encoding: .utf8)
            }
            let result = try batch(arguments, in: root)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(words.isEmpty ? "refusing to write songs/m.jsonl: it is the manifest" : words), "\(result.stderr)")
            var now = snapshot(root)
            now["songs/m.jsonl"] = before["songs/m.jsonl"]
            #expect(now == before, "\(arguments) wrote something")
        }
        // render: the WAV may not replace the config file.
        let render = try ProcessRunner.midiviz(
            ["render", "songs/a.mid", "--config", "look.toml", "--audio", "look.toml", "--no-video", "--soundfont", AudioTools.soundFont ?? ""],
            currentDirectory: URL(fileURLWithPath: root))
        #expect(render.status == 64 && render.stderr.contains("refusing to write look.toml: it is the config file"), "\(render.stderr)")
        #expect(FileManager.default.contents(atPath: root + "/look.toml") == Data("fps = 10\n".utf8))
    }

    /// A report in a folder that does not exist cannot be created: 73, before any work; unless
    /// it lies in the output folder the batch makes (a first run of `--output-dir out --report
    /// out/report.json`).
    @Test func aReportThatCannotBeCreatedIs73() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = try batch(["songs/a.mid", "--output-dir", "v", "--report", "missing/r.json"], in: root)
        #expect(result.status == 73 && result.stderr.contains("cannot create missing/r.json: no folder \(root)/missing"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: root + "/v"))
        let inside = try batch(["songs/a.mid", "--output-dir", "v", "--report", "v/reports/r.json", "--junit", "v/junit.xml"], in: root)
        #expect(inside.status == 0, "\(inside.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: root + "/v/reports/r.json"))) as? [String: Any]
        #expect((report?["songs"] as? [[String: Any]])?.count == 1, "\(report as Any)")
        #expect(FileManager.default.contents(atPath: root + "/v/junit.xml")?.isEmpty == false)
    }

    /// From a fourth hostile pass. A report through a link into `/proc` (`--report /dev/stdout >
    /// log.json`) replaced the link with a file (the machine's own `/dev/stdout`, as root) and
    /// left "not finished" in the log; a record path that is a FIFO was replaced by a file; a
    /// song whose video lies in a folder another song's video takes failed after the first had
    /// rendered. Each is refused before anything is written, and the link and FIFO stay.
    @Test func streamsFIFOsAndFoldersTakenByVideosAreRefusedFirst() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createSymbolicLink(atPath: root + "/out-link", withDestinationPath: "/proc/self/fd/1")
        for report in ["out-link", "/dev/stdout", "/dev/fd/1"] {
            let result = try batch(["songs/a.mid", "--output-dir", "v", "--report", report], in: root)
            #expect(result.status == 73 && result.stderr.contains("refusing to write \(report): it leads to /proc/"), "\(report): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: root + "/out-link")) == "/proc/self/fd/1")
        #expect(!FileManager.default.fileExists(atPath: root + "/v"))
        let stdout = try ProcessRunner.midiviz(
            ["render", "songs/a.mid", "-o", "/dev/stdout"] + Self.small, currentDirectory: URL(fileURLWithPath: root))
        #expect(stdout.status == 73 && stdout.stdout.isEmpty, "\(stdout.stderr)")

        try FileManager.default.createDirectory(atPath: root + "/v", withIntermediateDirectories: true)
        #expect(mkfifo(root + "/v/a.mp4.midiviz.json", 0o644) == 0)
        let fifo = try batch(["songs/a.mid", "--output-dir", "v"], in: root)
        #expect(fifo.status == 1 && fifo.stderr.contains("refusing to write v/a.mp4.midiviz.json: not a regular file"), "\(fifo.stderr)")
        var status = stat()
        #expect(lstat(root + "/v/a.mp4.midiviz.json", &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
        #expect(!FileManager.default.fileExists(atPath: root + "/v/a.mp4"), "the song failed before its render")

        try FileManager.default.createDirectory(atPath: root + "/fc/x.mp4", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: root + "/songs/a.mid", toPath: root + "/fc/x.mid")
        try FileManager.default.copyItem(atPath: root + "/songs/b.mid", toPath: root + "/fc/x.mp4/y.mid")
        let taken = try batch(["fc", "--output-dir", "w"], in: root)
        #expect(taken.status == 64 && taken.stderr.contains("refusing to write y.mp4 for "), "\(taken.stderr)")
        #expect(taken.stderr.contains("inside \(root)/w/x.mp4: it is the video of "), "\(taken.stderr)")
        #expect(!FileManager.default.fileExists(atPath: root + "/w"))
    }

    /// A batch refused before any work (a missing input, 66; a usage error, 64) removes the
    /// reports of an earlier run where its own would go, so that a CI step publishing them does
    /// not show that run as this one; a file there that is not a midiviz report is left alone.
    @Test func aRefusedBatchLeavesNoEarlierReport() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let made = try batch(["songs/a.mid", "--output-dir", "v", "--report", "r.json", "--junit", "r.xml"], in: root)
        #expect(made.status == 0, "\(made.stderr)")
        #expect(FileManager.default.fileExists(atPath: root + "/r.json") && FileManager.default.fileExists(atPath: root + "/r.xml"))
        let missing = try batch(["songs/a.mid", "nothere.mid", "--output-dir", "v", "--report", "r.json", "--junit", "r.xml"], in: root)
        #expect(missing.status == 66, "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: root + "/r.json") && !FileManager.default.fileExists(atPath: root + "/r.xml"))
        // Refused for an option: by the parser, by its check, in a config file; a report
        // named with "=". Each run's reports were made again first.
        try "style = \"nope\"\n".write(toFile: root + "/bad.toml", atomically: true, encoding: .utf8)
        for refusal in [["--style", "nope"], ["--bogus"], ["--jobs", "0"], ["--keys", "C7-C2"], ["--config", "bad.toml"]] {
            #expect(try batch(["songs/a.mid", "--output-dir", "v", "--report", "r.json", "--junit", "r.xml", "--force"], in: root).status == 0)
            let refused = try batch(["songs/a.mid", "--output-dir", "v", "--report=r.json", "--junit", "r.xml"] + refusal, in: root)
            #expect(refused.status == 64, "\(refusal): \(refused.stderr)")
            #expect(
                !FileManager.default.fileExists(atPath: root + "/r.json") && !FileManager.default.fileExists(atPath: root + "/r.xml"),
                "\(refusal) left the earlier reports")
        }
        // Not a report: kept, whatever the refusal.
        try "{\"notes\": []}\n".write(toFile: root + "/other.json", atomically: true, encoding: .utf8)
        try "<?xml version=\"1.0\"?>\n<testsuites/>\n".write(toFile: root + "/other.xml", atomically: true, encoding: .utf8)
        let usage = try batch(["songs", "songs/a.mid", "--output-dir", "v", "--report", "other.json", "--junit", "other.xml"], in: root)
        #expect(usage.status == 64, "\(usage.stderr)")
        #expect(FileManager.default.fileExists(atPath: root + "/other.json") && FileManager.default.fileExists(atPath: root + "/other.xml"))
    }

    /// A manifest written on Windows (CRLF line ends, a byte-order mark) reads as any other.
    @Test func aManifestWithCRLFAndAByteOrderMarkReads() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let text = "\u{FEFF}{\"input\": \"a.mid\", \"fps\": 20}\r\n{\"input\": \"b.mid\"}\r\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: root + "/songs/m.jsonl"))
        let result = try batch(["songs/m.jsonl", "--output-dir", "v", "--report", "r.json"], in: root)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try VideoTools.probe(root + "/v/a.mp4")["video"]?.frames == 20)
        #expect(try VideoTools.probe(root + "/v/b.mp4")["video"]?.frames == 10)
    }

    /// A broken link and a subfolder that cannot be read are failed songs in the report (66),
    /// not skipped in silence; the other songs render. The subfolder is unreadable to the user
    /// `nobody`, who runs the batch (root reads every folder).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") && getuid() == 0, "needs root and setpriv"))
    func unreadableInputsAreFailedSongs() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/songs/locked", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: root + "/x/e.mid", toPath: root + "/songs/locked/e.mid")
        try FileManager.default.createSymbolicLink(atPath: root + "/songs/broken.mid", withDestinationPath: root + "/nowhere.mid")
        for path in [root, root + "/songs", root + "/x"] { chmod(path, 0o777) }
        for path in [root + "/songs/a.mid", root + "/songs/b.mid"] { chmod(path, 0o644) }
        chmod(root + "/songs/locked", 0o700)
        let result = try ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/setpriv"),
            ["--reuid=65534", "--regid=65534", "--clear-groups", TestEnvironment.binary.path, "batch", "songs", "--output-dir", "v", "--report", "r.json"]
                + Self.small, currentDirectory: URL(fileURLWithPath: root))
        #expect(result.status == 1, "\(result.stderr)")
        let songs = try report(root + "/r.json")["songs"] as? [[String: Any]] ?? []
        var byName: [String: [String: Any]] = [:]
        for song in songs { byName[song["input"] as? String ?? "?"] = song }
        #expect(Set(byName.keys) == ["a.mid", "b.mid", "broken.mid", "locked/"])
        #expect(byName["a.mid"]?["status"] as? String == "rendered" && byName["b.mid"]?["status"] as? String == "rendered")
        #expect(byName["broken.mid"]?["status"] as? String == "failed" && byName["broken.mid"]?["exit_code"] as? Int == 66)
        #expect(byName["locked/"]?["status"] as? String == "failed" && byName["locked/"]?["exit_code"] as? Int == 66)
        #expect((byName["locked/"]?["message"] as? String ?? "").contains("cannot read the folder \(root)/songs/locked: Permission denied"))
    }

    /// A song skipped as up to date reports what its render made (frames, seconds), so a rerun
    /// (a requeued task) adds up to the same totals.
    @Test func aSkippedSongReportsWhatItsRenderMade() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        _ = try batch(["songs", "--output-dir", "v", "--report", "first.json"], in: root)
        let again = try batch(["songs", "--output-dir", "v", "--report", "again.json"], in: root)
        #expect(again.status == 0, "\(again.stderr)")
        let first = try report(root + "/first.json")["totals"] as? [String: Any] ?? [:]
        let second = try report(root + "/again.json")["totals"] as? [String: Any] ?? [:]
        #expect(second["skipped"] as? Int == 2 && second["frames"] as? Int == 20)
        #expect(second["frames"] as? Int == first["frames"] as? Int && second["duration_s"] as? Double == first["duration_s"] as? Double)
    }

    /// Shards past the number of songs are empty, at once and in little memory (N is never an
    /// array's size); merging refuses a shard missing, another batch's shard, another N, and
    /// numbers no batch writes; every shard in any order merges to one machine's totals.
    @Test func shardsMergeOnlyWhenWholeAndOfOneBatch() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        for (index, shard) in ["1/9223372036854775807", "2/100000000", "3/100000000"].enumerated() {
            let result = try batch(["songs", "--output-dir", "huge", "--shard", shard, "--report", "huge-\(index).json"], in: root)
            #expect(result.status == 0, "\(shard): \(result.stderr)")
            #expect((try report(root + "/huge-\(index).json")["songs"] as? [Any])?.count == (index < 2 ? 1 : 0), "\(shard)")
        }
        for shard in 1...3 {
            _ = try batch(["songs", "--output-dir", "v", "--shard", "\(shard)/3", "--report", "s\(shard).json"], in: root)
        }
        _ = try batch(["songs", "--output-dir", "v", "--shard", "2/2", "--report", "other-n.json"], in: root)
        _ = try batch(["songs", "--output-dir", "v", "--shard", "2/3", "--style", "bars", "--report", "other-batch.json"], in: root)
        _ = try batch(["songs", "--output-dir", "one", "--report", "one.json"], in: root)
        var huge = try report(root + "/s1.json")
        var songs = huge["songs"] as? [[String: Any]] ?? []
        songs[0]["frames"] = 9_223_372_036_854_775_807
        huge["songs"] = songs
        try JSONSerialization.data(withJSONObject: huge).write(to: URL(fileURLWithPath: root + "/huge.json"))
        for (reports, words) in [
            (["s1.json", "s3.json"], "shard 2 of 3 is missing: merge every shard's report"),
            (["s1.json", "other-batch.json", "s3.json"], "other-batch.json and s1.json are shards of different batches"),
            (["s1.json", "other-n.json", "s3.json"], "other-n.json is shard 2/2 but s1.json is shard 1/3"),
            (["huge.json", "s2.json", "s3.json"], "huge.json: "),
            (["one.json"], "one.json is not a shard's report"),
        ] {
            let result = try ProcessRunner.midiviz(["batch", "--merge-reports"] + reports + ["-o", "all.json"], currentDirectory: URL(fileURLWithPath: root))
            #expect(result.status == 65 && result.stderr.contains(words), "\(reports): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: root + "/all.json"))
        }
        let merged = try ProcessRunner.midiviz(
            ["batch", "--merge-reports", "s3.json", "s1.json", "s2.json", "-o", "all.json"], currentDirectory: URL(fileURLWithPath: root))
        #expect(merged.status == 0, "\(merged.stderr)")
        let all = try report(root + "/all.json")["totals"] as? [String: Any] ?? [:]
        let one = try report(root + "/one.json")["totals"] as? [String: Any] ?? [:]
        for key in ["songs", "rendered", "failed", "frames"] { #expect(all[key] as? Int == one[key] as? Int, "\(key)") }
        #expect(all["duration_s"] as? Double == one["duration_s"] as? Double)
    }

    /// What a hostile pass found (182 cases), each now refused before any work or handled:
    /// numbers in the engines' variables that overflowed, a huge N that made merging hang, totals
    /// that overflowed, records edited to absurd numbers, outputs that are one file spelled two
    /// ways or another song's record, an output named .gif holding MP4, a report over the
    /// SoundFont found by $MIDIVIZ_SOUNDFONT, a NUL byte in a config file, an empty or
    /// uncreatable output folder.
    @Test func whatAHostilePassFoundIsRefused() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        func refused(_ arguments: [String], _ code: Int32, _ words: String, environment: [String: String] = [:]) throws {
            let result = try ProcessRunner.midiviz(arguments, currentDirectory: URL(fileURLWithPath: root), environment: environment)
            #expect(result.status == code && result.stderr.contains(words), "\(arguments) \(environment): \(result.status) \(result.stderr)")
        }
        let oneSong = ["batch", "songs/a.mid", "--output-dir", "v"] + Self.small
        let huge = "9223372036854775807"
        try refused(
            oneSong + ["--shard", "auto"], 64, "JOB_COMPLETION_INDEX=\(huge) is not a whole number",
            environment: ["JOB_COMPLETION_INDEX": huge, "MIDIVIZ_SHARD_COUNT": huge])
        try refused(
            oneSong + ["--shard", "auto"], 64, "SLURM_ARRAY_TASK_MIN=-9223372036854775808 is not a whole number",
            environment: [
                "SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_MIN": "-9223372036854775808", "SLURM_ARRAY_TASK_MAX": huge, "SLURM_ARRAY_TASK_COUNT": "2",
            ])
        try refused(
            oneSong + ["--shard", "auto"], 64, "SLURM_ARRAY_TASK_COUNT=\(huge) is not a whole number",
            environment: ["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_STEP": "2", "SLURM_ARRAY_TASK_COUNT": huge])
        try refused(oneSong + ["--shard", "auto"], 64, "CI_NODE_INDEX is set without CI_NODE_TOTAL", environment: ["CI_NODE_INDEX": "2"])
        try refused(oneSong + ["--shard", "auto"], 64, "CI_NODE_INDEX=two is not a whole number", environment: ["CI_NODE_INDEX": "two", "CI_NODE_TOTAL": "3"])
        #expect(!FileManager.default.fileExists(atPath: root + "/v"))
        // An output folder that is a link to nothing, or a loop of links, or under one: refused
        // before any work (each song failed on it).
        try FileManager.default.createSymbolicLink(atPath: root + "/dangling", withDestinationPath: "nowhere")
        try FileManager.default.createSymbolicLink(atPath: root + "/loop", withDestinationPath: "loop")
        for folder in ["dangling", "loop", "dangling/v"] {
            try refused(["batch", "songs/a.mid", "--output-dir", folder] + Self.small, 73, "cannot create the output folder \(folder): ")
            try refused(["batch", "songs/a.mid", "--output-dir", folder] + Self.small, 73, " is a link to nothing")
        }

        // A report of share 1 of a huge N merges at once into "missing", not a hang.
        #expect(try batch(["songs/a.mid", "--output-dir", "v", "--shard", "1/\(huge)", "--report", "s.json"], in: root).status == 0)
        try refused(["batch", "--merge-reports", "s.json", "-o", "m.json"], 65, "shards 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, ... of \(huge) are missing")
        try refused(["batch", "--merge-reports", "s.json", "-o", "s.json"], 64, "refusing to write s.json: it is the report of a shard, one of those merged")
        // Merging renders nothing: an option only a render uses is refused, not dropped.
        for (given, name) in [(["--style", "bars"], "style"), (["--fps", "30"], "fps"), (["--force"], "force"), (["--report", "r.json"], "report")] {
            try refused(["batch", "--merge-reports", "s.json", "-o", "m.json"] + given, 64, "--merge-reports renders nothing: --\(name) does not apply")
        }
        // Songs whose frames add up past any batch.
        var report = try self.report(root + "/s.json")
        let song = (report["songs"] as? [[String: Any]])?.first ?? [:]
        report["songs"] = (0..<4096).map { index -> [String: Any] in
            var copy = song
            copy["frames"] = 1 << 40
            copy["path"] = "/m/\(index).mid"
            return copy
        }
        report["shard"] = "1/1"
        report["planned_songs"] = 4096
        try JSONSerialization.data(withJSONObject: report).write(to: URL(fileURLWithPath: root + "/big.json"))
        try refused(["batch", "--merge-reports", "big.json", "-o", "m.json"], 65, "big.json: the songs' frames add up past any batch")
        #expect(!FileManager.default.fileExists(atPath: root + "/m.json"))

        // A record edited to absurd numbers is no record: the song renders again.
        let record = root + "/v/a.mp4.midiviz.json"
        let text = try String(contentsOfFile: record, encoding: .utf8)
        try text.replacingOccurrences(of: #""frames":10"#, with: #""frames":\#(huge)"#).write(toFile: record, atomically: true, encoding: .utf8)
        // And a scratch file a killed run left beside it goes when the song is looked at again.
        let stale = root + "/v/.a.mp4.f32.midiviz-999999999-x"
        _ = FileManager.default.createFile(atPath: stale, contents: Data("left".utf8))
        let again = try batch(["songs/a.mid", "--output-dir", "v", "--report", "again.json"], in: root)
        let againTotals = try self.report(root + "/again.json")["totals"] as? [String: Any]
        #expect(again.status == 0 && againTotals?["rendered"] as? Int == 1, "\(again.stderr)")
        let skipped = try batch(["songs/a.mid", "--output-dir", "v", "--report", "skip.json"], in: root)
        let skippedTotals = try self.report(root + "/skip.json")["totals"] as? [String: Any]
        #expect(skipped.status == 0 && skippedTotals?["skipped"] as? Int == 1)
        #expect(!FileManager.default.fileExists(atPath: stale), "a dead run's scratch file is removed")

        // Outputs: one file spelled two ways, another song's record, a container by extension.
        for (lines, words) in [
            ([#"{"input": "a.mid"}"#, #"{"input": "b.mid", "output": "./a.mp4"}"#], "would both be written to"),
            ([#"{"input": "a.mid", "output": "x/a.mp4"}"#, #"{"input": "b.mid", "output": "x//./a.mp4"}"#], "would both be written to"),
            ([#"{"input": "a.mid"}"#, #"{"input": "b.mid", "output": "a.mp4.midiviz.json"}"#], "it is the record of"),
            ([#"{"input": "a.mid", "output": "a.txt"}"#], "a batch writes .mp4"),
        ] {
            try (lines.joined(separator: "\n") + "\n").write(toFile: root + "/songs/m.jsonl", atomically: true, encoding: .utf8)
            try refused(["batch", "songs/m.jsonl", "--output-dir", "w"] + Self.small, 64, words)
        }
        #expect(!FileManager.default.fileExists(atPath: root + "/w"))
        try (#"{"input": "a.mid", "output": "a.gif"}"# + "\n").write(toFile: root + "/songs/m.jsonl", atomically: true, encoding: .utf8)
        #expect(try batch(["songs/m.jsonl", "--output-dir", "w"], in: root).status == 0)
        #expect(try VideoTools.probe(root + "/w/a.gif")["video"]?.codec == "gif")

        // The SoundFont found by $MIDIVIZ_SOUNDFONT is an input, as one given is.
        try FileManager.default.copyItem(atPath: AudioTools.soundFont ?? "", toPath: root + "/sf.sf2")
        let soundFont = try Data(contentsOf: URL(fileURLWithPath: root + "/sf.sf2"))
        try refused(
            ["batch", "songs/a.mid", "--output-dir", "v", "--report", "sf.sf2", "--size", "160x90", "--to", "1"], 64,
            "refusing to write sf.sf2: it is the SoundFont",
            environment: ["MIDIVIZ_SOUNDFONT": root + "/sf.sf2"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: root + "/sf.sf2")) == soundFont)

        // A config file where a video would go, named through a link and `..` (the kernel
        // follows the link first: `link/..` is the link target's parent).
        try FileManager.default.createDirectory(atPath: root + "/elsewhere/sub", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root + "/link", withDestinationPath: root + "/elsewhere/sub")
        try "fps = 10\n".write(toFile: root + "/elsewhere/a.mp4", atomically: true, encoding: .utf8)
        try refused(oneSong.map { $0 == "v" ? "link/.." : $0 } + ["--config", "elsewhere/a.mp4"], 64, "it is the config file")
        #expect(FileManager.default.contents(atPath: root + "/elsewhere/a.mp4") == Data("fps = 10\n".utf8))
        // A config file with CRLF line ends names the line of its fault.
        try Data("style = \"bars\"\r\nfps = 10\r\nbogus = 1\r\n".utf8).write(to: URL(fileURLWithPath: root + "/crlf.toml"))
        try refused(oneSong + ["--config", "crlf.toml"], 64, "crlf.toml:3: bogus: unknown key")

        // A NUL byte in a config file; an empty output folder; one under a file; a silent segment.
        try Data("style = \"bars\"\u{0}\nfps = 20\nbogus = 1\n".utf8).write(to: URL(fileURLWithPath: root + "/look.toml"))
        try refused(oneSong + ["--config", "look.toml"], 64, "look.toml:1: a NUL byte: not a TOML text file")
        try refused(["batch", "songs/a.mid", "--output-dir", ""] + Self.small, 64, "--output-dir needs a folder's name")
        _ = FileManager.default.createFile(atPath: root + "/file", contents: Data("x".utf8))
        try refused(["batch", "songs/a.mid", "--output-dir", "file/sub"] + Self.small, 73, "cannot create the output folder file/sub")
        try refused(["batch", "songs/a.mid", "--output-dir", "file"] + Self.small, 73, "cannot write into the output folder file: it is not a folder")
        try refused(["render", "songs/a.mid", "--segment", "1/2", "--no-audio"], 64, "--segment and --no-audio contradict each other")
    }

    /// From a second hostile pass: a song whose name is not UTF-8 (an old ZIP's Latin-1) and a
    /// link to a folder that holds it (a loop) are failed songs, and links to folders elsewhere
    /// are followed, each folder once; none is left out in silence.
    @Test func noSongIsLeftOutInSilence() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let song = try #require(FileManager.default.contents(atPath: root + "/songs/a.mid"))
        // `songs/caf\xe9.mid`, made from its bytes: no Swift string names it.
        let name = (Array((root + "/songs/caf").utf8) + [0xE9] + Array(".mid".utf8) + [0]).map { CChar(bitPattern: $0) }
        let descriptor = open(name, O_CREAT | O_WRONLY, 0o644)
        #expect(descriptor >= 0)
        _ = song.withUnsafeBytes { write(descriptor, $0.baseAddress, song.count) }
        close(descriptor)
        // Outside songs/: data/d.mid and data/jazz/j.mid, reached by two links, the wider first
        // in order; and x/e.mid by a third.
        try FileManager.default.createDirectory(atPath: root + "/data/jazz", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: root + "/songs/a.mid", toPath: root + "/data/d.mid")
        try FileManager.default.copyItem(atPath: root + "/songs/b.mid", toPath: root + "/data/jazz/j.mid")
        try FileManager.default.createSymbolicLink(atPath: root + "/songs/la", withDestinationPath: "../data")
        try FileManager.default.createSymbolicLink(atPath: root + "/songs/lb", withDestinationPath: "../data/jazz")
        try FileManager.default.createSymbolicLink(atPath: root + "/songs/album", withDestinationPath: "../x")
        try FileManager.default.createSymbolicLink(atPath: root + "/songs/again", withDestinationPath: ".")
        try FileManager.default.createSymbolicLink(atPath: root + "/songs/up", withDestinationPath: "..")
        let result = try batch(["songs", "--output-dir", "v", "--report", "r.json"], in: root)
        #expect(result.status == 1, "\(result.stderr)")
        var byName: [String: [String: Any]] = [:]
        for song in try report(root + "/r.json")["songs"] as? [[String: Any]] ?? [] { byName[song["input"] as? String ?? "?"] = song }
        #expect(
            Set(byName.keys) == ["a.mid", "b.mid", "album/e.mid", "la/d.mid", "la/jazz/j.mid", "caf\\xe9.mid", "up/"],
            "each song once; the link back into songs/ adds nothing")
        for rendered in ["album/e.mid", "la/d.mid", "la/jazz/j.mid"] { #expect(byName[rendered]?["status"] as? String == "rendered", "\(rendered)") }
        #expect(byName["caf\\xe9.mid"]?["exit_code"] as? Int == 66)
        #expect((byName["caf\\xe9.mid"]?["message"] as? String ?? "").hasSuffix("/songs/caf\\xe9.mid: its name is not UTF-8: rename it"))
        #expect(byName["up/"]?["exit_code"] as? Int == 66)
        #expect((byName["up/"]?["message"] as? String ?? "").contains("which holds it (a loop)"))
    }

    /// What `render` warns of (a file cut short, repaired) is in a batch's report, its JUnit
    /// file and its output; a report that is a link is written through, a video that is a
    /// link to another song's refused; a manifest's "output" named as its input is refused as
    /// no video, not taken as no "output".
    @Test func aBatchSaysWhatRenderWarnsOf() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.copyItem(atPath: TestEnvironment.path(of: "fixtures/truncated-30-tracks.mid"), toPath: root + "/songs/cut.mid")
        let made = try batch(["songs", "--output-dir", "w", "--report", "r.json", "--junit", "r.xml"], in: root)
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stderr.contains("midiviz: warning: cut.mid: ") && made.stderr.contains("truncated"), "\(made.stderr)")
        let songs = try report(root + "/r.json")["songs"] as? [[String: Any]] ?? []
        let byName = Dictionary(uniqueKeysWithValues: songs.map { ($0["input"] as? String ?? "", $0) })
        #expect((byName["cut.mid"]?["warnings"] as? [String] ?? []).contains { $0.contains("truncated") }, "\(songs)")
        #expect(byName["a.mid"]?["warnings"] as? [String] == [])
        let junit = try String(contentsOfFile: root + "/r.xml", encoding: .utf8)
        #expect(junit.components(separatedBy: "<system-err>midiviz: warning: ").count > 1 && junit.contains("truncated"), "\(junit)")

        // A report that is a link is written through; a song's video that is a link to
        // another's is refused before any work.
        try FileManager.default.createDirectory(atPath: root + "/kept", withIntermediateDirectories: false)
        try "{}".write(toFile: root + "/kept/r.json", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: root + "/linked.json", withDestinationPath: "kept/r.json")
        let through = try batch(["songs", "--output-dir", "w", "--report", "linked.json"], in: root)
        #expect(through.status == 0, "\(through.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: root + "/linked.json") == "kept/r.json")
        #expect((try report(root + "/kept/r.json")["songs"] as? [[String: Any]])?.count == 3)
        try FileManager.default.createDirectory(atPath: root + "/w3", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: root + "/w3/a.mp4", withDestinationPath: "b.mp4")
        let same = try batch(["songs", "--output-dir", "w3"], in: root)
        #expect(same.status == 64 && same.stderr.contains("a link makes it the same file as w3/a.mp4"), "\(same.stderr)")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: root + "/w3")) == ["a.mp4"])

        try (#"{"input": "a.mid", "output": "a.mid"}"# + "\n").write(toFile: root + "/songs/m.jsonl", atomically: true, encoding: .utf8)
        let named = try batch(["songs/m.jsonl", "--output-dir", "w2"], in: root)
        #expect(named.status == 64 && named.stderr.contains("a.mid"), "\(named.stderr)")
        #expect(!FileManager.default.fileExists(atPath: root + "/w2/a.mp4"))
    }

    /// What the batch's options give every song (the font, the SoundFont, ffmpeg) is checked
    /// once, before any work, with the exit code `render` gives, not failed song by song with
    /// exit 1; the reports then say it of each song. A manifest line's own file fails that song
    /// alone. From then until it ends, a batch's reports say that no song has finished: one
    /// stopped before its end leaves that, not the report of an earlier run that made every song.
    @Test func whatEverySongNeedsIsCheckedFirstAndAReportIsNeverStale() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let withSound = ["batch", "songs", "--output-dir", "w", "--size", "160x90", "--fps", "10", "--to", "1", "--report", "r.json", "--junit", "r.xml"]
        let made = try ProcessRunner.midiviz(withSound, currentDirectory: URL(fileURLWithPath: root))
        #expect(made.status == 0, "\(made.stderr)")
        #expect((try report(root + "/r.json")["totals"] as? [String: Any])?["rendered"] as? Int == 2)
        // Files that are there but unusable, as render says them (65), once (a hostile pass
        // found each song failing alike, and GLib's own line on the terminal).
        for name in ["bad.sf2", "bad.ttf", "bad.png", "bad.mp4"] { try "garbage\n".write(toFile: root + "/" + name, atomically: true, encoding: .utf8) }
        for (extra, environment, code, words) in [
            (["--soundfont", "nope.sf2"], [:], Int32(66), "cannot read SoundFont nope.sf2: no such file"),
            (["--font", "nope.ttf"], [:], 66, "cannot load font nope.ttf: no such file"),
            (["--soundfont", "bad.sf2"], [:], 65, "cannot use SoundFont bad.sf2: not a SoundFont FluidSynth can load"),
            (["--font", "bad.ttf"], [:], 65, "cannot load font bad.ttf: not a font FreeType can read"),
            (["--background-image", "bad.png"], [:], 65, "cannot use background image bad.png: not a picture"),
            (["--background-video", "bad.mp4"], [:], 65, "cannot use background video bad.mp4: not a video"),
            ([], ["MIDIVIZ_FFMPEG": root + "/nope"], 69, "ffmpeg not found"),
        ] {
            try "{}".write(toFile: root + "/r.json", atomically: true, encoding: .utf8)
            let refused = try ProcessRunner.midiviz(
                withSound.map { $0 == "w" ? "w2" : $0 } + extra, currentDirectory: URL(fileURLWithPath: root), environment: environment)
            #expect(refused.status == code && refused.stderr.contains(words), "\(extra): \(refused.status) \(refused.stderr)")
            #expect(!refused.stderr.contains("[1/2]"), "no song was tried")
            #expect(refused.stderr.split(separator: "\n").count == 1, "one line: \(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: root + "/w2"))
            let songs = try report(root + "/r.json")["songs"] as? [[String: Any]] ?? []
            #expect(songs.count == 2 && songs.allSatisfy { $0["status"] as? String == "failed" && $0["exit_code"] as? Int == Int(code) }, "\(songs)")
            #expect((songs.first?["message"] as? String ?? "").contains(words))
            let junit = try String(contentsOfFile: root + "/r.xml", encoding: .utf8)
            #expect(junit.components(separatedBy: "<failure").count == 3, "\(junit)")
        }
        // A manifest line's own missing font: that song fails, the other renders.
        try ([#"{"input": "a.mid", "font": "nope.ttf"}"#, #"{"input": "b.mid"}"#].joined(separator: "\n") + "\n")
            .write(toFile: root + "/songs/m.jsonl", atomically: true, encoding: .utf8)
        let one = try batch(["songs/m.jsonl", "--output-dir", "w4", "--report", "m.json"], in: root)
        #expect(one.status == 1, "\(one.stderr)")
        let totals = try report(root + "/m.json")["totals"] as? [String: Any]
        #expect(totals?["rendered"] as? Int == 1 && totals?["failed"] as? Int == 1, "\(String(describing: totals))")
        try FileManager.default.removeItem(atPath: root + "/songs/m.jsonl")
        // A batch stopped before its end (its "ffmpeg" hangs) leaves the unfinished report.
        try "#!/bin/sh\nexec sleep 60\n".write(toFile: root + "/hang", atomically: true, encoding: .utf8)
        chmod(root + "/hang", 0o755)
        try "{}".write(toFile: root + "/r.json", atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = TestEnvironment.binary
        process.arguments = withSound.map { $0 == "w" ? "w5" : $0 }
        process.currentDirectoryURL = URL(fileURLWithPath: root)
        process.environment = ProcessInfo.processInfo.environment.merging(["MIDIVIZ_FFMPEG": root + "/hang"]) { $1 }
        process.standardError = FileHandle.nullDevice
        _ = try ProcessRunner.start(process, signalsBlocked: false)
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, !((try? String(contentsOfFile: root + "/r.json", encoding: .utf8)) ?? "").contains("not finished") {
            usleep(50_000)
        }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 143)
        let left = try report(root + "/r.json")["songs"] as? [[String: Any]] ?? []
        #expect(left.count == 2 && left.allSatisfy { $0["exit_code"] as? Int == 130 && ($0["message"] as? String ?? "").hasPrefix("not finished") })
        // Stopped after its first song (the "ffmpeg" hangs on the second): the reports are
        // rewritten before it exits, the first song rendered, the second not finished.
        try "#!/bin/sh\ncase \"$*\" in *b.mp4*) exec sleep 60;; esac\nexec ffmpeg \"$@\"\n".write(
            toFile: root + "/hang-b", atomically: true, encoding: .utf8)
        chmod(root + "/hang-b", 0o755)
        let stopped = Process()
        stopped.executableURL = TestEnvironment.binary
        stopped.arguments = withSound.map { $0 == "w" ? "w6" : $0 } + ["--jobs", "1"]
        stopped.currentDirectoryURL = URL(fileURLWithPath: root)
        stopped.environment = ProcessInfo.processInfo.environment.merging(["MIDIVIZ_FFMPEG": root + "/hang-b"]) { $1 }
        stopped.standardError = FileHandle.nullDevice
        _ = try ProcessRunner.start(stopped, signalsBlocked: false)
        let until = Date().addingTimeInterval(60)
        while Date() < until, !FileManager.default.fileExists(atPath: root + "/w6/a.mp4.midiviz.json") { usleep(50_000) }
        usleep(500_000)  // b under way
        kill(stopped.processIdentifier, SIGINT)
        stopped.waitUntilExit()
        #expect(stopped.terminationStatus == 130)
        let finished = try report(root + "/r.json")["songs"] as? [[String: Any]] ?? []
        #expect(finished.map { $0["status"] as? String } == ["rendered", "failed"], "\(finished)")
        #expect(finished.last?["exit_code"] as? Int == 130 && (finished.last?["message"] as? String ?? "").hasPrefix("not finished"))
        #expect(try String(contentsOfFile: root + "/r.xml", encoding: .utf8).components(separatedBy: "<failure").count == 2)
        // Before any work too: an input not there (66, as `render`), a manifest's output naming a
        // folder, a background video that a song's video would replace.
        for (arguments, code, words) in [
            (["nowhere.mid", "--output-dir", "w3"], Int32(66), "nowhere.mid: no such file or folder"),
            (["songs/m.jsonl", "--output-dir", "w3"], 64, "m.jsonl:1: \"output\" names a folder (sub/)"),
            (["songs", "--output-dir", "w3", "--background-video", "w3/a.mp4"], 64, "refusing to write w3/a.mp4: it is the background video"),
        ] {
            try (#"{"input": "a.mid", "output": "sub/"}"# + "\n").write(toFile: root + "/songs/m.jsonl", atomically: true, encoding: .utf8)
            let refused = try batch(arguments, in: root)
            #expect(refused.status == code && refused.stderr.contains(words), "\(arguments): \(refused.status) \(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: root + "/w3"))
            try FileManager.default.removeItem(atPath: root + "/songs/m.jsonl")
        }
    }
}
