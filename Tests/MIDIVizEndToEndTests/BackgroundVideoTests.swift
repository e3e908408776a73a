import Foundation
import MIDIVizCore
import MIDIVizIO
import Testing

/// `--background-video`: a clip whose frame k is grey level 4k (60 frames at 30 fps, lossless)
/// behind renders at 30 fps: frame k of a whole render shows clip frame k, looped; a range and
/// a poster show what the whole render shows at the same moment.
@Suite(
    .timeLimit(.minutes(30)),
    .enabled(if: VideoTools.ffmpeg != nil && VideoTools.ffprobe != nil, "ffmpeg/ffprobe missing: apt-get install ffmpeg (scripts/setup does)"))
struct BackgroundVideoTests {
    static let arpeggio = TestEnvironment.packageRoot.appendingPathComponent("fixtures/c-major-arpeggio.mid").path

    /// A fresh folder holding the clip `clip.mkv`.
    func folderWithClip() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("midiviz-bgvideo-\(getpid())-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let made = try ProcessRunner.run(
            URL(fileURLWithPath: VideoTools.ffmpeg!),
            [
                "-loglevel", "error", "-y", "-f", "lavfi", "-i", "color=black:s=64x36:r=30:d=2,format=rgb24,geq=r='N*4':g='N*4':b='N*4'",
                "-c:v", "ffv1", folder + "/clip.mkv",
            ])
        #expect(made.status == 0, "\(made.stderr)")
        return folder
    }

    /// The grey level of the frame's bottom-right corner, where nothing is drawn.
    func corner(_ path: String) throws -> Int {
        let canvas = try PNGReader.read(path)
        return Int((canvas.color(x: canvas.width - 2, y: canvas.height - 2).r * 255).rounded())
    }

    func pixels(_ path: String) throws -> [UInt32] { try PNGReader.read(path).pixels }

    @Test func frameKShowsClipFrameKLoopedAndRangesAndPostersMatch() throws {
        let folder = try folderWithClip()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let common = ["--size", "160x90", "--fps", "30", "--background-video", folder + "/clip.mkv", "--background-dim", "0", "--quiet"]
        let whole = try ProcessRunner.midiviz(["render", Self.arpeggio, "--no-video", "--frames-dir", folder + "/whole", "--to", "3"] + common)
        #expect(whole.status == 0, "\(whole.stderr)")
        // The whole render's frame k (file k + 1) shows clip frame k mod 60.
        for k in [0, 1, 9, 59, 60, 61, 100] {
            let level = try corner(folder + "/whole/frame_\(String(format: "%06d", k + 1)).png")
            #expect(abs(level - (k % 60) * 4) <= 1, "frame \(k): grey \(level)")
        }
        // A range from 1 s: its first frame is the whole render's frame at 1 s (after the
        // 16-frame lead-in of circles at 30 fps), pixel for pixel; so is a poster at 1 s.
        let range = try ProcessRunner.midiviz(["render", Self.arpeggio, "--no-video", "--frames-dir", folder + "/range", "--from", "1", "--to", "2"] + common)
        #expect(range.status == 0, "\(range.stderr)")
        let leadIn = RenderSettings(framesPerSecond: 30).leadInSeconds
        let wholeIndex = 30 + Int((leadIn * 30).rounded())
        #expect(try pixels(folder + "/range/frame_000001.png") == pixels(folder + "/whole/frame_\(String(format: "%06d", wholeIndex + 1)).png"))
        let poster = try ProcessRunner.midiviz(["frame", Self.arpeggio, "--at", "1", "-o", folder + "/poster.png"] + common.dropLast())
        #expect(poster.status == 0, "\(poster.stderr)")
        #expect(try pixels(folder + "/poster.png") == pixels(folder + "/range/frame_000001.png"))
        // Dimmed, the stream and the poster darken alike.
        let dimmed = Array(common.dropLast(3)) + ["--background-dim", "0.5"]
        let dimmedRange = try ProcessRunner.midiviz(
            ["render", Self.arpeggio, "--no-video", "--frames-dir", folder + "/dimmed", "--from", "1", "--to", "1.1", "--quiet"] + dimmed)
        let dimmedPoster = try ProcessRunner.midiviz(["frame", Self.arpeggio, "--at", "1", "-o", folder + "/dimmed.png"] + dimmed)
        #expect(dimmedRange.status == 0 && dimmedPoster.status == 0, "\(dimmedRange.stderr) \(dimmedPoster.stderr)")
        #expect(try pixels(folder + "/dimmed.png") == pixels(folder + "/dimmed/frame_000001.png"))
        #expect(try corner(folder + "/dimmed.png") < corner(folder + "/poster.png"))
    }

    /// A range and a segment that start mid-clip, and loop, show on every frame the clip frame
    /// the whole render shows there (a seek into a looped input once looped back to the seek,
    /// and landed a frame early); so does a poster at the clip's last frame. At 30 fps and at
    /// 30000/1001, where the 2-s clip is 59 frames of the render's.
    @Test(arguments: ["30", "30000/1001"])
    func rangesSegmentsAndPostersShowTheWholeRendersClipFrames(rate: String) throws {
        let folder = try folderWithClip()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let common = ["--size", "160x90", "--fps", rate, "--background-video", folder + "/clip.mkv", "--background-dim", "0", "--quiet"]
        func levels(_ name: String) throws -> [Int] {
            try FileManager.default.contentsOfDirectory(atPath: folder + "/" + name).sorted().map { try corner(folder + "/\(name)/" + $0) }
        }
        let whole = try ProcessRunner.midiviz(["render", Self.arpeggio, "--no-video", "--frames-dir", folder + "/whole"] + common)
        #expect(whole.status == 0, "\(whole.stderr)")
        let wholeLevels = try levels("whole")
        var settings = RenderSettings()
        settings.frameRate = try #require(FrameRate(text: rate))
        let clipFrames = Int(settings.frameRate.frames(in: 2).rounded(.down))
        // The whole render loops the clip's frames.
        #expect(wholeLevels.indices.allSatisfy { wholeLevels[$0] == wholeLevels[$0 % clipFrames] }, "\(wholeLevels)")
        let range = try ProcessRunner.midiviz(["render", Self.arpeggio, "--no-video", "--frames-dir", folder + "/range", "--from", "1", "--to", "4"] + common)
        #expect(range.status == 0, "\(range.stderr)")
        let rangeLevels = try levels("range")
        let start = settings.frameIndex(atSeconds: 1) + Int(settings.frameRate.frames(in: settings.leadInSeconds).rounded())
        #expect(rangeLevels.count > clipFrames && rangeLevels == Array(wholeLevels[start..<(start + rangeLevels.count)]))
        let segment = try ProcessRunner.midiviz(["render", Self.arpeggio, "--no-video", "--frames-dir", folder + "/segment", "--segment", "2/2"] + common)
        #expect(segment.status == 0, "\(segment.stderr)")
        let segmentLevels = try levels("segment")
        #expect(segmentLevels == Array(wholeLevels.suffix(segmentLevels.count)))
        // A poster at the whole render's frame showing the clip's last frame.
        let last = clipFrames - 1
        let at = String(format: "%.9f", settings.seconds(ofFrame: last) - settings.leadInSeconds)
        let poster = try ProcessRunner.midiviz(["frame", Self.arpeggio, "--at", at, "-o", folder + "/poster.png"] + common.dropLast())
        #expect(poster.status == 0, "\(poster.stderr)")
        #expect(try corner(folder + "/poster.png") == wholeLevels[last] && wholeLevels[last] > wholeLevels[last - 1])
    }

    /// A clip whose sound runs on after its pictures (1 s of frames, 2 s of sound in an MKV,
    /// which gives only the file's length): the clip lasts 2 s, its last picture held to the
    /// end of each loop, and a range starting there shows what the whole render shows.
    @Test func aClipsLastPictureFillsItsLength() throws {
        let folder = try folderWithClip()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let made = try ProcessRunner.run(
            URL(fileURLWithPath: VideoTools.ffmpeg!),
            [
                "-loglevel", "error", "-y", "-f", "lavfi", "-i", "color=black:s=64x36:r=30:d=1,format=rgb24,geq=r='N*4':g='N*4':b='N*4'",
                "-f", "lavfi", "-i", "sine=frequency=440:duration=2", "-c:v", "ffv1", "-c:a", "pcm_s16le", folder + "/long-sound.mkv",
            ])
        #expect(made.status == 0, "\(made.stderr)")
        let common = ["--size", "160x90", "--fps", "30", "--background-video", folder + "/long-sound.mkv", "--background-dim", "0", "--quiet"]
        let whole = try ProcessRunner.midiviz(["render", Self.arpeggio, "--no-video", "--frames-dir", folder + "/whole", "--to", "4"] + common)
        #expect(whole.status == 0, "\(whole.stderr)")
        for k in [0, 29, 30, 59, 60, 89, 90] {
            let level = try corner(folder + "/whole/frame_\(String(format: "%06d", k + 1)).png")
            #expect(abs(level - min(k % 60, 29) * 4) <= 1, "frame \(k): grey \(level)")
        }
        // From 1 s: clip frame 46 (the 16-frame lead-in), past the last picture.
        let range = try ProcessRunner.midiviz(["render", Self.arpeggio, "--no-video", "--frames-dir", folder + "/range", "--from", "1", "--to", "2"] + common)
        #expect(range.status == 0, "\(range.stderr)")
        for index in [0, 13, 14, 20] {
            let name = "frame_\(String(format: "%06d", index + 1)).png"
            #expect(try pixels(folder + "/range/" + name) == pixels(folder + "/whole/frame_\(String(format: "%06d", 46 + index + 1)).png"), "\(name)")
        }
    }

    @Test func heldTheLastFrameStays() throws {
        let folder = try folderWithClip()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let held = ["--size", "160x90", "--fps", "30", "--background-video", folder + "/clip.mkv", "--background-dim", "0", "--background-video-end", "hold"]
        let whole = try ProcessRunner.midiviz(["render", Self.arpeggio, "--no-video", "--frames-dir", folder + "/whole", "--to", "3", "--quiet"] + held)
        #expect(whole.status == 0, "\(whole.stderr)")
        for (k, level) in [(0, 0), (30, 120), (59, 236), (60, 236), (100, 236)] {
            let shown = try corner(folder + "/whole/frame_\(String(format: "%06d", k + 1)).png")
            #expect(abs(shown - level) <= 1, "frame \(k): grey \(shown)")
        }
        // A range starting after the clip's end, and a poster there, show its last frame too.
        let range = try ProcessRunner.midiviz(
            ["render", Self.arpeggio, "--no-video", "--frames-dir", folder + "/range", "--from", "2.5", "--to", "3", "--quiet"] + held)
        let poster = try ProcessRunner.midiviz(["frame", Self.arpeggio, "--at", "2.5", "-o", folder + "/poster.png"] + held)
        #expect(range.status == 0 && poster.status == 0, "\(range.stderr) \(poster.stderr)")
        let (rangeLevel, posterLevel) = (try corner(folder + "/range/frame_000001.png"), try corner(folder + "/poster.png"))
        #expect(abs(rangeLevel - 236) <= 1 && abs(posterLevel - 236) <= 1, "\(rangeLevel) \(posterLevel)")
    }

    @Test func aFileThatIsNoVideoIsRefusedBeforeAnyWork() throws {
        let folder = try folderWithClip()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let text = folder + "/notes.txt"
        try "not a video\n".write(toFile: text, atomically: true, encoding: .utf8)
        let result = try ProcessRunner.midiviz(
            ["render", Self.arpeggio, "--no-video", "--frames-dir", folder + "/frames", "--background-video", text, "--quiet"])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("cannot use background video \(text): not a video ffmpeg can read"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/frames"), "no work done")
        let both = try ProcessRunner.midiviz(
            [
                "render", Self.arpeggio, "--no-video", "--frames-dir", folder + "/frames", "--background-video", folder + "/clip.mkv", "--background",
                "transparent",
            ])
        #expect(both.status == 64, "\(both.stderr)")
    }
}
