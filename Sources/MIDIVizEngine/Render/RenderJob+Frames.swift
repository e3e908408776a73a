import Foundation
import MIDIVizCore
import MIDIVizIO
import Synchronization

extension RenderJob {
    /// Where the sound goes while the frames are made.
    private struct SoundRoute {
        /// What the encoder carrying the sound reads: a FIFO fed as the sound is made, or a WAV.
        var encoderAudio: VideoEncoderSink.Audio?
        var fifo: String?
        /// Normalizing beside the frames: the encoder writes a video without sound here, and the
        /// sound goes into this WAV, to be put together at the end (`VideoEncoderSink.addSound`);
        /// encoded into `encodedSound` as soon as it is made, when the container allows
        /// (`VideoEncoding.soundAheadFormat`), so that the end only copies.
        var muxing: (video: String, sound: String, encodedSound: String?)?
        /// The sound was made before the frames (no FIFO on this file system).
        var isDone = false
    }

    /// The frames stage: every frame sink fed by the frame pipeline, with the sound made beside
    /// the frames (into the WAV output and the encoder) on its own thread. Until the sound has
    /// rung out, `frames` is a floor.
    /// - Returns: the frames made, and the sound's loudness when it was normalized here.
    func renderFrames(
        _ plan: RenderPlan, frames: Int, sound: RenderSound?, kept: RenderSound.Kept?, spoolPath: String?,
        temporary: [RenderOutput: String],
        progress: @escaping @Sendable (RenderProgress) -> Void
    ) throws(RenderError) -> (frames: Int, loudness: LoudnessMeasurement?) {
        guard let fonts = plan.fonts else { return (frames, nil) }
        // The sound's encoder, if one started, ends with this stage (done already on success).
        defer {
            state.withLock { state in
                defer { state.soundEncoder = nil }
                return state.soundEncoder
            }?.stop()
        }
        var frames = frames
        let route = try soundRoute(plan, sound: sound, kept: kept, temporary: temporary, frames: &frames)
        let (made, soundReader) = try makeSinks(plan, route: route, temporary: temporary)
        let soundDecidesLength = sound != nil && plan.end == nil && !route.isDone && kept == nil
        // A few frames of the background video ahead of those being drawn (the pipeline's window).
        let background = try request.backgroundVideo.map { (video) throws(RenderError) in
            try BackgroundVideoFrames(
                video: video, settings: plan.settings, firstSongFrame: plan.firstFrame, ahead: FramePipeline.window(jobs: request.jobs) + 2,
                stallTimeoutSeconds: request.stallTimeoutSeconds)
        }
        defer { background?.stop() }
        let pipeline = FramePipeline(
            renderer: FrameRenderer(scene: Scene(song: request.song, settings: plan.settings), fonts: fonts),
            jobs: request.jobs, firstFrame: plan.firstFrame, frameCount: frames, isFinal: !soundDecidesLength, sinks: made,
            background: background)
        let loudness = Box<LoudnessMeasurement>()
        var soundJob: BackgroundBounce?
        if let sound, !route.isDone {
            soundJob = soundBeside(
                plan, sound: sound, kept: kept, spoolPath: spoolPath, route: route, wavPath: plan.wav.map { temporary[$0]! }, pipeline: pipeline,
                sinks: made, reader: soundReader, loudness: loudness)
        }
        var framesError: Error?
        do {
            try pipeline.run(
                progress: { progress(RenderProgress(framesDone: $0, frames: $1)) },
                shouldStop: { self.shouldStop })
        } catch {
            framesError = error
        }
        // The sound's own failure says more than what it caused downstream.
        if case .failure(let error)? = soundJob?.wait() { throw error }
        if let error = framesError as? RenderError { throw error }
        if let error = framesError { throw .failed(String(describing: error)) }
        for sink in made { try sink.finish() }
        if let muxing = route.muxing, let encoder = plan.encoder, let container = encoder.container, let ffmpeg = plan.ffmpeg {
            let made = pipeline.frameCount
            let seconds = plan.settings.seconds(ofFrame: made)
            let report: @Sendable (Double) -> Void = { muxed in
                progress(RenderProgress(framesDone: made, frames: made, stage: .muxing, muxedSeconds: min(muxed, seconds), durationSeconds: seconds))
            }
            report(0)
            // The sound encoded beside the frames: done by now, unless it was made after them
            // (a short or tiny video).
            let soundEncoder = state.withLock { $0.soundEncoder }
            if let soundEncoder {
                do throws(VideoError) { try soundEncoder.finish() } catch { throw VideoEncoderSink.failure(error, writing: encoder.path) }
            }
            defer { state.withLock { $0.muxer = nil } }
            let encoded = soundEncoder != nil ? muxing.encodedSound : nil
            try VideoEncoderSink.addSound(
                encoded ?? muxing.sound, to: muxing.video, into: temporary[encoder]!, name: encoder.path, container: container, ffmpeg: ffmpeg,
                stallTimeoutSeconds: request.stallTimeoutSeconds, encoded: encoded != nil, progress: report
            ) { muxer in keepStoppable(muxer, in: \.muxer) }
        }
        return (pipeline.frameCount, loudness.value)
    }

    /// Keeps `process` in `slot` of the state, so that `stop` stops it; stopped at once when
    /// `stop` came before it started.
    private func keepStoppable(_ process: FFmpegProcess, in slot: WritableKeyPath<State, FFmpegProcess?>) {
        let stopped = state.withLock { state in
            state[keyPath: slot] = process
            return state.isStopped
        }
        if stopped { process.stop() }
    }

    /// Where the sound goes: a FIFO the encoder reads as the sound is made, or (normalizing) a
    /// WAV to put with a silent video at the end; with no FIFOs on this file system (vfat, some
    /// FUSE) the sound is made first, into a WAV, and its length settles `frames`.
    private func soundRoute(
        _ plan: RenderPlan, sound: RenderSound?, kept: RenderSound.Kept?, temporary: [RenderOutput: String], frames: inout Int
    ) throws(RenderError) -> SoundRoute {
        var route = SoundRoute()
        guard let encoder = plan.encoder, let sound else { return route }
        if plan.normalizesBeside {
            let encodesAhead = encoder.container?.encoding?.soundAheadFormat != nil
            route.muxing = (
                try transaction.scratch(beside: encoder.path, suffix: "video"), try transaction.scratch(beside: encoder.path, suffix: "wav"),
                encodesAhead ? try transaction.scratch(beside: encoder.path, suffix: "sound") : nil
            )
            return route
        }
        let path = try transaction.scratch(beside: encoder.path, suffix: "pcm")
        unlink(path)
        if mkfifo(path, 0o600) == 0 {
            route.fifo = path
            route.encoderAudio = .pcmFIFO(path: path, sampleRate: sound.settings.bouncer.sampleRate)
            return route
        }
        let wavPath: String
        if let wav = plan.wav { wavPath = temporary[wav]! } else { wavPath = try transaction.scratch(beside: encoder.path, suffix: "wav") }
        var settled = frames
        _ = try sound.writeWAV(wavPath, kept: kept) { natural in
            let length = plan.settled(naturalSeconds: natural)
            settled = length.frames
            return length.seconds
        }
        frames = settled
        route.encoderAudio = .wav(path: wavPath)
        route.isDone = true
        return route
    }

    /// A frame sink per output that takes frames, in the outputs' order; and the encoder that
    /// reads the sound as it is made (it ends the sound's wait when it has gone).
    private func makeSinks(
        _ plan: RenderPlan, route: SoundRoute, temporary: [RenderOutput: String]
    ) throws(RenderError) -> (sinks: [any FrameSink], soundReader: VideoEncoderSink?) {
        var made: [any FrameSink] = []
        var soundReader: VideoEncoderSink?
        for output in request.outputs {
            switch output {
            case .video(let path, .gif, _, _):
                made.append(
                    try GIFSink(
                        path: temporary[output]!, scratch: try transaction.scratch(beside: path, suffix: "mkv"),
                        palette: try transaction.scratch(beside: path, suffix: "png"), ffmpeg: plan.ffmpeg!,
                        settings: plan.settings, stallTimeoutSeconds: request.stallTimeoutSeconds))
            case .video(let path, let container, let named, let namedPreset):
                let crf = named ?? request.crf, preset = namedPreset ?? request.preset
                let carriesSound = output == plan.encoder
                let identity = try segmentIdentity(plan, crf: crf, preset: preset)
                let sink = try VideoEncoderSink(
                    path: carriesSound ? route.muxing?.video ?? temporary[output]! : temporary[output]!, name: path, container: container,
                    ffmpeg: plan.ffmpeg!, settings: plan.settings, audio: carriesSound ? route.encoderAudio : nil, crf: crf, preset: preset,
                    stallTimeoutSeconds: request.stallTimeoutSeconds,
                    metadata: identity.map { [SegmentIdentity.metadataKey: $0.metadataText] } ?? [:])
                if soundReader == nil { soundReader = sink }
                made.append(sink)
            case .pngFrames(_, let level):
                made.append(
                    PNGFolderSink(
                        directory: temporary[output]!, level: level, alpha: plan.settings.transparent, firstIndex: plan.segmentShare?.first ?? 0))
            case .rawYUV:
                made.append(try RawYUVSink(path: temporary[output]!))
            case .wav:
                break
            }
            state.withLock { $0.sinks = made }
            if shouldStop { throw .interrupted(signal: nil) }
        }
        return (made, soundReader)
    }

    /// What a segment's video says it is (nil for a render that is no segment).
    private func segmentIdentity(_ plan: RenderPlan, crf: Int, preset: String) throws(RenderError) -> SegmentIdentity? {
        guard let segment = request.segment, let share = plan.segmentShare, let frames = plan.segmentFrames else { return nil }
        guard let song = SegmentIdentity.songDigest(path: request.songPath, name: request.songName) else {
            throw .missingInput("cannot read \(request.songName) again to record which song the segment shows")
        }
        return SegmentIdentity(
            songSHA256: song, optionsSHA256: request.segmentOptionsSHA256 ?? "", encoding: SegmentIdentity.encoding(crf: crf, preset: preset),
            index: segment.index, count: segment.count, firstFrame: share.first, frames: frames, totalFrames: share.total)
    }

    /// The sound made on its own thread beside the frames: into the WAV output, the encoder's
    /// FIFO and (normalizing) the WAV to put with the video; its natural length settles the
    /// pipeline's frame count. A failure stops the frames and every sink.
    private func soundBeside(
        _ plan: RenderPlan, sound: RenderSound, kept: RenderSound.Kept?, spoolPath: String?, route: SoundRoute, wavPath: String?,
        pipeline: FramePipeline, sinks made: [any FrameSink], reader: VideoEncoderSink?, loudness: Box<LoudnessMeasurement>
    ) -> BackgroundBounce {
        let stall = request.stallTimeoutSeconds, fifo = route.fifo, muxSound = route.muxing?.sound, gone = Latch()
        let encodedSound = route.muxing?.encodedSound, container = plan.encoder?.container, ffmpeg = plan.ffmpeg
        let sampleRate = sound.settings.bouncer.sampleRate
        let spool: (target: LoudnessTarget, path: String)? =
            if plan.normalizesBeside, let target = plan.loudness, let spoolPath { (target, spoolPath) } else { nil }
        return BackgroundBounce { [self] () throws(RenderError) -> Double in
            do throws(RenderError) {
                var sinks: [any SoundSink] = []
                do throws(AudioError) {
                    if let wavPath { sinks.append(try WAVWriter(path: wavPath, sampleRate: sampleRate)) }
                    if let muxSound { sinks.append(try WAVWriter(path: muxSound, sampleRate: sampleRate)) }
                    if let fifo {
                        let writer = try PCMPipeWriter(fifo: fifo, stallTimeoutSeconds: stall) {
                            if self.shouldStop { return true }
                            if reader?.isEncoding == false { gone.set() }
                            return gone.isSet
                        }
                        sinks.append(writer)
                    }
                } catch .stopped where !gone.isSet {
                    throw .interrupted(signal: nil)
                } catch .stopped {
                    throw RenderError(AudioError.encoderGone)
                } catch {
                    throw RenderError(error)
                }
                let settle = { (natural: Double) -> Double in
                    let length = plan.settled(naturalSeconds: natural)
                    pipeline.settle(frameCount: length.frames)
                    return length.seconds
                }
                guard let spool else { return try sound.make(into: SoundFanOut(sinks), kept: kept, length: settle) }
                let normalized = try sound.keep(normalizingTo: spool.target, spoolPath: spool.path, length: settle)
                loudness.set(normalized.loudness)
                let seconds = try sound.play(normalized, into: SoundFanOut(sinks))
                if let muxSound, let encodedSound, let container, let ffmpeg,
                    let encoder = try VideoEncoderSink.startEncodingSound(
                        muxSound, into: encodedSound, container: container, ffmpeg: ffmpeg, stallTimeoutSeconds: stall)
                {
                    // Encoded from now on, while the frames are still made: the end waits for it
                    // and copies it.
                    keepStoppable(encoder, in: \.soundEncoder)
                }
                return seconds
            } catch {
                // An encoder that has gone says why in its own words.
                var reported = error
                if let reader, error == RenderError(AudioError.encoderGone) || !reader.isEncoding {
                    do throws(RenderError) { try reader.finish() } catch { reported = error }
                }
                pipeline.fail(reported)
                for sink in made { sink.stop() }
                throw reported
            }
        }
    }
}

/// A value set once, read from any thread.
final class Box<Value: Sendable>: Sendable {
    private let stored = Mutex<Value?>(nil)
    var value: Value? { stored.withLock { $0 } }
    func set(_ newValue: Value) { stored.withLock { $0 = newValue } }
}

/// A flag set once, read from any thread.
final class Latch: Sendable {
    private let value = Atomic<Bool>(false)
    var isSet: Bool { value.load(ordering: .acquiring) }
    func set() { value.store(true, ordering: .releasing) }
}
