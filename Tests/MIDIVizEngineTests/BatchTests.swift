import Foundation
import MIDIVizCore
import MIDIVizEngine
import MIDIVizIO
import Testing

/// A batch as library types: the plan from inputs, shares of it, the report through JSON and
/// merged back, and the up-to-date record as the key of every file a song's render reads.
@Suite(.timeLimit(.minutes(30)))
struct BatchTests {
    /// `names` copied from the arpeggio fixture under a new folder's `in`; removed by the caller.
    static func songs(_ names: [String], label: String = #function) throws -> String {
        let root = try EngineTestSupport.folder(label)
        for name in names {
            let path = root + "/in/" + name
            try FileManager.default.createDirectory(
                atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path,
                withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: EngineTestSupport.fixture("c-major-arpeggio.mid"), toPath: path)
        }
        return root
    }

    @Test func aFolderIsPlannedInOrderWithEachOutput() throws {
        let root = try Self.songs(["b.mid", "album/a.MIDI", "album/c.kar", "z.rmi"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        _ = FileManager.default.createFile(atPath: root + "/in/notes.txt", contents: Data("not a song".utf8))
        var options = RenderOptions()
        options.style = .bars
        let plan = try BatchPlan.make(inputs: [root + "/in"], outputDirectory: root + "/out", options: options)
        #expect(plan.songs.map(\.relativePath) == ["album/a.MIDI", "album/c.kar", "b.mid", "z.rmi"])
        #expect(plan.songs.map(\.output) == ["album/a", "album/c", "b", "z"].map { root + "/out/\($0).mp4" })
        #expect(plan.songs.allSatisfy { $0.options == options && $0.input.hasPrefix(root + "/in/") })
        #expect(plan.shard == nil && plan.manifests.isEmpty)
    }

    /// A manifest line gives each key once: which of two a reader keeps differs (Swift's
    /// JSONDecoder the first, Python and JavaScript the last), so two are refused.
    @Test func aManifestLineGivesEachKeyOnce() throws {
        let root = try Self.songs(["song.mid"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let manifest = root + "/in/songs.jsonl"
        func plan(_ line: String) throws -> BatchPlan {
            try line.write(toFile: manifest, atomically: true, encoding: .utf8)
            return try BatchPlan.make(inputs: [manifest], outputDirectory: root + "/out", options: RenderOptions())
        }
        for line in [
            #"{"input": "song.mid", "style": "bars", "style": "roll"}"#,
            #"{"input": "song.mid", "style": "bars", "st\u0079le": "roll"}"#,
        ] {
            #expect(throws: BatchError.usage("\(manifest):1: \"style\" is given twice (give each key once)"), "\(line)") { try plan(line) }
        }
        // Keys inside values and lists are not the line's.
        let song = try #require(
            try plan(#"{"input": "song.mid", "title": "\"style\": \"x\", {", "hide-track": [1, 2], "style": "roll"}"#).songs.first)
        #expect(song.options.style == .roll && song.options.title == #""style": "x", {"# && song.options.hiddenTracks == [1, 2])
    }

    /// A line's option wins over the batch's that contradicts it, for that song alone; two of
    /// the line's own that contradict refuse the batch.
    @Test func aManifestLineWinsOverTheBatchsContradictingOption() throws {
        let root = try Self.songs(["a.mid", "b.mid"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let manifest = root + "/in/songs.jsonl"
        var options = RenderOptions()
        options.background = .transparent
        options.hiddenTracks = [0]
        try """
        {"input": "a.mid", "background-image": "sky.png", "only-track": [0]}
        {"input": "b.mid", "output": "b.webm"}
        """.write(toFile: manifest, atomically: true, encoding: .utf8)
        let plan = try BatchPlan.make(inputs: [manifest], outputDirectory: root + "/out", options: options)
        #expect(plan.songs[0].options.background == nil && plan.songs[0].options.backgroundImage == root + "/in/sky.png")
        #expect(plan.songs[0].options.hiddenTracks.isEmpty && plan.songs[0].options.onlyTracks == [0])
        #expect(plan.songs[1].options == options)
        try ##"{"input": "a.mid", "background-image": "sky.png", "background": "#102030"}"##.write(toFile: manifest, atomically: true, encoding: .utf8)
        #expect(throws: BatchError.usage("\(manifest):1: background-image and background #102030 contradict each other")) {
            try BatchPlan.make(inputs: [manifest], outputDirectory: root + "/out", options: RenderOptions())
        }
    }

    @Test func twoSongsForOneOutputAreRefused() throws {
        let root = try Self.songs(["song.mid", "song.midi"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(throws: BatchError.usage("\(root)/in/song.mid and \(root)/in/song.midi would both be written to \(root)/out/song.mp4")) {
            try BatchPlan.make(inputs: [root + "/in"], outputDirectory: root + "/out", options: RenderOptions())
        }
        // A file given by itself is named by its name alone: the same output as the folder's.
        #expect(throws: BatchError.self) {
            try BatchPlan.make(inputs: [root + "/in/song.mid", root + "/in"], outputDirectory: root + "/out", options: RenderOptions())
        }
        let missing = try #require(throws: BatchError.self) {
            try BatchPlan.make(inputs: [root + "/nowhere"], outputDirectory: root + "/out", options: RenderOptions())
        }
        #expect(missing.exitCode == 66 && missing.message.contains("no such file or folder"))
        try FileManager.default.createDirectory(atPath: root + "/empty", withIntermediateDirectories: false)
        #expect(throws: BatchError.usage("no songs (.mid, .midi, .kar, .rmi, .musicxml, .mxl, .mscz, .mscx) in \(root)/empty")) {
            try BatchPlan.make(inputs: [root + "/empty"], outputDirectory: root + "/out", options: RenderOptions())
        }
        #expect(!FileManager.default.fileExists(atPath: root + "/out"), "planning writes nothing")
    }

    @Test func reportsMayNotReplaceASongOrItsVideo() throws {
        let root = try Self.songs(["song.mid"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let plan = try BatchPlan.make(inputs: [root + "/in"], outputDirectory: root + "/out", options: RenderOptions())
        for report in [root + "/in/song.mid", root + "/out/song.mp4"] {
            #expect(throws: BatchError.self) { try plan.check(reports: [report]) }
        }
        try plan.check(reports: [root + "/report.json"])
    }

    /// Every K of N, for any N, together hold every song once, balanced by length.
    @Test(arguments: [1, 2, 3, 5, 8])
    func sharesCoverEverySongOnce(count: Int) throws {
        let names = (0..<7).map { "song\($0)" }
        let durations: [Double] = [300, 10, 45, 45, 0, 120, 7]
        var seen: [String] = []
        var loads: [Double] = []
        for index in 1...count {
            let shard = try #require(BatchShard(index: index, count: count))
            let mine = shard.share(names, durations: durations, name: { $0 })
            #expect(mine == mine.sorted(by: { names.firstIndex(of: $0)! < names.firstIndex(of: $1)! }), "in the plan's order")
            seen += mine
            loads.append(mine.reduce(0) { $0 + durations[names.firstIndex(of: $1)!] + 1 })
        }
        #expect(seen.sorted() == names)
        if count == 2 { #expect(abs(loads[0] - loads[1]) <= 300, "\(loads)") }
        #expect(BatchShard(index: 0, count: count) == nil && BatchShard(index: count + 1, count: count) == nil)
    }

    /// Durations missing or not numbers count as 0 s: every song is still in one share (a
    /// shorter list trapped, from a hostile consumer of the library).
    @Test func missingDurationsCountAsNone() throws {
        let names = ["a", "b", "c"]
        var seen: [String] = []
        for index in 1...2 { seen += try #require(BatchShard(index: index, count: 2)).share(names, durations: [1, .nan], name: { $0 }) }
        #expect(seen.sorted() == names)
    }

    @Test func aShardIsReadAsKOverNAndFromEachEnginesVariables() throws {
        #expect(BatchShard("2/3") == BatchShard(index: 2, count: 3))
        for bad in ["4/3", "0/3", "1/0", "x/3", "1/3/1", "1", ""] { #expect(BatchShard(bad) == nil, "\(bad)") }
        let environments: [([String: String], String)] = [
            (["CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "3"], "2/3"),
            (["SLURM_ARRAY_TASK_ID": "11", "SLURM_ARRAY_TASK_MIN": "10", "SLURM_ARRAY_TASK_COUNT": "3"], "2/3"),
            (["JOB_COMPLETION_INDEX": "1", "MIDIVIZ_SHARD_COUNT": "3"], "2/3"),
            (["MIDIVIZ_SHARD": "3/4", "CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "2"], "3/4"),
        ]
        for (environment, expected) in environments {
            #expect(try BatchShard.fromEnvironment(environment).description == expected, "\(environment)")
        }
        #expect(throws: BatchError.self) { try BatchShard.fromEnvironment([:]) }
        #expect(throws: BatchError.self) { try BatchShard.fromEnvironment(["JOB_COMPLETION_INDEX": "0"]) }
        #expect(throws: BatchError.self) { try BatchShard.fromEnvironment(["MIDIVIZ_SHARD": "5/4"]) }
        #expect(throws: BatchError.self) { try BatchShard.fromEnvironment(["CI_NODE_INDEX": "4", "CI_NODE_TOTAL": "3"]) }
    }

    @Test func aShardedPlanHoldsItsShare() throws {
        let root = try Self.songs(["a.mid", "b.mid", "c.mid"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let plan = try BatchPlan.make(inputs: [root + "/in"], outputDirectory: root + "/out", options: RenderOptions())
        let shares = (1...2).map { plan.sharded(BatchShard(index: $0, count: 2)!) }
        #expect(shares.map(\.shard?.description) == ["1/2", "2/2"])
        #expect(shares.flatMap(\.songs).map(\.relativePath).sorted() == ["a.mid", "b.mid", "c.mid"])
    }

    static func result(_ input: String, _ status: BatchResult.Status, frames: Int, wall: Double) -> BatchResult {
        BatchResult(
            input: input, path: "/music/" + input, status: status, exitCode: status == .failed ? 65 : 0,
            message: status == .failed ? "cannot read /music/\(input): \"quoted\"\nsecond line" : "",
            outputs: status == .failed ? [] : ["/out/" + input + ".mp4"], durationSeconds: 1.5, frames: frames,
            wallSeconds: wall, options: ["style": ["bars"], "hide-track": ["1", "2"]])
    }

    /// A report's JSON has the keys users parse, reads back as the same report, and two
    /// shards' reports merge to every song once with the totals added up.
    @Test func aReportEncodesAndMergesBack() throws {
        let folder = try EngineTestSupport.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = BatchReport(
            songs: [Self.result("b.mid", .rendered, frames: 15, wall: 0.25), Self.result("d.mid", .failed, frames: 0, wall: 0.0004)],
            wallSeconds: 2.0004, shard: BatchShard(index: 1, count: 2), plan: "p")
        let second = BatchReport(
            songs: [Self.result("a.mid", .skipped, frames: 0, wall: 0.01)], wallSeconds: 3, shard: BatchShard(index: 2, count: 2), plan: "p")
        try first.writeJSON(to: folder + "/1.json")
        try second.writeJSON(to: folder + "/2.json")

        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/1.json"))) as? [String: Any])
        #expect(Set(object.keys) == ["songs", "totals", "shard", "plan", "planned_songs"] && object["shard"] as? String == "1/2")
        #expect(object["planned_songs"] as? Int == 2)
        let song = try #require((object["songs"] as? [[String: Any]])?.first)
        #expect(Set(song.keys) == ["input", "path", "status", "exit_code", "message", "warnings", "outputs", "duration_s", "frames", "wall_s", "options"])
        #expect(song["status"] as? String == "rendered" && song["exit_code"] as? Int == 0 && song["frames"] as? Int == 15)
        #expect(song["options"] as? [String: [String]] == ["style": ["bars"], "hide-track": ["1", "2"]])
        let totals = try #require(object["totals"] as? [String: Any])
        #expect(Set(totals.keys) == ["songs", "rendered", "skipped", "failed", "duration_s", "frames", "wall_s"])
        #expect(totals["songs"] as? Int == 2 && totals["failed"] as? Int == 1 && totals["wall_s"] as? Double == 2)

        var expected = first
        expected.songs[1].wallSeconds = 0  // wall times to the millisecond
        expected.totals.wallSeconds = 2
        #expect(try BatchReport.read(folder + "/1.json") == expected)

        let merged = try BatchReport.merge([folder + "/1.json", folder + "/2.json"])
        #expect(merged.songs.map(\.input) == ["a.mid", "b.mid", "d.mid"] && merged.shard == nil)
        #expect(merged.totals.songs == 3 && merged.totals.rendered == 1 && merged.totals.skipped == 1 && merged.totals.failed == 1)
        #expect(merged.totals.frames == 15 && merged.totals.durationSeconds == 4.5)
        #expect(merged.totals.wallSeconds == 3 && merged.totals.machineSeconds == 5 && merged.totals.shards == 2)
        try merged.writeJSON(to: folder + "/all.json")
        #expect(try BatchReport.read(folder + "/all.json") == merged, "a merged report reads back too")
        let mergedTotals = try #require(
            (try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/all.json"))) as? [String: Any])?["totals"]
                as? [String: Any])
        #expect(mergedTotals["machine_s"] as? Int == 5 && mergedTotals["shards"] as? Int == 2)

        let junit = merged.junit
        #expect(junit.contains("<testsuite name=\"midiviz batch\" tests=\"3\" failures=\"1\" skipped=\"1\" time=\"3.000\">"))
        #expect(junit.contains("<failure message=\"cannot read /music/d.mid: &quot;quoted&quot;&#10;second line\" type=\"exit 65\">"))
        #expect(first.junit.contains("name=\"midiviz batch (shard 1/2)\""))

        #expect(throws: BatchError.badReport("\(folder)/1.json and \(folder)/1.json are both shard 1/2")) {
            try BatchReport.merge([folder + "/1.json", folder + "/1.json"])
        }
        #expect(throws: BatchError.badReport("shard 2 of 2 is missing: merge every shard's report")) { try BatchReport.merge([folder + "/1.json"]) }
        // A report that has lost a song (cut or edited) is refused: the merge would lose it too.
        var cut = first
        cut.songs.removeLast()
        try cut.writeJSON(to: folder + "/cut.json")
        #expect(throws: BatchError.badReport("\(folder)/cut.json lists 1 song, but its shard had 2: it has been cut or edited")) {
            try BatchReport.merge([folder + "/cut.json", folder + "/2.json"])
        }
        var other = second
        other.plan = "q"
        try other.writeJSON(to: folder + "/other.json")
        #expect(throws: BatchError.badReport("\(folder)/other.json and \(folder)/1.json are shards of different batches (other songs or options)")) {
            try BatchReport.merge([folder + "/1.json", folder + "/other.json"])
        }
        // The same song in two shards of one plan (a plan's shares never do that).
        var twice = second
        twice.songs = first.songs
        twice.plannedSongs = 2
        try twice.writeJSON(to: folder + "/twice.json")
        #expect(throws: BatchError.badReport("/music/b.mid is in two reports: \(folder)/1.json and \(folder)/twice.json")) {
            try BatchReport.merge([folder + "/1.json", folder + "/twice.json"])
        }
        try "{\"songs\": 3}".write(toFile: folder + "/bad.json", atomically: true, encoding: .utf8)
        #expect(throws: BatchError.badReport("\(folder)/bad.json: not a midiviz batch report")) { try BatchReport.merge([folder + "/bad.json"]) }
    }

    /// A report of an earlier version, without `options`, still reads back; without the plan's
    /// identity it does not merge.
    @Test func anEarlierReportWithoutOptionsReadsBack() throws {
        let folder = try EngineTestSupport.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try """
        {"songs": [{"input": "a.mid", "path": "/m/a.mid", "status": "rendered", "exit_code": 0, "message": "", "outputs": ["/o/a.mp4"], \
        "duration_s": 2, "frames": 20, "wall_s": 0.5}], "totals": {"songs": 1, "rendered": 1, "skipped": 0, "failed": 0, "duration_s": 2, \
        "frames": 20, "wall_s": 0.7}, "shard": "1/1"}
        """.write(toFile: folder + "/old.json", atomically: true, encoding: .utf8)
        let report = try BatchReport.read(folder + "/old.json")
        #expect(report.songs.first?.options == [:] && report.songs.first?.frames == 20 && report.shard == BatchShard(index: 1, count: 1))
        #expect(throws: BatchError.badReport("\(folder)/old.json does not say which batch it is from (written before midiviz 0.3.0): render its shard again")) {
            try BatchReport.merge([folder + "/old.json"])
        }
    }

    /// The record is a key of every byte the render reads: the song, the SoundFont, the font
    /// and the background image or video, whatever their paths.
    @Test func theRecordChangesWithTheBytesOfEachFileTheRenderReads() throws {
        let folder = try EngineTestSupport.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let files = ["sound.sf2", "font.ttf", "picture.png", "clip.mp4"]
        for name in files {
            try Data("first".utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
        }
        var options = RenderOptions()
        options.font = folder + "/font.ttf"
        options.backgroundImage = folder + "/picture.png"
        options.backgroundVideo = folder + "/clip.mp4"
        let song: [UInt8] = Array("MThd song".utf8)
        func record() -> BatchRecord { BatchRecord(input: song, options: options, soundFont: folder + "/sound.sf2") }
        let made = record()
        #expect(made.inputSHA256.count == 64 && made.inputBytes == song.count)
        #expect(made.soundFontSHA256 == FileDigest.sha256(ofFile: folder + "/sound.sf2") && made.soundFontSHA256 != nil)
        // SHA-256 of "first".
        #expect(made.fontSHA256 == "a7937b64b8caa58f03721bb6bacf5c78cb235febe0e70b1b84cd99541461a08e")

        let output = folder + "/song.mp4"
        try Data(count: 100).write(to: URL(fileURLWithPath: output))
        var written = made
        written.noteOutput(output)
        #expect(written.outputBytes == 100 && written.outputSHA256 == FileDigest.sha256(ofFile: output) && written.outputModified != nil)
        try written.write(for: output)
        #expect(record().isUpToDate(output: output))
        #expect(BatchRecord(input: song, options: options, soundFont: nil).isUpToDate(output: output) == false, "silent is another video")
        #expect(BatchRecord(input: song + [0], options: options, soundFont: folder + "/sound.sf2").isUpToDate(output: output) == false)

        for name in files {
            try Data("second".utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
            #expect(!record().isUpToDate(output: output), "\(name) changed")
            try Data("first".utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
            #expect(record().isUpToDate(output: output), "\(name) back as it was")
        }
        // The same files elsewhere (another checkout, `./font.ttf`): the same video.
        let elsewhere = folder + "/elsewhere"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: false)
        for name in files { try FileManager.default.copyItem(atPath: folder + "/" + name, toPath: elsewhere + "/" + name) }
        var moved = options
        moved.font = elsewhere + "/./font.ttf"
        moved.backgroundImage = elsewhere + "/../elsewhere/picture.png"
        moved.backgroundVideo = elsewhere + "/clip.mp4"
        #expect(BatchRecord(input: song, options: moved, soundFont: elsewhere + "/sound.sf2").isUpToDate(output: output))
        // Every file an option names is in the record by its bytes alone.
        #expect(Set(RenderOptions.declarations.filter(\.isPath).map(\.name)) == ["background-image", "background-video", "font", "soundfont"])
        #expect(made.options.keys.allSatisfy { key in !RenderOptions.declarations.contains { $0.isPath && $0.name == key } })

        // Copied back in place (a new time, the same bytes): found by its bytes, once; the record
        // then holds the new time.
        let later = Date(timeIntervalSinceNow: 3600)
        try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: output)
        #expect(record().upToDate(output: output)?.refreshed != nil, "the same bytes at another time, read")
        #expect(record().upToDateRefreshingRecord(output: output) != nil)
        #expect(record().upToDate(output: output).map { $0.refreshed == nil } == true, "found by its time, not read again")
        // A record of an earlier build (the size alone): up to date, and given the rest.
        var legacy = try #require(BatchRecord.read(for: output))
        (legacy.outputSHA256, legacy.outputModified) = (nil, nil)
        try legacy.write(for: output)
        #expect(record().upToDateRefreshingRecord(output: output) != nil, "an earlier build's record")
        #expect(BatchRecord.read(for: output)?.outputSHA256 == FileDigest.sha256(ofFile: output))
        // Written over by other bytes of the same size: another time, other bytes.
        try Data(repeating: 1, count: 100).write(to: URL(fileURLWithPath: output))
        try FileManager.default.setAttributes([.modificationDate: later.addingTimeInterval(1)], ofItemAtPath: output)
        #expect(!record().isUpToDate(output: output), "other bytes of the same size were not made by it")
        try Data(count: 99).write(to: URL(fileURLWithPath: output))
        #expect(!record().isUpToDate(output: output), "an output of another size was not made by it")

        // The record's keys.
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: BatchRecord.path(of: output)))) as? [String: Any])
        #expect(
            Set(object.keys) == [
                "input_bytes", "input_sha256", "soundfont_sha256", "font_sha256", "background_image_sha256",
                "background_video_sha256", "options", "midiviz", "output_bytes", "output_sha256", "output_modified",
            ])
        #expect((object["options"] as? [String: [String]])?["jobs"] == nil, "the cores do not shape the video")
    }
}

/// A batch rendered in-process: songs rendered, then skipped while nothing changed; a SoundFont
/// changed in place (same path, other bytes) renders them again.
@Suite(
    .enabled(
        if: FileManager.default.fileExists(atPath: EngineTestSupport.smallSoundFont) && FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg"),
        "needs TimGM6mb and ffmpeg (scripts/setup)"),
    .timeLimit(.minutes(30)))
struct BatchJobTests {
    @Test func aChangedSoundFontMakesTheSongsOutOfDate() throws {
        let root = try BatchTests.songs(["a.mid", "b.mid"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let soundFont = root + "/sound.sf2"
        try FileManager.default.copyItem(atPath: EngineTestSupport.smallSoundFont, toPath: soundFont)
        var options = RenderOptions()
        options.size = FrameSize(width: 160, height: 90)
        options.fps = FrameRate(10)
        options.to = TimeSpec(optionText: "1")
        options.preroll = 0
        options.soundFont = soundFont
        options.jobs = 2  // songs at once
        let plan = try BatchPlan.make(inputs: [root + "/in"], outputDirectory: root + "/out", options: options)
        func run(force: Bool = false) -> BatchReport {
            let announced = AnnouncedNumbers()
            let report = BatchJob(plan: plan, force: force, processorCount: 2).run { _, number in announced.add(number) }
            #expect(announced.values.sorted() == Array(1...plan.songs.count))
            return report
        }
        let first = run()
        #expect(first.songs.map(\.status) == [.rendered, .rendered], "\(first.songs.map(\.message))")
        #expect(first.totals.frames == 20 && first.songs.allSatisfy { $0.options["soundfont"] == [soundFont] })
        let record = try #require(BatchRecord.read(for: root + "/out/a.mp4"))
        #expect(record.soundFontSHA256 == FileDigest.sha256(ofFile: EngineTestSupport.smallSoundFont))
        #expect(run().songs.map(\.status) == [.skipped, .skipped])
        #expect(run(force: true).songs.map(\.status) == [.rendered, .rendered])

        // The SoundFont's name in its INFO chunk, one letter changed: a valid SoundFont, other bytes.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: soundFont))
        let name = try #require(bytes.range(of: Data("INAM".utf8))).upperBound + 4
        bytes[name] = bytes[name] == UInt8(ascii: "X") ? UInt8(ascii: "Y") : UInt8(ascii: "X")
        try bytes.write(to: URL(fileURLWithPath: soundFont))
        let changed = run()
        #expect(changed.songs.map(\.status) == [.rendered, .rendered], "\(changed.songs.map(\.message))")
        #expect(run().songs.map(\.status) == [.skipped, .skipped])
    }

    /// A batch stopped after its first song starts no more, and its report says so of each.
    @Test func aStoppedBatchStartsNoMoreSongs() throws {
        let root = try BatchTests.songs(["a.mid", "b.mid", "c.mid"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        var options = RenderOptions()
        options.size = FrameSize(width: 160, height: 90)
        options.fps = FrameRate(10)
        options.noAudio = true
        let plan = try BatchPlan.make(inputs: [root + "/in"], outputDirectory: root + "/out", options: options)
        let job = BatchJob(plan: plan, processorCount: 1)
        let report = job.run { _, number in if number == 1 { job.stop(signal: SIGTERM) } }
        // The report has every song: the one finished, and the others failed as not finished.
        #expect(report.songs.map(\.status) == [.rendered, .failed, .failed])
        #expect(report.songs.dropFirst().allSatisfy { $0.exitCode == 130 && $0.message.hasPrefix("not finished") })
        #expect(job.wasStopped)
        #expect(EngineTestSupport.contents(root + "/out") == ["a.mp4", "a.mp4.midiviz.json"])
    }
    /// A plan made by hand with two songs on one video is refused as `BatchPlan.make` refuses
    /// it: every song failed with exit code 64, and nothing written.
    @Test func aHandMadePlanWithTwoSongsOnOneOutputIsRefused() throws {
        let root = try BatchTests.songs(["a.mid", "b.mid"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        var options = RenderOptions()
        options.size = FrameSize(width: 160, height: 90)
        options.fps = FrameRate(10)
        options.noAudio = true
        let output = root + "/out/same.mp4"
        let songs = ["a.mid", "b.mid"].map { BatchSong(input: root + "/in/" + $0, relativePath: $0, output: output, options: options) }
        let plan = BatchPlan(songs: songs, options: options, outputDirectory: root + "/out")
        let report = BatchJob(plan: plan, processorCount: 1).run()
        let message = "\(root)/in/a.mid and \(root)/in/b.mid would both be written to \(output)"
        #expect(report.songs.map(\.status) == [.failed, .failed])
        #expect(report.songs.allSatisfy { $0.exitCode == 64 && $0.message == message }, "\(report.songs.map(\.message))")
        #expect(!FileManager.default.fileExists(atPath: root + "/out"))
    }
}

/// Numbers from several threads.
final class AnnouncedNumbers: @unchecked Sendable {
    private let lock = NSLock()
    private var numbers: [Int] = []
    func add(_ number: Int) { lock.withLock { numbers.append(number) } }
    var values: [Int] { lock.withLock { numbers } }
}
