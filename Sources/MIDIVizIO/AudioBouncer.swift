import Foundation
import MIDIVizCore

/// Renders a song's sound through a SoundFont into a WAV, offline and faster than real time.
/// The synthesizer is driven from the song's own timeline (not FluidSynth's player): each
/// event is sent at its sample position, between blocks of rendering. After the song's end the
/// pedals and notes are released and the sound is rendered until it has decayed to silence
/// (below 16-bit resolution for 50 ms) or for at most `maximumTailSeconds`.
package struct AudioBouncer: Sendable {
    package var sampleRate: Int = 48_000
    /// FluidSynth's `synth.gain`; 0.2 as in the fluidsynth command line.
    package var gain: Double = 0.2
    package var reverb = true
    package var chorus = true
    /// FluidSynth's `synth.polyphony`: voices at once (its default, 256).
    package var polyphony = 256
    package var maximumTailSeconds: Double = 3

    package init() {}

    package struct Result: Sendable {
        /// Stereo frames written.
        package var frames: Int
        package var seconds: Double
        /// How long the sound rang on after the song's end.
        package var tailSeconds: Double
    }

    /// Loads `soundFont` as a bounce would, and lets it go: what is wrong with it (unreadable,
    /// not a SoundFont FluidSynth can load) is thrown as the bounce would throw it.
    package func check(soundFont: String) throws(AudioError) {
        _ = try FluidSynthesizer(soundFont: soundFont, sampleRate: sampleRate, gain: gain, reverb: reverb, chorus: chorus, polyphony: polyphony)
    }

    /// Plays the song into `sink` and finishes it.
    /// - Parameters:
    ///   - start, end: the part of the song to keep, in song seconds; a negative start is
    ///     silence before the song's start. The synthesizer is brought
    ///     to the state of `prerollSeconds` before the start without rendering (programs,
    ///     controllers, pedals, the notes held or sustained then), and renders from there, so
    ///     a start late in a long song costs what one near its beginning does. Without an end,
    ///     the sound rings out after the song's end (the tail), until `limit` at the latest.
    ///   - length: given the natural length in seconds, the length to write; silence pads the rest.
    ///   - shouldStop: asked between blocks; when it says yes the bounce throws `.stopped`.
    package func bounce(
        _ song: Song, soundFont: String, into sink: some SoundSink, from start: Double = 0, until end: Double? = nil,
        ringingUntil limit: Double? = nil, length: (Double) -> Double = { $0 }, shouldStop: () -> Bool = { false }
    ) throws(AudioError) -> Result {
        let synthesizer = try FluidSynthesizer(
            soundFont: soundFont, sampleRate: sampleRate, gain: gain, reverb: reverb, chorus: chorus, polyphony: polyphony)
        let result = try render(
            song, with: synthesizer, into: sink, from: start, until: end, ringingUntil: limit, length: length, shouldStop: shouldStop)
        try sink.finish()
        return result
    }

    static let blockFrames = 4096

    /// The sample frame nearest `seconds`; a time beyond any song (`--to 1e15`, past the
    /// ringing: a cut that cuts nothing) is held within Int's range instead of trapping.
    static func sampleFrame(atSeconds seconds: Double, rate: Double) -> Int {
        let frames = (seconds * rate).rounded()
        guard !frames.isNaN else { return 0 }
        return Int(max(-4e18, min(4e18, frames)))
    }
    /// How much is rendered (and dropped) before a later start, for release tails and reverb.
    package static let prerollSeconds = 2.0

    private func render(
        _ song: Song, with synthesizer: FluidSynthesizer, into writer: some SoundSink, from start: Double,
        until end: Double?, ringingUntil limit: Double?, length: (Double) -> Double, shouldStop: () -> Bool
    ) throws(AudioError) -> Result {
        let rate = Double(sampleRate)
        let left = UnsafeMutablePointer<Float>.allocate(capacity: Self.blockFrames)
        let right = UnsafeMutablePointer<Float>.allocate(capacity: Self.blockFrames)
        defer { left.deallocate(); right.deallocate() }
        // A start before the song's (a video's lead-in) is silence up to the song's start.
        let requestedStart = Self.sampleFrame(atSeconds: start, rate: rate)
        if requestedStart < 0 { try writer.appendSilence(-requestedStart) }
        let startFrame = max(0, requestedStart)
        let endFrame = end.map { Self.sampleFrame(atSeconds: $0, rate: rate) } ?? Int.max
        var position = 0
        var nextEvent = 0
        let seekFrame = startFrame - Int(Self.prerollSeconds * rate)
        if seekFrame > 0 {
            // Everything before the seek point at once, without rendering.
            var held = HeldNotes()
            while nextEvent < song.synthEvents.count, Int((song.synthEvents[nextEvent].seconds * rate).rounded()) < seekFrame {
                let bytes = song.synthEvents[nextEvent].bytes
                if !held.take(bytes) { synthesizer.play(bytes) }
                nextEvent += 1
            }
            held.replay(into: synthesizer)
            position = seekFrame
        }
        /// Renders up to frame `target`, keeping what lies in the range; returns the peak level
        /// of what it rendered if asked.
        func advance(to requested: Int, measuringPeak: Bool = false) throws(AudioError) -> Float {
            let target = min(requested, endFrame)
            var peak: Float = 0
            while position < target {
                if shouldStop() { throw .stopped }
                let count = min(Self.blockFrames, target - position)
                synthesizer.render(count, left: left, right: right)
                if measuringPeak {
                    for index in 0..<count { peak = max(peak, abs(left[index]), abs(right[index])) }
                }
                let skip = min(count, max(0, startFrame - position))
                if skip < count { try writer.append(left: left + skip, right: right + skip, count: count - skip) }
                position += count
            }
            return peak
        }
        // Asked every 256 events too: a burst of thousands of notes at one instant, each looking
        // through every voice, takes seconds at a high polyphony.
        for (index, event) in song.synthEvents[nextEvent...].enumerated() {
            let at = Int((event.seconds * rate).rounded())
            if at >= endFrame { break }
            _ = try advance(to: at)
            if index % 256 == 255 && shouldStop() { throw .stopped }
            synthesizer.play(event.bytes)
        }
        let songEnd = max(position, Int((song.durationSeconds * rate).rounded()))
        var tail = 0.0
        if endFrame != Int.max {
            _ = try advance(to: endFrame)
        } else {
            _ = try advance(to: songEnd)
            synthesizer.releaseEverything()
            let silent: Float = 0.5 / 32767  // rounds to 0 in 16 bits
            let window = max(1, sampleRate / 20)
            let tailLimit = min(songEnd + Int(maximumTailSeconds * rate), limit.map { max(songEnd, Self.sampleFrame(atSeconds: $0, rate: rate)) } ?? Int.max)
            while position < tailLimit {
                if try advance(to: min(tailLimit, position + window), measuringPeak: true) < silent { break }
            }
            tail = Double(position - songEnd) / rate
        }
        let natural = Double(writer.framesWritten) / rate
        let wanted = Int((length(natural) * rate).rounded())
        if wanted > writer.framesWritten { try writer.appendSilence(wanted - writer.framesWritten) }
        return Result(frames: writer.framesWritten, seconds: Double(writer.framesWritten) / rate, tailSeconds: tail)
    }
}

/// The notes a synthesizer would be holding, followed through a song's events without playing
/// them: per channel and key the velocity of a held note, and the keys released while the
/// sustain pedal was down (still sounding).
struct HeldNotes {
    private var velocity = [UInt8](repeating: 0, count: 16 * 128)
    private var sustained = [Bool](repeating: false, count: 16 * 128)
    private var lastVelocity = [UInt8](repeating: 0, count: 16 * 128)
    private var pedalDown = [Bool](repeating: false, count: 16)

    /// Follows a note event (true: taken, not to be played); lets everything else through,
    /// noting the sustain pedal and the all-notes-off controllers on the way.
    mutating func take(_ bytes: MessageBytes) -> Bool {
        guard bytes.count >= 3 else { return false }
        let channel = Int(bytes[0] & 0x0F), key = Int(bytes[1] & 0x7F), slot = channel * 128 + key
        switch bytes[0] & 0xF0 {
        case 0x90 where bytes[2] > 0:
            velocity[slot] = bytes[2]
            sustained[slot] = false
            return true
        case 0x80, 0x90:
            if velocity[slot] > 0 && pedalDown[channel] {
                sustained[slot] = true
                lastVelocity[slot] = velocity[slot]
            }
            velocity[slot] = 0
            return true
        case 0xB0:
            let controller = bytes[1], value = bytes[2]
            if controller == 64 {
                pedalDown[channel] = value >= 64
                if !pedalDown[channel] { clearSustained(channel) }
            } else if controller == 121 {
                pedalDown[channel] = false
                clearSustained(channel)
            } else if controller == 120 || controller == 123 {
                for key in 0..<128 { velocity[channel * 128 + key] = 0 }
                if controller == 120 { clearSustained(channel) }
            }
            return false
        default:
            return false
        }
    }

    private mutating func clearSustained(_ channel: Int) {
        for key in 0..<128 { sustained[channel * 128 + key] = false }
    }

    /// Strikes the held notes again, and the sustained ones, releasing those under the pedal
    /// (which `take` let through, so it is down in the synthesizer).
    func replay(into synthesizer: FluidSynthesizer) {
        for slot in 0..<(16 * 128) {
            let status = UInt8(0x90 | slot / 128), key = UInt8(slot % 128)
            if velocity[slot] > 0 {
                synthesizer.play([status, key, velocity[slot]])
            } else if sustained[slot] {
                synthesizer.play([status, key, lastVelocity[slot]])
                synthesizer.play([status, key, 0])
            }
        }
    }
}
