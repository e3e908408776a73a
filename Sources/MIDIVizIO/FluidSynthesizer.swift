import CFluidSynth
import Foundation
import MIDIVizCore

/// Owns a FluidSynth `fluid_settings_t` and `fluid_synth_t` with one SoundFont loaded, and no
/// audio driver: samples are pulled with `render`. Freed in `deinit`.
final class FluidSynthesizer {
    private let settings: OpaquePointer
    private let synth: OpaquePointer

    /// FluidSynth (2.3) sets up its default modulators (velocity to attenuation, ...) when the
    /// process's first synthesizer is made, after marking that done: another synthesizer made
    /// meanwhile on another thread starts without them and plays its notes at other levels.
    /// Synthesizers are made one at a time.
    private static let creation = NSLock()

    /// The corresponding C functions are `new_fluid_settings`, `fluid_settings_setnum`,
    /// `fluid_settings_setint`, `new_fluid_synth` and `fluid_synth_sfload`.
    init(soundFont: String, sampleRate: Int, gain: Double, reverb: Bool, chorus: Bool, polyphony: Int) throws(AudioError) {
        if let problem = RegularFile.problem(at: soundFont) { throw AudioError.unreadableSoundFont(path: soundFont, reason: problem) }
        FluidLogCapture.install()
        // libinstpatch (FluidSynth's loader for DLS and some SoundFonts) says what it refuses
        // through GLib: kept off the terminal, as libsmf's lines are.
        GLibLogCapture.install()
        guard let settings = new_fluid_settings() else { throw AudioError.synthesizer("FluidSynth settings could not be created") }
        fluid_settings_setnum(settings, "synth.sample-rate", Double(sampleRate))
        fluid_settings_setnum(settings, "synth.gain", gain)
        fluid_settings_setint(settings, "synth.reverb.active", reverb ? 1 : 0)
        fluid_settings_setint(settings, "synth.chorus.active", chorus ? 1 : 0)
        fluid_settings_setint(settings, "synth.cpu-cores", 1)
        fluid_settings_setint(settings, "synth.polyphony", Int32(clamping: polyphony))
        // Load only the samples of the presets the song selects: MuseScore General (86 MB of
        // Vorbis) bounces the demo groove in 1.7-2.2 s and 158 MB instead of 4.4-4.8 s and
        // 533 MB, to the same bytes.
        fluid_settings_setint(settings, "synth.dynamic-sample-loading", 1)
        Self.creation.lock()
        let made = new_fluid_synth(settings)
        Self.creation.unlock()
        guard let synth = made else {
            delete_fluid_settings(settings)
            throw AudioError.synthesizer("FluidSynth could not start: \(FluidLogCapture.drain().last ?? "no reason given")")
        }
        self.settings = settings
        self.synth = synth
        _ = FluidLogCapture.drain()
        guard fluid_synth_sfload(synth, soundFont, 1) != FLUID_FAILED else {
            let detail = FluidLogCapture.drain().last.map { " (\($0))" } ?? ""
            throw AudioError.invalidSoundFont(path: soundFont, reason: "not a SoundFont FluidSynth can load\(detail)")
        }
    }

    deinit {
        delete_fluid_synth(synth)
        delete_fluid_settings(settings)
    }

    /// Plays one channel message or SysEx (F0 … F7). The corresponding C functions are the
    /// `fluid_synth_noteon` family and `fluid_synth_sysex`.
    func play(_ bytes: MessageBytes) {
        guard let status = bytes.first else { return }
        if status == 0xF0 {
            let body = bytes.dropFirst().prefix { $0 != 0xF7 }.map { CChar(bitPattern: $0) }
            body.withUnsafeBufferPointer { buffer in
                _ = fluid_synth_sysex(synth, buffer.baseAddress, Int32(buffer.count), nil, nil, nil, 0)
            }
            return
        }
        let channel = Int32(status & 0x0F)
        let first = bytes.count > 1 ? Int32(bytes[1]) : 0, second = bytes.count > 2 ? Int32(bytes[2]) : 0
        switch status & 0xF0 {
        case 0x80: fluid_synth_noteoff(synth, channel, first)
        case 0x90: _ = second == 0 ? fluid_synth_noteoff(synth, channel, first) : fluid_synth_noteon(synth, channel, first, second)
        case 0xA0: fluid_synth_key_pressure(synth, channel, first, second)
        case 0xB0: fluid_synth_cc(synth, channel, first, second)
        case 0xC0: fluid_synth_program_change(synth, channel, first)
        case 0xD0: fluid_synth_channel_pressure(synth, channel, first)
        case 0xE0: fluid_synth_pitch_bend(synth, channel, second << 7 | first)
        default: break
        }
    }

    /// Lets go of everything: sustain, sostenuto and soft pedals up, then all notes off, on all
    /// 16 channels; voices then fade with their own release.
    func releaseEverything() {
        for channel in Int32(0)..<16 {
            for pedal: Int32 in [64, 66, 67] { fluid_synth_cc(synth, channel, pedal, 0) }
            fluid_synth_all_notes_off(synth, channel)
        }
    }

    /// Renders `count` stereo frames as floats. The corresponding C function is `fluid_synth_write_float`.
    func render(_ count: Int, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>) {
        fluid_synth_write_float(synth, Int32(count), left, 0, 1, right, 0, 1)
    }
}

@available(*, unavailable)
extension FluidSynthesizer: Sendable {}
