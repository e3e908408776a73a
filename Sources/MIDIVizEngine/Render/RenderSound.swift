import Foundation
import MIDIVizCore
import MIDIVizIO

/// A render's sound stage: the song through the synthesizer from the plan's start, into any
/// sound sink; normalized sound is bounced once into a spool, measured, and played back from it
/// with its gain. `length` callbacks turn the sound's natural length into the one the frames
/// settle on.
struct RenderSound: Sendable {
    let song: Song
    let settings: SoundSettings
    let soundFont: String
    let start: Double
    let end: Double?
    /// Without an end, the latest the sound may ring on to (`RenderPlan.soundLimit`).
    var limit: Double? = nil
    let shouldStop: @Sendable () -> Bool

    /// Sound bounced into the spool and measured.
    struct Kept: Sendable {
        let spool: SoundSpool
        let loudness: LoudnessMeasurement
        var seconds: Double { Double(spool.framesWritten) / Double(spool.sampleRate) }
    }

    /// The song into `sink`; its length in seconds.
    func bounce(into sink: some SoundSink, length: (Double) -> Double) throws(RenderError) -> Double {
        do {
            return try settings.bouncer.bounce(
                song, soundFont: soundFont, into: sink, from: start, until: end, ringingUntil: limit, length: length, shouldStop: shouldStop
            ).seconds
        } catch .stopped {
            throw .interrupted(signal: nil)
        } catch {
            throw RenderError(error)
        }
    }

    /// The song into a spool at `spoolPath`, measured: what normalizing it to `loudness` does.
    func keep(normalizingTo loudness: LoudnessTarget, spoolPath: String, length: (Double) -> Double) throws(RenderError) -> Kept {
        let spool: SoundSpool
        do { spool = try SoundSpool(path: spoolPath, sampleRate: settings.bouncer.sampleRate) } catch { throw RenderError(error) }
        _ = try bounce(into: spool, length: length)
        do {
            return Kept(spool: spool, loudness: try spool.normalization(for: loudness, shouldStop: shouldStop))
        } catch .stopped {
            throw .interrupted(signal: nil)
        } catch {
            throw RenderError(error)
        }
    }

    /// Kept sound into `sink` with its gain; its length in seconds.
    func play(_ kept: Kept, into sink: some SoundSink) throws(RenderError) -> Double {
        do {
            try kept.spool.replay(
                gainDB: kept.loudness.gainDB, limiterThresholdDB: kept.loudness.limiterThresholdDB, into: sink, shouldStop: shouldStop)
        } catch .stopped {
            throw .interrupted(signal: nil)
        } catch {
            throw RenderError(error)
        }
        return kept.seconds
    }

    /// The sound into `sink`: played from `kept` when there is one, else bounced now.
    func make(into sink: some SoundSink, kept: Kept?, length: (Double) -> Double) throws(RenderError) -> Double {
        guard let kept else { return try bounce(into: sink, length: length) }
        return try play(kept, into: sink)
    }

    /// The sound into a new WAV at `path`; its length in seconds.
    func writeWAV(_ path: String, kept: Kept?, length: (Double) -> Double) throws(RenderError) -> Double {
        let writer: WAVWriter
        do { writer = try WAVWriter(path: path, sampleRate: settings.bouncer.sampleRate) } catch { throw RenderError(error) }
        return try make(into: writer, kept: kept, length: length)
    }
}
