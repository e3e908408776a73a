/// Why the sound of a song could not be made; each case has its exit code.
package enum AudioError: Error, CustomStringConvertible, Sendable {
    /// No SoundFont found where we looked (exit 66).
    case noSoundFont(searched: [String])
    /// The SoundFont given does not exist or cannot be read (exit 66).
    case unreadableSoundFont(path: String, reason: String)
    /// The file is not a SoundFont (exit 65).
    case invalidSoundFont(path: String, reason: String)
    /// FluidSynth itself failed (exit 1).
    case synthesizer(String)
    /// The WAV cannot be written (exit 73).
    case cannotWrite(path: String, reason: String)
    /// The WAV would pass the format's 4 GiB (exit 65).
    case tooLong(seconds: Double)
    /// The caller asked the bounce to stop (an interrupted run).
    case stopped
    /// The encoder reading the sound took none for this long (exit 1).
    case encoderStalled(seconds: Double)
    /// The encoder reading the sound has gone (exit 1); its own error says why.
    case encoderGone

    package var description: String {
        switch self {
        case .noSoundFont(let searched):
            return "no SoundFont found (looked at $MIDIVIZ_SOUNDFONT, \(searched.joined(separator: ", "))); "
                + "install one with 'apt-get install musescore-general-soundfont' or give one"
        case .unreadableSoundFont(let path, let reason): return "cannot read SoundFont \(path): \(reason)"
        case .invalidSoundFont(let path, let reason): return "cannot use SoundFont \(path): \(reason)"
        case .synthesizer(let reason): return "synthesizer failed: \(reason)"
        case .cannotWrite(let path, let reason): return "cannot write \(path): \(reason)"
        case .tooLong(let seconds): return "the audio would last \(Int(seconds)) s, more than a WAV file can hold"
        case .stopped: return "stopped"
        case .encoderStalled(let seconds):
            return "ffmpeg took no sound for \(seconds.formatted(.number.grouping(.never))) s: stopped it"
        case .encoderGone: return "ffmpeg stopped reading the sound"
        }
    }

    package var exitCode: Int32 {
        switch self {
        case .noSoundFont, .unreadableSoundFont: return 66
        case .invalidSoundFont, .tooLong: return 65
        case .synthesizer, .stopped, .encoderStalled, .encoderGone: return 1
        case .cannotWrite: return 73
        }
    }
}
