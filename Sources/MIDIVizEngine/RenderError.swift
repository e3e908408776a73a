import Foundation
import MIDIVizCore
import MIDIVizIO

/// Why a render did not happen, in one line naming the file and the cause; each case carries
/// the exit code the command line uses (sysexits.h values).
public enum RenderError: Error, CustomStringConvertible, Sendable, Equatable {
    /// Options that contradict each other or an output that would lose data (64).
    case usage(String)
    /// The song, a font or a SoundFont is not what it should be (65).
    case badInput(String)
    /// A file to read is missing or unreadable (66).
    case missingInput(String)
    /// A tool we need is missing: ffmpeg (69).
    case unavailable(String)
    /// An output cannot be created or written (73).
    case cannotCreate(String)
    /// ffmpeg or the synthesizer failed (1).
    case failed(String)
    /// An option's value, or options together, refused (64).
    case option(OptionError)
    /// The song lasts longer than `RenderRequest.maximumSongSeconds` (65).
    case songTooLong(song: String, seconds: Double, maximumSeconds: Double)
    /// The range starts at or after its end (or within a frame of it) (64).
    case emptyRange(startSeconds: Double, endSeconds: Double)
    /// The time of a poster frame lies outside the song and its tail (64).
    case timeOutsideSong(seconds: Double, song: String, lengthSeconds: Double)
    /// A time given in bars (`bar:N`) for a song whose time division counts no bars (64).
    case noBarsToCount(option: String, time: String, song: String)
    /// The run was stopped by `RenderJob.stop()` (a signal): 128 + the signal when known.
    case interrupted(signal: Int32?)

    public var description: String {
        switch self {
        case .usage(let message), .badInput(let message), .missingInput(let message),
            .unavailable(let message), .cannotCreate(let message), .failed(let message):
            return message
        case .option(let error):
            return error.message(prefix: "")
        case .songTooLong(let song, let seconds, let maximum):
            return "cannot render \(song): it lasts \(Int(seconds)) s, more than the longest allowed, \(Int(maximum)) s"
        case .emptyRange(let start, let end):
            return "nothing to render: the start \(SongClock.text(start)) is not a frame before the end \(SongClock.text(end))"
        case .timeOutsideSong(let seconds, let song, let length):
            return "\(seconds) s is outside \(song), which lasts \(String(format: "%.3f", length)) s with its tail"
        case .noBarsToCount(let option, let time, let song):
            return "\(option) \(time): \(song) has no bars to count (SMPTE time division)"
        case .interrupted(let signal):
            return signal.map { "interrupted by signal \($0)" } ?? "interrupted"
        }
    }

    public var exitCode: Int32 {
        switch self {
        case .usage, .option, .emptyRange, .timeOutsideSong, .noBarsToCount: return 64
        case .badInput, .songTooLong: return 65
        case .missingInput: return 66
        case .unavailable: return 69
        case .cannotCreate: return 73
        case .failed: return 1
        case .interrupted(let signal): return 128 + (signal ?? 2)
        }
    }

    /// The I/O layer's errors, by case: the same message, and the category their kind of
    /// failure belongs to.
    init(_ error: AudioError) {
        switch error {
        case .noSoundFont, .unreadableSoundFont: self = .missingInput(error.description)
        case .invalidSoundFont, .tooLong: self = .badInput(error.description)
        case .cannotWrite: self = .cannotCreate(error.description)
        case .synthesizer, .stopped, .encoderStalled, .encoderGone: self = .failed(error.description)
        }
    }

    init(_ error: VideoError) {
        switch error {
        case .ffmpegMissing: self = .unavailable(error.description)
        case .cannotWrite: self = .cannotCreate(error.description)
        case .ffmpegFailed, .ffmpegStalled: self = .failed(error.description)
        }
    }

    init(_ error: LoadError) {
        switch error {
        case .unreadable: self = .missingInput(error.description)
        case .invalid: self = .badInput(error.description)
        }
    }
}
