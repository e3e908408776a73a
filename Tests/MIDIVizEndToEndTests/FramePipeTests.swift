import Foundation
import Testing

/// Frames of a MiB or more go into ffmpeg's pipe by reference, none of their bytes copied, and
/// a worker draws into its planes again only once the frame after its last has been written
/// (or the pipe is empty): the video holds exactly the frames drawn, none changed while ffmpeg
/// read it. A race may slip past one run: this catches such a bug often, not always.
@Suite(
    .enabled(if: VideoTools.available, "ffmpeg/ffprobe or a SoundFont missing: apt-get install ffmpeg timgm6mb-soundfont (scripts/setup does)"),
    .timeLimit(.minutes(30)))
struct FramePipeTests {
    /// 2 s of a moving roll at 1280x720 (1.3 MiB a frame): the lossless MP4 decodes to the
    /// bytes the same render writes to a raw yuv420p file (each frame copied by `fwrite` as it
    /// is handed over).
    @Test func framesHandedOverByReferenceArriveWhole() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("midiviz-pipe-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let song = TestEnvironment.path(of: "Tests/Corpus/piano-midi.de/bach/bach_847.mid")
        let look = ["--size", "1280x720", "--fps", "60", "--style", "roll", "--from", "20", "--to", "22", "--no-audio", "--quiet"]
        for output in [["-o", dir + "/video.mp4", "--crf", "0"], ["--raw-video-out", dir + "/frames.yuv"]] {
            let render = try ProcessRunner.midiviz(["render", song] + output + look)
            #expect(render.status == 0, "\(render.stderr)")
        }
        let decoded = try ProcessRunner.run(
            URL(fileURLWithPath: VideoTools.ffmpeg!), ["-v", "error", "-i", dir + "/video.mp4", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-"]
        ).stdout
        let raw = try Data(contentsOf: URL(fileURLWithPath: dir + "/frames.yuv"))
        let frameBytes = 1280 * 720 * 3 / 2
        #expect(raw.count == 121 * frameBytes || raw.count == 120 * frameBytes, "\(raw.count / frameBytes) frames")
        #expect(decoded.count == raw.count, "decoded \(decoded.count / frameBytes) frames, wrote \(raw.count / frameBytes)")
        var differing: [Int] = []
        for frame in 0..<min(decoded.count, raw.count) / frameBytes {
            let range = frame * frameBytes..<(frame + 1) * frameBytes
            if decoded[range] != raw[range] { differing.append(frame) }
        }
        #expect(differing.isEmpty, "frames that differ from those drawn: \(differing)")
        // The roll moves: every frame is a new picture, so a frame left over from another would show.
        let first = raw[0..<frameBytes], second = raw[frameBytes..<2 * frameBytes]
        #expect(first != second)
    }
}
