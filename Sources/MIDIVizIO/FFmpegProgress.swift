import Foundation
import Synchronization

/// One report of ffmpeg's `-progress`: a block of `key=value` lines ended by `progress=continue`
/// (or `progress=end`, its last). The watchdog counts a report as progress when ffmpeg has made
/// more frames, written more bytes or got further in time than in the report before.
package struct FFmpegProgress: Sendable, Equatable {
    /// Frames encoded so far (nil for a run without video).
    package var frame: Int?
    /// How far the output has got, in microseconds (`out_time_us`; nil while ffmpeg says N/A).
    package var outTimeMicroseconds: Int64?
    /// Bytes written to the output so far (`total_size`).
    package var totalSize: Int64?
    /// The last report of the run.
    package var isEnd = false

    package init(frame: Int? = nil, outTimeMicroseconds: Int64? = nil, totalSize: Int64? = nil, isEnd: Bool = false) {
        self.frame = frame
        self.outTimeMicroseconds = outTimeMicroseconds
        self.totalSize = totalSize
        self.isEnd = isEnd
    }

    /// How far the output has got, in seconds.
    package var outTimeSeconds: Double? { outTimeMicroseconds.map { Double($0) / 1_000_000 } }

    /// Whether this report shows ffmpeg further along than `earlier` (or is the first).
    package func advances(over earlier: FFmpegProgress?) -> Bool {
        guard let earlier else { return true }
        func further<T: Comparable>(_ now: T?, _ before: T?) -> Bool {
            guard let now else { return false }
            guard let before else { return true }
            return now > before
        }
        return isEnd || further(frame, earlier.frame) || further(outTimeMicroseconds, earlier.outTimeMicroseconds)
            || further(totalSize, earlier.totalSize)
    }
}

/// Reads ffmpeg's `-progress` output as it comes, in chunks cut anywhere: the reports it
/// completes. Lines it does not know are skipped; a value ffmpeg gives as `N/A` is nil.
package struct FFmpegProgressParser: Sendable {
    private var partialLine: [UInt8] = []
    private var current = FFmpegProgress()

    package init() {}

    /// The reports `chunk` completes, in order.
    package mutating func feed(_ chunk: some Sequence<UInt8>) -> [FFmpegProgress] {
        var reports: [FFmpegProgress] = []
        for byte in chunk {
            guard byte == UInt8(ascii: "\n") else {
                // A line longer than any ffmpeg writes is not one of its reports.
                if partialLine.count < 4096 { partialLine.append(byte) }
                continue
            }
            let line = String(decoding: partialLine, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            partialLine.removeAll(keepingCapacity: true)
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals], value = String(line[line.index(after: equals)...])
            switch key {
            case "frame": current.frame = Int(value)
            case "out_time_us": current.outTimeMicroseconds = Int64(value)
            case "total_size": current.totalSize = Int64(value)
            case "progress":
                current.isEnd = value == "end"
                reports.append(current)
                current = FFmpegProgress()
            default: break
            }
        }
        return reports
    }
}

/// The watchdog's view of one ffmpeg: its reports read as they come, and when it last got
/// further. Shared by the reader thread and the thread waiting on ffmpeg.
final class FFmpegProgressWatch: Sendable {
    private let state = Mutex<(parser: FFmpegProgressParser, last: FFmpegProgress?, advanced: ContinuousClock.Instant)>(
        (FFmpegProgressParser(), nil, .now))

    /// Reads a chunk of ffmpeg's `-progress` output: the reports it completes.
    func feed(_ chunk: Data) -> [FFmpegProgress] {
        state.withLock { state in
            let reports = state.parser.feed(chunk)
            for report in reports where report.advances(over: state.last) {
                state.last = report
                state.advanced = .now
            }
            return reports
        }
    }

    /// When ffmpeg last reported getting further (or when the watch began).
    var advanced: ContinuousClock.Instant { state.withLock { $0.advanced } }
}
