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
        #expect(missing.status == 65 && missing.stderr.contains("the parts hold"), "\(missing.stderr)")
        let overPart = try run(["join", dir + "/part-1.mp4", "--song", Self.song, "-o", dir + "/part-1.mp4"] + Self.sound)
        #expect(overPart.status == 64, "\(overPart.stderr)")
        #expect(EngineFiles.contents(dir) == ["part-1.mp4", "part-3.mp4"], "nothing written, no temporary left")
        #expect(try run(["render", Self.song, "--segment", "1/3", "--from", "1"]).status == 64)
        #expect(try run(["render", Self.song, "--segment", "4/3"]).status == 64)
    }
}

enum EngineFiles {
    static func contents(_ folder: String) -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted() }
}
