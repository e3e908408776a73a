/// Why the video could not be made; each case has its exit code.
package enum VideoError: Error, CustomStringConvertible, Sendable {
    /// No ffmpeg on PATH (or at $MIDIVIZ_FFMPEG) (exit 69).
    case ffmpegMissing
    /// ffmpeg exited with an error; its last lines of stderr (exit 1).
    case ffmpegFailed(status: Int32, lastLines: String)
    /// A file could not be written (exit 73).
    case cannotWrite(path: String, reason: String)
    /// ffmpeg took no data (or did not exit) for this long: stopped (exit 1).
    case ffmpegStalled(seconds: Double, doing: String)

    package var description: String {
        switch self {
        case .ffmpegMissing:
            return "ffmpeg not found (install it with 'apt-get install ffmpeg'\(ChildProcess.unrunnable("MIDIVIZ_FFMPEG")))"
        case .ffmpegFailed(let status, let lastLines):
            let message = lastLines.isEmpty ? "no message" : lastLines
            return status < 0 ? "ffmpeg failed: \(message)" : "ffmpeg failed (exit \(status)): \(message)"
        case .cannotWrite(let path, let reason):
            return "cannot write \(path): \(reason)"
        case .ffmpegStalled(let seconds, let doing):
            return "ffmpeg \(doing) for \(seconds.formatted(.number.grouping(.never))) s: stopped it"
        }
    }

    package var exitCode: Int32 {
        switch self {
        case .ffmpegMissing: return 69
        case .ffmpegFailed, .ffmpegStalled: return 1
        case .cannotWrite: return 73
        }
    }
}
