import Foundation
import MIDIVizCore

/// Renders a song's sound through a SoundFont into a WAV, offline and faster than real time.
/// The synthesizer is driven from the song's own timeline (not FluidSynth's player): each
/// event is sent at its sample position, between blocks of rendering. After the song's end the
/// pedals and notes are released and the sound is rendered until it has decayed to silence
/// (below 16-bit resolution for 50 ms) or for at most `maximumTailSeconds`.
public struct AudioBouncer: Sendable {
    public var sampleRate: Int = 48_000
    /// FluidSynth's `synth.gain`; 0.2 as in the fluidsynth command line.
    public var gain: Double = 0.2
    public var reverb = true
    public var chorus = true
    public var maximumTailSeconds: Double = 3

    public init() {}

    public struct Result: Sendable {
        /// Stereo frames written.
        public var frames: Int
        public var seconds: Double
        /// How long the sound rang on after the song's end.
        public var tailSeconds: Double
    }

    /// Writes the WAV under a temporary name beside `path` and renames it into place when done.
    public func bounce(_ song: Song, soundFont: String, to path: String) throws(AudioError) -> Result {
        let synthesizer = try FluidSynthesizer(soundFont: soundFont, sampleRate: sampleRate, gain: gain, reverb: reverb, chorus: chorus)
        let partial = path + ".partial-\(getpid())"
        do throws(AudioError) {
            let writer = try WAVWriter(path: partial, sampleRate: sampleRate)
            let result = try render(song, with: synthesizer, into: writer)
            try writer.finish()
            guard rename(partial, path) == 0 else { throw .cannotWrite(path: path, reason: String(cString: strerror(errno))) }
            return result
        } catch {
            unlink(partial)
            throw error
        }
    }

    static let blockFrames = 4096

    private func render(_ song: Song, with synthesizer: FluidSynthesizer, into writer: WAVWriter) throws(AudioError) -> Result {
        let rate = Double(sampleRate)
        let left = UnsafeMutablePointer<Float>.allocate(capacity: Self.blockFrames)
        let right = UnsafeMutablePointer<Float>.allocate(capacity: Self.blockFrames)
        defer { left.deallocate(); right.deallocate() }
        var position = 0
        /// Renders up to frame `target`; returns the peak level of what it rendered if asked.
        func advance(to target: Int, measuringPeak: Bool = false) throws(AudioError) -> Float {
            var peak: Float = 0
            while position < target {
                let count = min(Self.blockFrames, target - position)
                synthesizer.render(count, left: left, right: right)
                if measuringPeak {
                    for index in 0..<count { peak = max(peak, abs(left[index]), abs(right[index])) }
                }
                try writer.append(left: left, right: right, count: count)
                position += count
            }
            return peak
        }
        for event in song.synthEvents {
            _ = try advance(to: Int((event.seconds * rate).rounded()))
            synthesizer.play(event.bytes)
        }
        let songEnd = max(position, Int((song.durationSeconds * rate).rounded()))
        _ = try advance(to: songEnd)
        synthesizer.releaseEverything()
        let silent: Float = 0.5 / 32767  // rounds to 0 in 16 bits
        let window = max(1, sampleRate / 20)
        let tailLimit = songEnd + Int(maximumTailSeconds * rate)
        while position < tailLimit {
            if try advance(to: min(tailLimit, position + window), measuringPeak: true) < silent { break }
        }
        return Result(frames: position, seconds: Double(position) / rate, tailSeconds: Double(position - songEnd) / rate)
    }
}
