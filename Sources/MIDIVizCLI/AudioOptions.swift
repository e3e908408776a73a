import ArgumentParser
import MIDIVizIO

/// The options of the sound: SoundFont, rate, gain, effects, tail.
struct AudioOptions: ParsableArguments {
    @Option(help: "Also write the sound as this WAV (16-bit stereo).")
    var audio: String?

    @Option(help: ArgumentHelp("The SoundFont (.sf2 or .sf3) (default: $MIDIVIZ_SOUNDFONT, then Debian's MuseScore General, /usr/share/sounds/sf3/MuseScore_General.sf3, then sf3/default-GM.sf3, sf2/default-GM.sf2, FluidR3_GM.sf2, TimGM6mb.sf2).",
                               valueName: "file"))
    var soundfont: String?

    @Option(name: .customLong("sample-rate"), help: "Audio sample rate in Hz (48000 suits video; 44100 also common).")
    var sampleRate: Int = 48_000

    @Option(help: "Synthesizer gain, as fluidsynth's -g.")
    var gain: Double = 0.2

    @Flag(name: .customLong("no-reverb"), help: "Turn the synthesizer's reverb off.")
    var noReverb = false

    @Flag(name: .customLong("no-chorus"), help: "Turn the synthesizer's chorus off.")
    var noChorus = false

    @Option(name: .customLong("max-tail"), help: ArgumentHelp("Seconds the sound may ring on after the song's end, at most (default: 3).", valueName: "seconds"))
    var maxTailOption: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Normalize the sound to this integrated loudness in LUFS (EBU R128, true peak at most -1 dBTP), or off to keep the synthesizer's level.", valueName: "LUFS|off"))
    var loudness: Loudness = .target(-14)

    @Flag(name: .customLong("mute-hidden"), help: "Silence the notes --hide-track, --hide-channel and --only-track hide.")
    var muteHidden = false

    var maxTail: Double { maxTailOption ?? 3 }

    /// The normalization, or nil for none.
    var loudnessTarget: LoudnessTarget? {
        if case .target(let lufs) = loudness { return LoudnessTarget(integratedLUFS: lufs) }
        return nil
    }

    func validate() throws {
        guard (8_000...192_000).contains(sampleRate) else { throw ValidationError("--sample-rate must be between 8000 and 192000, not \(sampleRate)") }
        guard (0...10).contains(gain) else { throw ValidationError("--gain must be between 0 and 10, not \(gain)") }
        if case .target(let lufs) = loudness, !LoudnessTarget.range.contains(lufs) {
            throw ValidationError("--loudness must be between -70 and 0 LUFS, or off, not \(lufs)")
        }
        guard (0...60).contains(maxTail) else { throw ValidationError("--max-tail must be between 0 and 60 seconds") }
    }

    var bouncer: AudioBouncer {
        var bouncer = AudioBouncer()
        bouncer.sampleRate = sampleRate
        bouncer.gain = gain
        bouncer.reverb = !noReverb
        bouncer.chorus = !noChorus
        bouncer.maximumTailSeconds = maxTail
        return bouncer
    }
}

/// `--loudness`: a number of LUFS or `off`.
enum Loudness: ExpressibleByArgument, Equatable {
    case target(Double)
    case off

    init?(argument: String) {
        if argument.lowercased() == "off" { self = .off; return }
        guard let value = Double(argument), value.isFinite else { return nil }
        self = .target(value)
    }

    var defaultValueDescription: String {
        switch self {
        case .target(let value): return String(format: "%g", value)
        case .off: return "off"
        }
    }
}
