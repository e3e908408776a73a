import Foundation
import Testing

/// Inputs and options that crashed, hung or exhausted memory, through the real binary: each
/// now ends with a one-line message and its exit code, and leaves nothing behind.
@Suite(.timeLimit(.minutes(30))) struct HostileInputTests {
    static let arpeggio = TestEnvironment.path(of: "fixtures/c-major-arpeggio.mid")

    func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("midiviz-hostile-\(getpid())-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    func contents(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    /// 41 bytes: division 1, one note at tick 2^28 (the longest delta, an empty text event, then
    /// one more tick), so the song claims about four years. `frame` had no --max-duration and
    /// aborted allocating 36 GB; `render --max-duration inf` too.
    @Test func aSongClaimingYearsIsRefusedByEveryCommand() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let song = folder + "/years.mid"
        let longestDelta: [UInt8] = [0xFF, 0xFF, 0xFF, 0x7F]  // 2^28 - 1
        var bytes = Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0, 1]
        let track: [UInt8] = longestDelta + [0xFF, 0x01, 0x00] + [0x01, 0x90, 60, 100, 0x01, 0x80, 60, 0, 0x00, 0xFF, 0x2F, 0x00]
        bytes += Array("MTrk".utf8) + [0, 0, 0, UInt8(track.count)] + track
        try Data(bytes).write(to: URL(fileURLWithPath: song))
        let frame = try ProcessRunner.midiviz(["frame", song, "--at", "0", "-o", folder + "/poster.png"])
        #expect(frame.status == 65 && !frame.signaled, "\(frame.stderr)")
        #expect(frame.stderr.contains("more than --max-duration 3600 s"), "\(frame.stderr)")
        let render = try ProcessRunner.midiviz(["render", song, "--max-duration", "inf", "--to", "1", "--no-audio", "-o", folder + "/out.mp4"])
        #expect(render.status == 64 && !render.signaled, "\(render.stderr)")
        #expect(render.stderr.contains(#"--max-duration: "inf" is not a number"#), "\(render.stderr)")
        #expect(contents(folder) == ["years.mid"], "no output, no temporary")
    }

    /// `frame --at 1e19` crashed converting the time to an index.
    @Test func aFrameFarPastTheEndIsRefused() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try ProcessRunner.midiviz(["frame", Self.arpeggio, "--at", "1e19", "-o", folder + "/poster.png"])
        #expect(result.status == 64 && !result.signaled, "\(result.stderr)")
        #expect(result.stderr.contains("is outside"), "\(result.stderr)")
        #expect(contents(folder).isEmpty)
    }

    /// A FIFO as the font or the SoundFont hung forever in open(); now refused at once.
    @Test(arguments: [["--font"], ["--soundfont"]])
    func aFIFOAsAnInputIsRefused(option: [String]) throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fifo = folder + "/input.fifo"
        #expect(mkfifo(fifo, 0o644) == 0)
        let result = try ProcessRunner.midiviz(
            [
                "render", Self.arpeggio, "--size", "160x90", "--fps", "10",
                "-o", folder + "/out.mp4",
            ] + option + [fifo])
        #expect(result.status == 66 && !result.signaled, "\(result.stderr)")
        #expect(result.stderr.contains(fifo) && result.stderr.contains("not a regular file"), "\(result.stderr)")
        #expect(contents(folder) == ["input.fifo"])
    }

    /// `--jobs 1000` at 720p made a canvas and a buffer for each of 1000 workers (1.4 GB): the
    /// workers are now as many as the cores. The peak is read by Python's getrusage of its child.
    @Test func aThousandJobsCostNoMoreMemoryThanTheCores() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let script =
            "import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True); "
            + "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
        let result = try ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/python3"),
            [
                "-c", script, TestEnvironment.binary.path, "render", Self.arpeggio, "--size", "720p",
                "--to", "0.5", "--preroll", "0", "--no-video", "--no-audio", "--frames-dir", folder + "/frames",
                "--jobs", "1000", "--quiet",
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let peakKiB = Int(result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)) ?? .max
        #expect(peakKiB < 300 * 1024, "peak \(peakKiB / 1024) MiB")
        #expect(contents(folder + "/frames").count == 30)
    }
}
