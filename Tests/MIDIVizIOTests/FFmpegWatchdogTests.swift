import Foundation
import Synchronization
import Testing

@testable import MIDIVizIO

/// The ffmpeg watchdog is fed by ffmpeg's own progress reports (`-progress`): a run that keeps
/// getting further outlasts the stall timeout; one that waits for input that never comes is
/// stopped after it.
@Suite(.timeLimit(.minutes(30)))
struct FFmpegWatchdogTests {
    static let ffmpeg = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// ffmpeg's reports as it writes them: blocks of `key=value` lines, ended by `progress=`.
    static let twoReports = """
        frame=12
        fps=0.00
        stream_0_0_q=28.0
        bitrate=N/A
        total_size=48
        out_time_us=200000
        out_time_ms=200000
        out_time=00:00:00.200000
        dup_frames=0
        drop_frames=0
        speed=N/A
        progress=continue
        frame=30
        total_size=262192
        out_time_us=N/A
        progress=end

        """

    @Test func reportsAreReadWhereverTheChunksAreCut() {
        let bytes = Array(Self.twoReports.utf8)
        let whole: [FFmpegProgress] = {
            var parser = FFmpegProgressParser()
            return parser.feed(bytes)
        }()
        #expect(whole == [FFmpegProgress(frame: 12, outTimeMicroseconds: 200_000, totalSize: 48), FFmpegProgress(frame: 30, totalSize: 262_192, isEnd: true)])
        for cut in [1, 7, 33, 100, bytes.count - 1] {
            var parser = FFmpegProgressParser()
            #expect(parser.feed(bytes[..<cut]) + parser.feed(bytes[cut...]) == whole, "cut at \(cut)")
        }
        var byteByByte = FFmpegProgressParser()
        #expect(bytes.flatMap { byteByByte.feed([$0]) } == whole)
        #expect(whole[0].outTimeSeconds == 0.2)
    }

    @Test func progressIsMoreFramesBytesOrTime() {
        let first = FFmpegProgress(frame: 10, outTimeMicroseconds: 1_000_000, totalSize: 100)
        #expect(first.advances(over: nil))
        #expect(!first.advances(over: first), "the same report again is no progress")
        #expect(FFmpegProgress(frame: 10, outTimeMicroseconds: 1_000_000, totalSize: 101).advances(over: first))
        #expect(FFmpegProgress(frame: 11, outTimeMicroseconds: 1_000_000, totalSize: 100).advances(over: first))
        #expect(FFmpegProgress(frame: 10, outTimeMicroseconds: 1_000_001, totalSize: 100).advances(over: first))
        #expect(!FFmpegProgress(frame: nil, outTimeMicroseconds: nil, totalSize: 100).advances(over: first), "N/A is not further")
        #expect(FFmpegProgress(totalSize: 100, isEnd: true).advances(over: first))
    }

    func scratch() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("midiviz-watchdog-\(getpid())-\(UUID().uuidString.prefix(8))").path
    }

    /// Encoding 5 minutes of sound to AAC takes several seconds (12 s on a quiet machine here),
    /// far past twice a 1.5 s stall timeout; ffmpeg reports progress all along, so it is let
    /// finish, and its reports reach the caller. The timeout leaves ffmpeg time to start on a
    /// machine busy with the other tests (0.3 s did not, once).
    @Test(.enabled(if: ffmpeg != nil, "no ffmpeg: apt-get install ffmpeg"))
    func aRunThatProgressesOutlastsTheStallTimeout() throws {
        let output = scratch() + ".m4a"
        defer { unlink(output) }
        let reports = ReportLog()
        let started = Date()
        let process = try FFmpegProcess(
            executable: Self.ffmpeg!,
            arguments: [
                "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=300", "-c:a", "aac", "-b:a", "192k", "-f", "mp4",
                FFmpegProcess.file(output),
            ],
            stallTimeoutSeconds: 1.5, onProgress: { reports.append($0) })
        try process.finish()
        #expect(Date().timeIntervalSince(started) > 3, "the run lasted longer than twice the timeout")
        let seen = reports.all
        #expect(seen.count >= 3 && seen.last?.isEnd == true)
        #expect(abs((seen.last?.outTimeSeconds ?? 0) - 300) < 1)
    }

    /// ffmpeg waiting on a FIFO nobody writes reports nothing: it is stopped once the timeout
    /// has passed with no progress, and says what it did not do.
    @Test(.enabled(if: ffmpeg != nil, "no ffmpeg: apt-get install ffmpeg"))
    func aRunThatWaitsForeverIsStopped() throws {
        let fifo = scratch() + ".pcm", output = scratch() + ".m4a"
        #expect(mkfifo(fifo, 0o600) == 0)
        defer {
            unlink(fifo)
            unlink(output)
        }
        let process = try FFmpegProcess(
            executable: Self.ffmpeg!,
            arguments: ["-f", "s16le", "-ar", "48000", "-ac", "2", "-i", FFmpegProcess.file(fifo), "-c:a", "aac", "-f", "mp4", FFmpegProcess.file(output)],
            stallTimeoutSeconds: 0.5)
        let started = Date()
        let error = #expect(throws: VideoError.self) { try process.finish() }
        #expect(error?.description == VideoError.ffmpegStalled(seconds: 0.5, doing: "did not finish").description)
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(!process.isRunning)
    }
}

/// Reports gathered from the reader thread.
final class ReportLog: Sendable {
    private let reports = Mutex<[FFmpegProgress]>([])
    func append(_ report: FFmpegProgress) { reports.withLock { $0.append(report) } }
    var all: [FFmpegProgress] { reports.withLock { $0 } }
}
