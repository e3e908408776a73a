import Foundation
import Testing

/// `midiviz batch` through the binary: a folder past a bad file, reports, up-to-date skipping,
/// and shards under each CI engine's own variables.
@Suite(
    .enabled(if: VideoTools.available, "ffmpeg/ffprobe or a SoundFont missing: apt-get install ffmpeg timgm6mb-soundfont (scripts/setup does)"),
    .timeLimit(.minutes(30)))
struct BatchCommandTests {
    static let small = ["--size", "160x90", "--fps", "10", "--to", "1.5", "--preroll", "0", "--soundfont", AudioTools.soundFont ?? ""]

    /// A folder of four songs (two in a subfolder, one with an upper-case extension), a text file
    /// that is not a song, and a broken .mid; removed by the caller.
    func songFolder() throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("midiviz-batch-\(getpid())-\(UUID().uuidString.prefix(8))").path
        let files = FileManager.default
        try files.createDirectory(atPath: root + "/in/album", withIntermediateDirectories: true)
        for (fixture, name) in [
            ("c-major-arpeggio.mid", "arpeggio.mid"), ("tempo-map.mid", "album/tempo.mid"),
            ("sync-notes.mid", "album/sync.MID"), ("demo-groove.mid", "chords.kar"),
        ] {
            try files.copyItem(atPath: TestEnvironment.path(of: "fixtures/" + fixture), toPath: root + "/in/" + name)
        }
        _ = files.createFile(atPath: root + "/in/notes.txt", contents: Data("not a song".utf8))
        _ = files.createFile(atPath: root + "/in/broken.mid", contents: Data("MThd broken".utf8))
        return root
    }

    func json(_ path: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any] ?? [:]
    }

    func statuses(_ report: [String: Any]) -> [String: String] {
        var out: [String: String] = [:]
        for song in report["songs"] as? [[String: Any]] ?? [] { out[song["input"] as? String ?? "?"] = song["status"] as? String }
        return out
    }

    @Test func aFolderRendersPastABadFileWithReports() throws {
        let root = try songFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = try ProcessRunner.midiviz(
            [
                "batch", root + "/in", "--output-dir", root + "/out", "--report", root + "/report.json",
                "--junit", root + "/report.xml", "--jobs", "2",
            ] + Self.small)
        #expect(result.status == 1, "a failed song makes exit 1: \(result.stderr)")
        let report = try json(root + "/report.json")
        #expect(
            statuses(report) == [
                "arpeggio.mid": "rendered", "album/tempo.mid": "rendered", "album/sync.MID": "rendered",
                "chords.kar": "rendered", "broken.mid": "failed",
            ])
        let totals = report["totals"] as? [String: Any] ?? [:]
        #expect(totals["rendered"] as? Int == 4 && totals["failed"] as? Int == 1 && totals["frames"] as? Int == 4 * 15)
        let broken = (report["songs"] as? [[String: Any]])?.first { $0["input"] as? String == "broken.mid" }
        #expect(broken?["exit_code"] as? Int == 65 && (broken?["message"] as? String ?? "").contains("broken.mid"))
        // Each video is whole: the report's frames, and sound as long as the picture.
        for name in ["arpeggio", "album/tempo", "album/sync", "chords"] {
            let streams = try VideoTools.probe(root + "/out/\(name).mp4")
            #expect(streams["video"]?.frames == 15, "\(name)")
            #expect(abs((streams["audio"]?.duration ?? 0) - 1.5) < 0.05, "\(name)")
        }
        let junit = try String(contentsOfFile: root + "/report.xml", encoding: .utf8)
        #expect(junit.contains("<testsuite name=\"midiviz batch\" tests=\"5\" failures=\"1\" skipped=\"0\""))
        #expect(junit.components(separatedBy: "<testcase ").count - 1 == 5 && junit.contains("<failure message=\"cannot read"))
        #expect(result.stderr.contains("5 songs: 4 rendered, 0 up to date, 1 failed"))
    }

    /// A transparent background where the songs go to .mp4 (a folder's always do) is refused
    /// before any work, with nothing made: each song failed in turn, and an empty subfolder was
    /// left. A manifest naming a .webm renders it.
    @Test func aTransparentBackgroundIntoMP4IsRefusedBeforeAnyWork() throws {
        let root = try songFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.removeItem(atPath: root + "/in/broken.mid")
        let refused = try ProcessRunner.midiviz(
            ["batch", root + "/in", "--output-dir", root + "/out", "--report", root + "/r.json", "--background", "transparent", "--no-audio"]
                + Self.small)
        #expect(refused.status == 64 && refused.stderr.contains("with a transparent background: H.264 in MP4 has no alpha"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: root + "/out") && !FileManager.default.fileExists(atPath: root + "/r.json"))
        try Data(#"{"input": "in/arpeggio.mid", "output": "arpeggio.webm"}"#.utf8).write(to: URL(fileURLWithPath: root + "/songs.jsonl"))
        let webm = try ProcessRunner.midiviz(
            ["batch", root + "/songs.jsonl", "--output-dir", root + "/out", "--background", "transparent", "--no-audio"] + Self.small,
            currentDirectory: URL(fileURLWithPath: root))
        #expect(webm.status == 0, "\(webm.stderr)")
        #expect(try VideoTools.probe(root + "/out/arpeggio.webm")["video"]?.frames == 15)
    }

    /// A song's name holding an escape sequence or a newline reaches the terminal with its
    /// control characters as spaces, in the batch's lines, a render's and an error's: it
    /// cannot retitle the terminal or start a line of its own (the reports escape them).
    @Test func controlCharactersInNamesDoNotReachTheTerminal() throws {
        let root = try songFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let name = "a\u{1B}]0;owned\u{07}\nb.mid"
        try FileManager.default.createDirectory(atPath: root + "/odd", withIntermediateDirectories: false)
        try FileManager.default.copyItem(atPath: root + "/in/arpeggio.mid", toPath: root + "/odd/" + name)
        let runs = [
            try ProcessRunner.midiviz(["batch", root + "/odd", "--output-dir", root + "/out", "--no-audio"] + Self.small),
            try ProcessRunner.midiviz(["render", root + "/odd/" + name, "-o", root + "/out/\u{1B}[2J.mp4", "--no-audio"] + Self.small),
            try ProcessRunner.midiviz(["render", root + "/odd/" + name, "-o", root + "/nowhere/x\u{1B}[2J.mp4", "--no-audio"] + Self.small),
        ]
        for run in runs {
            #expect(!run.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(run.stderr.debugDescription)")
            #expect(run.stderr.split(separator: "\n").allSatisfy { $0.hasPrefix("midiviz") || $0.hasPrefix("[1/1]") }, "\(run.stderr)")
        }
        #expect(runs[0].status == 0 && runs[0].stderr.contains("[1/1] a ]0;owned  b.mid: "), "\(runs[0].stderr)")
        #expect(runs[1].status == 0 && runs[1].stderr.contains(" [2J.mp4: 0:01.500"), "\(runs[1].stderr)")
        #expect(runs[2].status == 73 && runs[2].stderr.contains("x [2J.mp4"), "\(runs[2].stderr)")
        // An argument the parser refuses (a file name from a shell's `*.mid`): its escape too.
        let parsed = try ProcessRunner.midiviz(["render", root + "/in/arpeggio.mid", "extra\u{1B}[31m"])
        #expect(parsed.status == 64 && parsed.stderr.contains("Unexpected argument 'extra [31m'"), "\(parsed.stderr.debugDescription)")
        #expect(!parsed.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(parsed.stderr.debugDescription)")
    }

    @Test func anUpToDateSongIsSkippedUnlessForcedOrChanged() throws {
        let root = try songFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.removeItem(atPath: root + "/in/broken.mid")
        let arguments = ["batch", root + "/in", "--output-dir", root + "/out", "--report", root + "/report.json"] + Self.small
        #expect(try ProcessRunner.midiviz(arguments).status == 0)
        let video = root + "/out/arpeggio.mp4"
        let first = try Data(contentsOf: URL(fileURLWithPath: video))
        let modified = try FileManager.default.attributesOfItem(atPath: video)[.modificationDate] as? Date

        let again = try ProcessRunner.midiviz(arguments)
        #expect(again.status == 0 && again.stderr.contains("4 songs: 0 rendered, 4 up to date, 0 failed"), "\(again.stderr)")
        #expect(try FileManager.default.attributesOfItem(atPath: video)[.modificationDate] as? Date == modified, "not rewritten")

        // A changed input, a changed option, --force: rendered again, and to the same bytes.
        let song = root + "/in/arpeggio.mid"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: song))
        bytes.append(contentsOf: [0, 0])  // trailing bytes: the same music, other bytes
        try bytes.write(to: URL(fileURLWithPath: song))
        #expect(
            statuses(
                try {
                    _ = try ProcessRunner.midiviz(arguments); return try json(root + "/report.json")
                }())["arpeggio.mid"] == "rendered")
        #expect(try Data(contentsOf: URL(fileURLWithPath: video)) == first, "the same music renders to the same bytes")
        _ = try ProcessRunner.midiviz(arguments + ["--scheme", "fire"])
        #expect(Set(statuses(try json(root + "/report.json")).values) == ["rendered"])
        _ = try ProcessRunner.midiviz(arguments + ["--scheme", "fire", "--force"])
        #expect(Set(statuses(try json(root + "/report.json")).values) == ["rendered"])
        _ = try ProcessRunner.midiviz(arguments + ["--scheme", "fire"])
        #expect(Set(statuses(try json(root + "/report.json")).values) == ["skipped"])
    }

    /// Three shards as each engine would start them: together every song once, reports adding
    /// up to the single run's.
    @Test(arguments: [
        (1...3).map { ["CI_NODE_INDEX": "\($0)", "CI_NODE_TOTAL": "3"] },  // GitLab parallel:
        (1...3).map { ["SLURM_ARRAY_TASK_ID": "\($0 + 9)", "SLURM_ARRAY_TASK_MIN": "10", "SLURM_ARRAY_TASK_COUNT": "3"] },
        (1...3).map { ["JOB_COMPLETION_INDEX": "\($0 - 1)", "MIDIVIZ_SHARD_COUNT": "3"] },  // Kubernetes Indexed Job
        (1...3).map { ["MIDIVIZ_SHARD": "\($0)/3"] },  // a GitHub Actions matrix passes it
    ])
    func shardsCoverEverySongOnce(environments: [[String: String]]) throws {
        let root = try songFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        var seen: [String] = []
        var frames = 0
        for (index, environment) in environments.enumerated() {
            let report = root + "/shard-\(index + 1).json"
            let result = try ProcessRunner.midiviz(
                [
                    "batch", root + "/in", "--output-dir", root + "/out", "--shard", "auto",
                    "--report", report,
                ] + Self.small, environment: environment)
            #expect(result.status == 0 || result.status == 1, "\(result.stderr)")
            let object = try json(report)
            #expect(object["shard"] as? String == "\(index + 1)/3")
            seen += statuses(object).keys
            frames += (object["totals"] as? [String: Any])?["frames"] as? Int ?? 0
        }
        #expect(seen.sorted() == ["album/sync.MID", "album/tempo.mid", "arpeggio.mid", "broken.mid", "chords.kar"])
        #expect(frames == 4 * 15)
        // Merged, the shards' reports add up to one machine's report of the whole folder.
        let merge = try ProcessRunner.midiviz(
            ["batch", "--merge-reports"] + (1...3).map { root + "/shard-\($0).json" }
                + ["-o", root + "/all.json", "--junit", root + "/all.xml"])
        #expect(merge.status == 1, "a failed song in any shard: \(merge.stderr)")
        _ = try ProcessRunner.midiviz(["batch", root + "/in", "--output-dir", root + "/single", "--report", root + "/single.json"] + Self.small)
        let merged = try json(root + "/all.json"), single = try json(root + "/single.json")
        #expect(statuses(merged) == statuses(single))
        for key in ["songs", "rendered", "skipped", "failed", "frames"] {
            #expect((merged["totals"] as? [String: Any])?[key] as? Int == (single["totals"] as? [String: Any])?[key] as? Int, "\(key)")
        }
        #expect(try String(contentsOfFile: root + "/all.xml", encoding: .utf8).contains("tests=\"5\" failures=\"1\""))
        // With --progress json, the merged totals as one JSON line on stdout.
        let json = try ProcessRunner.midiviz(
            ["batch", "--merge-reports"] + (1...3).map { root + "/shard-\($0).json" } + ["-o", root + "/again.json", "--progress", "json"])
        let line = try #require(try JSONSerialization.jsonObject(with: Data(json.stdoutText.utf8)) as? [String: Any], "\(json.stdoutText)")
        #expect(line["songs"] as? Int == 5 && line["failed"] as? Int == 1 && line["shards"] as? Int == 3, "\(line)")
        let twice = try ProcessRunner.midiviz(["batch", "--merge-reports", root + "/shard-1.json", root + "/shard-1.json", "-o", root + "/x.json"])
        #expect(twice.status == 65 && twice.stderr.contains("are both shard 1/3"), "\(twice.stderr)")
    }

    /// A manifest line's options win over the command line's, song by song; a bad line refuses
    /// the batch before any work, naming the file, line and key.
    @Test func aManifestSetsEachSongsOptions() throws {
        let root = try songFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let manifest = """
            {"input": "in/arpeggio.mid", "style": "bars", "scheme": "fire"}
            {"input": "in/arpeggio.mid", "output": "keys/arpeggio.mp4", "style": "keyboard", "chords": true, "fps": 20, "to": "0:01", "labels": true}

            {"input": "in/album/tempo.mid", "size": "320x180", "no-audio": true}
            """
        try manifest.write(toFile: root + "/songs.jsonl", atomically: true, encoding: .utf8)
        let result = try ProcessRunner.midiviz(["batch", root + "/songs.jsonl", "--output-dir", root + "/out"] + Self.small)
        #expect(result.status == 0, "\(result.stderr)")
        let bars = try VideoTools.probe(root + "/out/in/arpeggio.mp4"), keys = try VideoTools.probe(root + "/out/keys/arpeggio.mp4")
        let silent = try VideoTools.probe(root + "/out/in/album/tempo.mp4")
        #expect(bars["video"]?.frames == 15 && keys["video"]?.frames == 20 && silent["video"]?.frames == 15)
        #expect(silent["audio"] == nil && keys["audio"] != nil)
        // The record holds each option by its declared name, as typed.
        let record = try #require(FileManager.default.contents(atPath: root + "/out/keys/arpeggio.mp4.midiviz.json"))
        let options = try #require((try JSONSerialization.jsonObject(with: record) as? [String: Any])?["options"] as? [String: [String]])
        #expect(options["style"] == ["keyboard"] && options["chords"] == ["true"] && options["labels"] == ["names"], "\(options)")
        #expect(options["jobs"] == nil, "how many cores rendered it does not change the video")

        try "{\"input\": \"in/arpeggio.mid\"}\n{\"input\": \"in/arpeggio.mid\", \"colour\": \"red\"}\n".write(
            toFile: root + "/bad.jsonl", atomically: true, encoding: .utf8)
        let bad = try ProcessRunner.midiviz(["batch", root + "/bad.jsonl", "--output-dir", root + "/other"] + Self.small)
        #expect(bad.status == 64 && bad.stderr.contains("bad.jsonl:2: unknown key \"colour\""), "\(bad.stderr)")
        #expect(!FileManager.default.fileExists(atPath: root + "/other"))
    }

    /// A font or background image changed in place (the same path, other bytes) makes a song
    /// out of date, as a changed song does; the report says how each song was made.
    @Test(
        .enabled(if: ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf"].allSatisfy { FileManager.default.fileExists(atPath: "/usr/share/fonts/truetype/dejavu/" + $0) }))
    func aChangedFontOrBackgroundImageRendersTheSongAgain() throws {
        let root = try songFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let font = root + "/font.ttf", picture = root + "/picture.png"
        func useFont(_ name: String) throws {
            try? FileManager.default.removeItem(atPath: font)
            try FileManager.default.copyItem(atPath: "/usr/share/fonts/truetype/dejavu/" + name, toPath: font)
        }
        func paint(_ color: String) throws {
            let made = try ProcessRunner.run(
                URL(fileURLWithPath: VideoTools.ffmpeg!),
                ["-v", "error", "-y", "-f", "lavfi", "-i", "color=c=\(color):s=160x90", "-frames:v", "1", picture])
            #expect(made.status == 0, "\(made.stderr)")
        }
        try useFont("DejaVuSans.ttf")
        try paint("0x336699")
        let arguments =
            [
                "batch", root + "/in/arpeggio.mid", "--output-dir", root + "/out", "--report", root + "/report.json",
                "--font", font, "--background-image", picture, "--title", "Title",
            ] + Self.small
        func status() throws -> String? {
            let result = try ProcessRunner.midiviz(arguments)
            #expect(result.status == 0, "\(result.stderr)")
            return statuses(try json(root + "/report.json"))["arpeggio.mid"]
        }
        #expect(try status() == "rendered")
        let song = try #require((try json(root + "/report.json")["songs"] as? [[String: Any]])?.first)
        let options = try #require(song["options"] as? [String: [String]])
        #expect(options["font"] == [font] && options["background-image"] == [picture] && options["title"] == ["Title"], "\(options)")
        #expect(options["size"] == ["160x90"] && options["style"] == nil, "only what differs from the defaults: \(options)")
        #expect(try status() == "skipped")
        try useFont("DejaVuSans-Bold.ttf")
        #expect(try status() == "rendered", "another font at the same path")
        #expect(try status() == "skipped")
        try paint("0x993366")
        #expect(try status() == "rendered", "another picture at the same path")
        #expect(try status() == "skipped")
    }

    /// A song the engine refuses is reported in the command line's words, flags and all, as
    /// `render` says it; the batch goes on and exits 1.
    @Test func aRefusedSongIsReportedWithTheFlagThatRefusedIt() throws {
        let root = try songFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = try ProcessRunner.midiviz(
            ["batch", root + "/in/arpeggio.mid", "--output-dir", root + "/out", "--max-duration", "1", "--report", root + "/report.json"]
                + Self.small)
        #expect(result.status == 1, "\(result.stderr)")
        let report = try #require(FileManager.default.contents(atPath: root + "/report.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: report) as? [String: Any])
        let songs = try #require(object["songs"] as? [[String: Any]])
        let message = try #require(songs.first?["message"] as? String)
        #expect(message.contains("more than --max-duration 1 s"), "\(message)")
        #expect(songs.first?["exit_code"] as? Int == 65)
    }

    @Test func twoSongsForOneOutputAreRefusedBeforeAnyWork() throws {
        let root = try songFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.copyItem(atPath: root + "/in/arpeggio.mid", toPath: root + "/in/arpeggio.midi")
        let result = try ProcessRunner.midiviz(["batch", root + "/in", "--output-dir", root + "/out"] + Self.small)
        #expect(result.status == 64 && result.stderr.contains("would both be written to"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: root + "/out"))
        // The same folder given twice: said so, not as two songs.
        let twice = try ProcessRunner.midiviz(["batch", root + "/in/album", root + "/in/album", "--output-dir", root + "/out"] + Self.small)
        #expect(twice.status == 64 && twice.stderr.contains("is given twice, both to be written to"), "\(twice.stderr)")
        let shard = try ProcessRunner.midiviz(["batch", root + "/in", "--output-dir", root + "/out", "--shard", "4/3"])
        #expect(shard.status == 64)
        let outputs = try ProcessRunner.midiviz(["batch", root + "/in", "--output-dir", root + "/out", "-o", "x.mp4"])
        #expect(outputs.status == 64 && outputs.stderr.contains("--output-dir"))
        // A report that would replace a song, a song's video or a manifest; an --output-dir that
        // is a file; inputs with no song: refused before any work, the song intact.
        let song = root + "/in/arpeggio.mid", before = try Data(contentsOf: URL(fileURLWithPath: song))
        for report in [song, root + "/out/arpeggio.mp4", root + "/reports/"] {
            let refused = try ProcessRunner.midiviz(["batch", song, "--output-dir", root + "/out", "--report", report] + Self.small)
            #expect(refused.status == 64, "\(report): \(refused.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: song)) == before)
        let intoSong = try ProcessRunner.midiviz(["batch", song, "--output-dir", song] + Self.small)
        #expect(intoSong.status == 73 && intoSong.stderr.contains("it is not a folder"), "\(intoSong.stderr)")
        try FileManager.default.createDirectory(atPath: root + "/empty", withIntermediateDirectories: false)
        let empty = try ProcessRunner.midiviz(["batch", root + "/empty", "--output-dir", root + "/out"] + Self.small)
        #expect(empty.status == 64 && empty.stderr.contains("no songs"))
        #expect(!FileManager.default.fileExists(atPath: root + "/out"))
    }

    /// SIGTERM after the first song: exit 143, the finished song kept with its record, the one
    /// being rendered left no partial video or temporary, and no ffmpeg is left.
    @Test func anInterruptedBatchKeepsFinishedSongsAndLeavesNothingPartial() throws {
        let root = try songFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.removeItem(atPath: root + "/in/broken.mid")
        // A long song after the short ones, so a render is under way when the signal comes.
        try FileManager.default.copyItem(
            atPath: TestEnvironment.path(of: "Tests/Corpus/musescore-cc0/concerto_for_orchestra_1.mid"),
            toPath: root + "/in/zz-long.mid")
        let process = Process()
        process.executableURL = TestEnvironment.binary
        process.arguments = [
            "batch", root + "/in", "--output-dir", root + "/out", "--progress", "json",
            "--size", "160x90", "--fps", "10", "--soundfont", AudioTools.soundFont ?? "",
        ]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        // As from a shell: the signals not blocked (a blocked mask once hid that they were dropped).
        #expect(try ProcessRunner.start(process, signalsBlocked: false) == false)
        let firstLine = out.fileHandleForReading.availableData  // the first song is done
        let line = try JSONSerialization.jsonObject(with: firstLine.split(separator: UInt8(ascii: "\n")).first ?? Data()) as? [String: Any]
        #expect(line?["status"] as? String == "rendered", "\(String(decoding: firstLine, as: UTF8.self))")
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 143)
        let written = (FileManager.default.subpaths(atPath: root + "/out") ?? []).sorted()
        #expect(!written.contains { $0.contains(".midiviz-") || $0.hasSuffix(".partial") }, "\(written)")
        #expect(!written.contains("zz-long.mp4"), "the song under way appears not at all")
        let videos = written.filter { $0.hasSuffix(".mp4") }
        #expect(!videos.isEmpty)
        for video in videos {
            #expect(written.contains(video + ".midiviz.json"), "a finished video keeps its record")
            #expect(try VideoTools.probe(root + "/out/" + video)["video"]?.frames ?? 0 > 0)
        }
        let ps = try ProcessRunner.run(URL(fileURLWithPath: "/bin/ps"), ["-eo", "args"])
        #expect(!ps.stdoutText.contains(root), "no ffmpeg left writing into the folder")
    }
}
