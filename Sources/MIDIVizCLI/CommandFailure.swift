import ArgumentParser
import Foundation
import MIDIVizCore
import MIDIVizEngine

/// Prints `midiviz: message` on stderr and exits with `code` (sysexits.h values).
func fail(_ message: String, code: Int32) -> ExitCode {
    say("midiviz: \(message)")
    return ExitCode(code)
}

/// Writes `line` and a line end on stderr, its control characters as spaces (as `info` shows
/// names): a file name holding an escape sequence or a newline cannot move the cursor, retitle
/// the terminal or start a line of its own.
func say(_ line: String) {
    FileHandle.standardError.write(Data((SongReport.printable(line) + "\n").utf8))
}

extension RenderError {
    /// The one place an engine error becomes what the user sees: one line and its exit code.
    var reported: ExitCode { fail(message, code: exitCode) }

    /// `value` seconds to the millisecond, without trailing zeros: 179.999, 179.9, 600.
    static func seconds(_ value: Double) -> String { SongClock.seconds(value) }

    /// A time given to `--at`, in seconds.
    static func atText(_ seconds: Double) -> String { abs(seconds) < 1e9 ? Self.seconds(seconds) : String(format: "%g", seconds) }

    /// The error as reported, naming a time not given in seconds as given (`--at bar:99`,
    /// `--at 5:00`), with its seconds.
    func reported(at text: String) -> ExitCode {
        if Double(text) == nil, case .timeOutsideSong(let seconds, let song, let length) = self {
            return fail(
                "--at \(text) (\(Self.atText(seconds)) s) is outside \(song), which lasts \(String(format: "%.3f", length)) s with its tail",
                code: exitCode)
        }
        return reported
    }

    /// The line the user reads: the engine's values, with options named as flags. The one
    /// place an engine error is worded for the command line.
    var message: String {
        switch self {
        case .option(let error):
            return error.message(prefix: "--")
        case .songTooLong(let song, let seconds, let maximum):
            return "cannot render \(song): it lasts \(Self.seconds(seconds)) s, more than --max-duration \(Self.seconds(maximum)) s"
        case .emptyRange(let start, let end, let to):
            if let to {
                let postroll = end > to ? " (\(SongClock.text(end)) with --postroll)" : ""
                return "nothing to render: --to \(SongClock.text(to))\(postroll) is not a frame after the start \(SongClock.text(start))"
            }
            return "nothing to render: --from \(SongClock.text(start)) is not a frame before the picture's end \(SongClock.text(end)) "
                + "(the song, its release tail and the postroll)"
        case .timeOutsideSong(let seconds, let song, let length):
            return "--at \(Self.atText(seconds)) s is outside \(song), which lasts \(String(format: "%.3f", length)) s with its tail"
        case .noBarsToCount(let option, let time, let song):
            return "--\(option) \(time): \(song) has no bars to count (SMPTE time division)"
        case .ffmpegMissing:
            return description + "; PNG frames and the WAV are still available with --frames-dir and --audio and --no-video"
        case .noSoundFont(let searched):
            return "no SoundFont found (looked at --soundfont, $MIDIVIZ_SOUNDFONT, \(searched.joined(separator: ", "))); "
                + "install one with 'apt-get install musescore-general-soundfont', pass --soundfont FILE.sf2, or use --no-audio"
        case .ffmpegStalled(let doing, let seconds):
            return "ffmpeg \(doing) for \(seconds.formatted(.number.grouping(.never))) s (--stall-timeout): stopped it"
        case .opaqueContainer(let path):
            return "cannot write \(path) with a transparent background: H.264 in MP4 has no alpha; write .mov (ProRes 4444), .webm (VP9), .gif or --frames-dir"
        case .segmentContainer(let path):
            return "cannot write \(path) as a segment (--segment): `midiviz join` joins MP4 parts only; name it .mp4"
        case .badPart(let path, .notASegment):
            return "\(path) is not a segment of midiviz: it carries no segment identity (render each part with `midiviz render --segment K/N`)"
        case .badPart(let path, .otherOptions):
            return "\(path) was rendered with other options than this join's: give join the look and sound options "
                + "(--style, --size, --fps, --speed, --soundfont, ...) and the --preroll and --postroll the segments were rendered with"
        case .badPart(let path, .otherEncoding(let than)):
            return "\(path) was encoded with another --crf or --preset than \(than)"
        default:
            return description
        }
    }
}

/// Prints each line as `midiviz: warning: line` on stderr (what a render leaves out, not an
/// error): the first `shown`, then how many more (a damaged file can make thousands, each
/// naming its offset; `midiviz info --json` lists a song's).
func printWarnings(_ lines: [String], shown: Int = 20) {
    for line in lines.prefix(shown) { say("midiviz: warning: \(line)") }
    guard lines.count > shown else { return }
    say("midiviz: warning: … \(lines.count - shown) more (`midiviz info --json SONG` lists a song's)")
}
