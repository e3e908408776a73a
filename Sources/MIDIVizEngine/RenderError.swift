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
    /// The range starts at or after its end (or within a frame of it) (64): the `--to` given
    /// (`toSeconds`, the end less the postroll), else the picture's (the song, its tail and the
    /// postroll).
    case emptyRange(startSeconds: Double, endSeconds: Double, toSeconds: Double?)
    /// The time of a poster frame lies outside the song and its tail (64).
    case timeOutsideSong(seconds: Double, song: String, lengthSeconds: Double)
    /// A time given in bars (`bar:N`) for a song whose time division counts no bars (64).
    case noBarsToCount(option: String, time: String, song: String)
    /// No ffmpeg on PATH or at `$MIDIVIZ_FFMPEG` (69).
    case ffmpegMissing
    /// No SoundFont given and none found at `$MIDIVIZ_SOUNDFONT` or these paths (66).
    case noSoundFont(searched: [String])
    /// ffmpeg took nothing (frames, sound) or did not exit for longer than the stall timeout (1).
    case ffmpegStalled(doing: String, seconds: Double)
    /// A transparent background asked of a container without alpha (64).
    case opaqueContainer(path: String)
    /// A segment's video in a container `join` cannot join (64).
    case segmentContainer(path: String)
    /// A join into a container it cannot write with the right bytes (64).
    case joinContainer(path: String)
    /// A part given to join is not a part of this song and these options, or not whole (65).
    case badPart(path: String, problem: PartProblem)
    /// The parts given to join lack these shares (numbered from 1) of `count` (65).
    case missingParts(indices: [Int], count: Int)
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
            return "cannot render \(song): it lasts \(SongClock.seconds(seconds)) s, more than the longest allowed, \(SongClock.seconds(maximum)) s"
        case .emptyRange(let start, let end, let to):
            return to != nil
                ? "nothing to render: the end \(SongClock.text(end)) is not a frame after the start \(SongClock.text(start))"
                : "nothing to render: the start \(SongClock.text(start)) is not a frame before the picture's end \(SongClock.text(end))"
        case .timeOutsideSong(let seconds, let song, let length):
            let time = String(format: abs(seconds) < 1e9 ? "%.3f" : "%g", seconds)
            return "\(time) s is outside \(song), which lasts \(String(format: "%.3f", length)) s with its tail"
        case .noBarsToCount(let option, let time, let song):
            return "\(option) \(time): \(song) has no bars to count (SMPTE time division)"
        case .ffmpegMissing:
            return VideoError.ffmpegMissing.description
        case .noSoundFont(let searched):
            return AudioError.noSoundFont(searched: searched).description
        case .ffmpegStalled(let doing, let seconds):
            return VideoError.ffmpegStalled(seconds: seconds, doing: doing).description
        case .opaqueContainer(let path):
            return "cannot write \(path) with a transparent background: H.264 in MP4 has no alpha; write .mov (ProRes 4444), .webm (VP9), .gif or PNG frames"
        case .segmentContainer(let path):
            return "cannot write \(path) as a segment: join joins MP4 parts only (H.264); name it .mp4"
        case .joinContainer(let path):
            return "cannot join into \(path): join writes MP4 (the parts' H.264 copied, AAC sound); name it .mp4"
        case .badPart(let path, let problem):
            return problem.description(of: path)
        case .missingParts(let indices, let count):
            return Self.missingText(indices, count: count)
        case .interrupted(let signal):
            return signal.map { "interrupted by signal \($0)" } ?? "interrupted"
        }
    }

    public var exitCode: Int32 {
        switch self {
        case .usage, .option, .emptyRange, .timeOutsideSong, .noBarsToCount, .opaqueContainer, .segmentContainer, .joinContainer: return 64
        case .badInput, .songTooLong, .badPart, .missingParts: return 65
        case .missingInput, .noSoundFont: return 66
        case .unavailable, .ffmpegMissing: return 69
        case .cannotCreate: return 73
        case .failed, .ffmpegStalled: return 1
        case .interrupted(let signal): return 128 + (signal ?? 2)
        }
    }

    /// "part 2 of 3 is missing", "parts 2, 4 and 5 of 7 are missing" (the first 10 named).
    static func missingText(_ indices: [Int], count: Int) -> String {
        let named = indices.prefix(10).map(String.init)
        var list = named.count > 1 ? named.dropLast().joined(separator: ", ") + " and " + named.last! : named.first ?? ""
        if indices.count > named.count { list = named.joined(separator: ", ") + " and \(indices.count - named.count) more" }
        return indices.count == 1 ? "part \(list) of \(count) is missing" : "parts \(list) of \(count) are missing"
    }

    /// The I/O layer's errors, by case: the same message, and the category their kind of
    /// failure belongs to.
    init(_ error: AudioError) {
        switch error {
        case .noSoundFont(let searched): self = .noSoundFont(searched: searched)
        case .encoderStalled(let seconds): self = .ffmpegStalled(doing: "took no sound", seconds: seconds)
        case .unreadableSoundFont: self = .missingInput(error.description)
        case .invalidSoundFont, .tooLong: self = .badInput(error.description)
        case .cannotWrite: self = .cannotCreate(error.description)
        case .synthesizer, .stopped, .encoderGone: self = .failed(error.description)
        }
    }

    init(_ error: VideoError) {
        switch error {
        case .ffmpegMissing: self = .ffmpegMissing
        case .ffmpegStalled(let seconds, let doing): self = .ffmpegStalled(doing: doing, seconds: seconds)
        case .cannotWrite: self = .cannotCreate(error.description)
        case .ffmpegFailed: self = .failed(error.description)
        }
    }

    init(_ error: LoadError) {
        switch error {
        case .unreadable: self = .missingInput(error.description)
        case .invalid: self = .badInput(error.description)
        case .toolMissing: self = .unavailable(error.description)
        case .toolFailed: self = .failed(error.description)
        }
    }
}

extension RenderError {
    /// The error with each temporary's path in its message named as `names` say: the user
    /// named the output, not the hidden file it is made in.
    func naming(_ names: [(temporary: String, shown: String)]) -> RenderError {
        func named(_ message: String) -> String {
            names.reduce(message) { text, name in text.replacingOccurrences(of: name.temporary, with: name.shown) }
        }
        switch self {
        case .usage(let message): return .usage(named(message))
        case .badInput(let message): return .badInput(named(message))
        case .missingInput(let message): return .missingInput(named(message))
        case .unavailable(let message): return .unavailable(named(message))
        case .cannotCreate(let message): return .cannotCreate(named(message))
        case .failed(let message): return .failed(named(message))
        default: return self
        }
    }
}
