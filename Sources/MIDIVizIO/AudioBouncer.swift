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

    /// Plays the song into `sink` and finishes it.
    /// - Parameters:
    ///   - start, end: the part of the song to keep, in song seconds; the synthesizer still
    ///     plays everything before it, so its state at the start is that of the full render.
    ///     Without an end, the sound rings out after the song's end (the tail).
    ///   - length: given the natural length in seconds, the length to write; silence pads the rest.
    ///   - shouldStop: asked between blocks; when it says yes the bounce throws `.stopped`.
    public func bounce(_ song: Song, soundFont: String, into sink: some SoundSink, from start: Double = 0, until end: Double? = nil,
                       length: (Double) -> Double = { $0 }, shouldStop: () -> Bool = { false }) throws(AudioError) -> Result {
        let synthesizer = try FluidSynthesizer(soundFont: soundFont, sampleRate: sampleRate, gain: gain, reverb: reverb, chorus: chorus)
        let result = try render(song, with: synthesizer, into: sink, from: start, until: end, length: length, shouldStop: shouldStop)
        try sink.finish()
        return result
    }

    static let blockFrames = 4096

    private func render(_ song: Song, with synthesizer: FluidSynthesizer, into writer: some SoundSink, from start: Double,
                        until end: Double?, length: (Double) -> Double, shouldStop: () -> Bool) throws(AudioError) -> Result {
        let rate = Double(sampleRate)
        let left = UnsafeMutablePointer<Float>.allocate(capacity: Self.blockFrames)
        let right = UnsafeMutablePointer<Float>.allocate(capacity: Self.blockFrames)
        defer { left.deallocate(); right.deallocate() }
        let startFrame = max(0, Int((start * rate).rounded()))
        let endFrame = end.map { Int(($0 * rate).rounded()) } ?? Int.max
        var position = 0
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
        for event in song.synthEvents {
            let at = Int((event.seconds * rate).rounded())
            if at >= endFrame { break }
            _ = try advance(to: at)
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
            let tailLimit = songEnd + Int(maximumTailSeconds * rate)
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
