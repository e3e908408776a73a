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
    /// The run was stopped by `RenderJob.stop()` (a signal): 128 + the signal when known.
    case interrupted(signal: Int32?)

    public var description: String {
        switch self {
        case .usage(let message), .badInput(let message), .missingInput(let message),
            .unavailable(let message), .cannotCreate(let message), .failed(let message):
            return message
        case .option(let error):
            return error.message(prefix: "")
        case .interrupted(let signal):
            return signal.map { "interrupted by signal \($0)" } ?? "interrupted"
        }
    }

    public var exitCode: Int32 {
        switch self {
        case .usage, .option: return 64
        case .badInput: return 65
        case .missingInput: return 66
        case .unavailable: return 69
        case .cannotCreate: return 73
        case .failed: return 1
        case .interrupted(let signal): return 128 + (signal ?? 2)
        }
    }

    /// The same message and exit code as the I/O layer's errors.
    init(exitCode: Int32, message: String) {
        switch exitCode {
        case 64: self = .usage(message)
        case 65: self = .badInput(message)
        case 66: self = .missingInput(message)
        case 69: self = .unavailable(message)
        case 73: self = .cannotCreate(message)
        default: self = .failed(message)
        }
    }

    init(_ error: AudioError) { self.init(exitCode: error.exitCode, message: error.description) }
    init(_ error: VideoError) { self.init(exitCode: error.exitCode, message: error.description) }
    init(_ error: LoadError) { self.init(exitCode: error.exitCode, message: error.description) }
}
