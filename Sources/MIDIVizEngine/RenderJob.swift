import Foundation
import MIDIVizCore
import MIDIVizIO
import Synchronization

/// One render of a `RenderRequest`: the frames to every frame sink with the sound made beside
/// them (its length can extend the video's), then all outputs moved into place at once. `init` refuses what
/// cannot work before anything is written; `stop` (from any thread) ends a run, leaving no
/// temporary and no ffmpeg. Every state belongs to the job: several can run in one process.
public final class RenderJob: Sendable {
    public let request: RenderRequest
    private let transaction = OutputTransaction()
    /// What `stop` and `cancel` share with the run.
    private struct State {
        var sinks: [any FrameSink] = []
        var isStopped = false
        var stopSignal: Int32?
        var isRunning = false
    }
    private let state = Mutex(State())
    private let runEnded = DispatchSemaphore(value: 0)

    /// Checks the request: the song's length, the outputs (none may be the input, share a path,
    /// be a folder where a file goes, a device, FIFO or socket, or lie in a folder we cannot write).
    public init(_ request: RenderRequest) throws(RenderError) {
        self.request = request
        guard !request.outputs.isEmpty else { throw .usage("nothing to write: no output") }
        try request.settings.check()
        guard request.jobs >= 1 else { throw .option(.outOfRange(option: "jobs", value: String(request.jobs), allowed: "at least 1")) }
        try Self.checkLength(of: request.song, named: request.songName, maximum: request.maximumSongSeconds)
        if request.sound == nil, request.outputs.contains(where: { if case .wav = $0 { return true } else { return false } }) {
            throw .usage("a WAV output needs sound settings")
        }
        var inputs: [(String, String)] = [(request.fontPath, "font")]
        if let song = request.songPath { inputs.append((song, "input song")) }
        if let image = request.backgroundImagePath { inputs.append((image, "background image")) }
        if let soundFont = request.sound?.soundFontPath ?? ProcessInfo.processInfo.environment["MIDIVIZ_SOUNDFONT"], !soundFont.isEmpty {
            inputs.append((soundFont, "SoundFont"))
        }
        try OutputChecks.check(request.outputs, inputs: inputs)
        for (name, seconds) in [("preroll", request.prerollSeconds ?? 0), ("postroll", request.postrollSeconds)]
        where !RenderRequest.rollRange.contains(seconds) {
            throw .usage("--\(name) must be between 0 and \(Int(RenderRequest.rollRange.upperBound)) seconds, not \(seconds)")
        }
        if request.settings.transparent, let opaque = request.outputs.first(where: { $0.container == .mp4 }) {
            throw .usage(
                "cannot write \(opaque.path) with a transparent background: H.264 in MP4 has no alpha; write .mov (ProRes 4444), .webm (VP9), .gif or --frames-dir"
            )
        }
    }

    /// Renders; on any failure every temporary is removed and the old outputs stay as they were.
    /// - Parameter progress: called after each frame, from the thread that finished it.
    public func run(progress: @escaping @Sendable (RenderProgress) -> Void = { _ in }) throws(RenderError) -> RenderSummary {
        signal(SIGPIPE, SIG_IGN)  // a reader gone is an error from write, not a signal
        state.withLock { $0.isRunning = true }
        defer {
            state.withLock { $0.isRunning = false }
            runEnded.signal()
        }
        do {
            return try perform(progress: progress)
        } catch {
            for sink in currentSinks() { sink.stop() }
            transaction.discard()
            let (stopped, signal) = state.withLock { ($0.isStopped, $0.stopSignal) }
            if stopped { throw .interrupted(signal: signal) }
            throw error
        }
    }

    /// Refuses a song longer than `maximum` seconds (a finite number).
    static func checkLength(of song: Song, named name: String, maximum: Double) throws(RenderError) {
        guard maximum.isFinite, maximum > 0 else { throw .usage("the longest song must be a positive number of seconds") }
        guard song.durationSeconds <= maximum else {
            throw .songTooLong(song: name, seconds: song.durationSeconds, maximumSeconds: maximum)
        }
    }

    /// Asks the run to end at the next frame, without waiting for it: what a progress callback
    /// (which runs with the frame pipeline's lock held) calls to cancel. `run` then throws
    /// `.interrupted` and, as on any failure, leaves no new output and no temporary.
    public func cancel() {
        state.withLock { $0.isStopped = true }
    }

    /// Ends a run from another thread (a signal handler): stops ffmpeg and the workers, waits
    /// (at most 10 s) for the run to clean up, and removes every temporary. Not from the
    /// progress callback: there, `cancel`.
    /// - Returns: whether the run had already committed its outputs (then they stay, complete,
    ///   and the run counts as a success).
    @discardableResult
    public func stop(signal: Int32? = nil) -> Bool {
        let (running, sinks) = state.withLock { state in
            state.isStopped = true
            state.stopSignal = signal
            return (state.isRunning, state.sinks)
        }
        for sink in sinks { sink.stop() }
        if running { _ = runEnded.wait(timeout: .now() + 10) }
        transaction.discard()
        return transaction.isCommitted
    }

    private var shouldStop: Bool { state.withLock { $0.isStopped } }

    private func currentSinks() -> [any FrameSink] { state.withLock { $0.sinks } }

    private func perform(progress: @escaping @Sendable (RenderProgress) -> Void) throws(RenderError) -> RenderSummary {
        let song = request.song, settings = request.settings
        let wantsFrames = request.outputs.contains { $0.needsFrames }
        let preroll = effectivePreroll, postroll = request.postrollSeconds
        // An end past the song's end (and its tail) is the end, as without one.
        let songEnd = song.durationSeconds + settings.tailSeconds
        let end = request.segment != nil ? nil : request.endSeconds.flatMap { $0 < songEnd ? $0 + postroll : nil }
        let visualEnd = end ?? songEnd + postroll
        guard abs(request.startSeconds) < 1e9, visualEnd > request.startSeconds else {  // finite, and frames fit an Int
            throw .emptyRange(startSeconds: request.startSeconds, endSeconds: visualEnd)
        }
        // A range starts on the song's frame grid, at the nearest frame: its frame k is then the
        // whole song's frame first + k, the same time to the bit and so the same pixels.
        var share: (first: Int, count: Int)?
        if let segment = request.segment {
            share = segment.frames(of: try wholeSongFrameCount())
            guard share!.count > 0 else {
                throw .usage("segment \(segment.index)/\(segment.count) of a \(SongClock.text(songEnd)) song has no frames: use fewer segments")
            }
        }
        let firstFrame =
            share.map { settings.frameIndex(atSeconds: -preroll) + $0.first }
            ?? settings.frameIndex(atSeconds: request.startSeconds - preroll)
        let segmentFrames = share?.count
        let start = settings.seconds(ofFrame: firstFrame)
        guard visualEnd > start || segmentFrames != nil else {
            throw .emptyRange(startSeconds: request.startSeconds, endSeconds: visualEnd)
        }
        /// Frames cover the range (and the sound's tail, when it rings on longer); the WAV is
        /// padded to exactly the frames' length. A segment's frames are its share, fixed.
        @Sendable func frameCount(forAudioSeconds audio: Double) -> Int {
            if let segmentFrames { return segmentFrames }
            return settings.frameCount(seconds: end != nil ? visualEnd - start : max(audio, visualEnd - start))
        }

        // What is needed, found before anything is written.
        let encoder = request.outputs.first { $0.container?.hasSound == true }
        let wav = request.outputs.first { if case .wav = $0 { return true } else { return false } }
        var soundFont: String?
        // A segment is silent: the sound only settled its share, and `join` adds it whole.
        if let sound = request.sound, wav != nil || encoder != nil, request.segment == nil {
            do { soundFont = try SoundFontLocator.locate(explicit: sound.soundFontPath) } catch { throw RenderError(error) }
        }
        var ffmpeg: String?
        if request.outputs.contains(where: { $0.container != nil }) {
            do { ffmpeg = try FFmpegProcess.locate() } catch { throw RenderError(error) }
        }
        let fonts =
            wantsFrames
            ? try Self.loadFonts(
                request.fontPath, canvasSide: settings.textSide,
                extra: Scene.charactersBeyondLatin1(song: request.song, settings: settings))
            : nil

        // Every output under a temporary name.
        var temporary: [RenderOutput: String] = [:]
        for output in request.outputs { temporary[output] = try transaction.stage(output) }

        let fps = Double(settings.framesPerSecond)
        var frames = frameCount(forAudioSeconds: 0)
        var audioSeconds = 0.0
        // Normalized sound is made and measured whole, kept aside, then played with its gain.
        // With an encoder, that happens beside the frames, which go into a video without sound;
        // the sound is added at the end (`mux`). Otherwise before anything else.
        var wantedLoudness = request.sound?.loudness
        // AAC and Opus overshoot the peaks they are given (by up to about 1 dB on a sharp attack
        // after silence): the encoded file keeps the ceiling only with this headroom.
        if encoder?.container?.isLossy == true { wantedLoudness?.truePeakCeilingDBTP -= VideoContainer.lossyPeakHeadroomDB }
        let target = wantedLoudness
        let normalizesBeside = soundFont != nil && target != nil && wantsFrames && encoder != nil
        let spoolPath =
            soundFont != nil && target != nil
            ? try transaction.scratch(
                beside: request.outputs.first { !$0.isFolder }?.path ?? PathParts(request.outputs[0].path).trimmed,
                suffix: "f32")
            : nil
        /// The sound bounced into the spool and measured: the spool and what normalization does.
        @Sendable func keep(_ sound: SoundSettings, soundFont: String, length: @escaping (Double) -> Double)
            throws(RenderError) -> (spool: SoundSpool, loudness: LoudnessMeasurement)
        {
            let spool: SoundSpool
            do { spool = try SoundSpool(path: spoolPath!, sampleRate: sound.bouncer.sampleRate) } catch { throw RenderError(error) }
            _ = try bounce(sound, soundFont: soundFont, into: spool, from: start, until: end, length: length)
            do {
                return (spool, try spool.normalization(for: target!, shouldStop: { self.shouldStop }))
            } catch .stopped {
                throw .interrupted(signal: nil)
            } catch {
                throw RenderError(error)
            }
        }
        var kept: (spool: SoundSpool, loudness: LoudnessMeasurement)?
        if let soundFont, let sound = request.sound, target != nil, !normalizesBeside {
            kept = try keep(sound, soundFont: soundFont) { natural in
                frames = frameCount(forAudioSeconds: natural)
                return Double(frames) / fps
            }
            audioSeconds = Double(kept!.spool.framesWritten) / Double(sound.bouncer.sampleRate)
        }
        let besideLoudness = Box<LoudnessMeasurement>()
        let keptSound = kept
        /// The kept sound into `sink`, with its gain; its length in seconds.
        @Sendable func play(_ kept: (spool: SoundSpool, loudness: LoudnessMeasurement), into sink: some SoundSink) throws(RenderError) -> Double {
            do {
                try kept.spool.replay(
                    gainDB: kept.loudness.gainDB, limiterThresholdDB: kept.loudness.limiterThresholdDB, into: sink,
                    shouldStop: { self.shouldStop })
            } catch .stopped {
                throw .interrupted(signal: nil)
            } catch {
                throw RenderError(error)
            }
            return Double(kept.spool.framesWritten) / Double(kept.spool.sampleRate)
        }
        /// The sound into `sink`: played from the kept sound, or bounced now.
        @Sendable func makeSound(
            _ sound: SoundSettings, soundFont: String, into sink: some SoundSink,
            length: @escaping (Double) -> Double
        ) throws(RenderError) -> Double {
            guard let kept = keptSound else { return try bounce(sound, soundFont: soundFont, into: sink, from: start, until: end, length: length) }
            return try play(kept, into: sink)
        }
        /// The whole sound before any frame, into a WAV; its length settles the frame count.
        func soundFirst(_ sound: SoundSettings, soundFont: String, into path: String) throws(RenderError) {
            let writer: WAVWriter
            do { writer = try WAVWriter(path: path, sampleRate: sound.bouncer.sampleRate) } catch { throw RenderError(error) }
            audioSeconds = try makeSound(sound, soundFont: soundFont, into: writer) { natural in
                frames = frameCount(forAudioSeconds: natural)
                return Double(frames) / fps
            }
        }
        if !wantsFrames {
            // The sound alone.
            if let soundFont, let sound = request.sound, let wav {
                try soundFirst(sound, soundFont: soundFont, into: temporary[wav]!)
            }
        } else if let fonts {
            // The frames, with the sound made beside them: into the WAV output and into a FIFO
            // the encoder reads. Until the sound has rung out, the number of frames is a floor.
            var fifo: String?
            var encoderAudio: VideoEncoderSink.Audio?
            var soundIsDone = false
            // Normalizing beside the frames: the encoder writes a video without sound here, and
            // the sound goes into this WAV, to be put together at the end.
            var muxing: (video: String, sound: String)?
            if let encoder, normalizesBeside {
                muxing = (try transaction.scratch(beside: encoder.path, suffix: "video"), try transaction.scratch(beside: encoder.path, suffix: "wav"))
            } else if let soundFont, let sound = request.sound, let encoder {
                let path = try transaction.scratch(beside: encoder.path, suffix: "pcm")
                unlink(path)
                if mkfifo(path, 0o600) == 0 {
                    fifo = path
                    encoderAudio = .pcmFIFO(path: path, sampleRate: sound.bouncer.sampleRate)
                } else {
                    // No FIFOs on this file system (vfat, some FUSE): the sound first, into a WAV.
                    let wavPath: String
                    if let wav { wavPath = temporary[wav]! } else { wavPath = try transaction.scratch(beside: encoder.path, suffix: "wav") }
                    try soundFirst(sound, soundFont: soundFont, into: wavPath)
                    encoderAudio = .wav(path: wavPath)
                    soundIsDone = true
                }
            }
            var made: [any FrameSink] = []
            /// The encoder that reads the sound as it is made (it ends the sound's wait when it has gone).
            var soundReader: VideoEncoderSink?
            for output in request.outputs {
                switch output {
                case .video(let path, .gif, _, _):
                    made.append(
                        try GIFSink(
                            path: temporary[output]!, scratch: try transaction.scratch(beside: path, suffix: "mkv"),
                            palette: try transaction.scratch(beside: path, suffix: "png"), ffmpeg: ffmpeg!,
                            settings: settings, stallTimeoutSeconds: request.stallTimeoutSeconds))
                case .video(_, let container, let crf, let preset):
                    let path = output == encoder ? muxing?.video ?? temporary[output]! : temporary[output]!
                    let sink = try VideoEncoderSink(
                        path: path, container: container, ffmpeg: ffmpeg!, settings: settings,
                        audio: output == encoder ? encoderAudio : nil, crf: crf, preset: preset,
                        stallTimeoutSeconds: request.stallTimeoutSeconds)
                    if soundReader == nil { soundReader = sink }
                    made.append(sink)
                case .pngFrames(_, let level):
                    made.append(PNGFolderSink(directory: temporary[output]!, level: level, alpha: settings.transparent))
                case .rawYUV:
                    made.append(try RawYUVSink(path: temporary[output]!))
                case .wav:
                    break
                }
                state.withLock { $0.sinks = made }
                if shouldStop { throw .interrupted(signal: nil) }
            }
            let soundDecidesLength = soundFont != nil && end == nil && !soundIsDone && kept == nil
            let pipeline = FramePipeline(
                renderer: FrameRenderer(scene: Scene(song: song, settings: settings), fonts: fonts),
                jobs: request.jobs, firstFrame: firstFrame, frameCount: frames, isFinal: !soundDecidesLength,
                sinks: made)
            var soundJob: BackgroundBounce?
            if let soundFont, let sound = request.sound, !soundIsDone {
                let wavPath = wav.map { temporary[$0]! }, stall = request.stallTimeoutSeconds
                let fifo = fifo, made = made, gone = Latch(), muxSound = muxing?.sound
                let reader = soundReader
                soundJob = BackgroundBounce { [self] () throws(RenderError) -> Double in
                    do throws(RenderError) {
                        var sinks: [any SoundSink] = []
                        do throws(AudioError) {
                            if let wavPath { sinks.append(try WAVWriter(path: wavPath, sampleRate: sound.bouncer.sampleRate)) }
                            if let muxSound { sinks.append(try WAVWriter(path: muxSound, sampleRate: sound.bouncer.sampleRate)) }
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
                            let count = frameCount(forAudioSeconds: natural)
                            pipeline.settle(frameCount: count)
                            return Double(count) / fps
                        }
                        guard normalizesBeside else { return try makeSound(sound, soundFont: soundFont, into: SoundFanOut(sinks), length: settle) }
                        let kept = try keep(sound, soundFont: soundFont, length: settle)
                        besideLoudness.set(kept.loudness)
                        return try play(kept, into: SoundFanOut(sinks))
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
            var framesError: Error?
            do {
                try pipeline.run(
                    progress: { progress(RenderProgress(framesDone: $0, frames: $1)) },
                    shouldStop: { self.shouldStop })
            } catch {
                framesError = error
            }
            // The sound's own failure says more than what it caused downstream.
            if let soundJob {
                switch soundJob.wait() {
                case .success(let seconds): audioSeconds = seconds
                case .failure(let error): throw error
                }
            }
            if let error = framesError as? RenderError { throw error }
            if let error = framesError { throw .failed(String(describing: error)) }
            frames = pipeline.frameCount
            for sink in made { try sink.finish() }
            if let muxing, let encoder, let container = encoder.container {
                try VideoEncoderSink.addSound(
                    muxing.sound, to: muxing.video, into: temporary[encoder]!, container: container,
                    ffmpeg: ffmpeg!, stallTimeoutSeconds: request.stallTimeoutSeconds)
            }
        }

        // All outputs at once.
        try transaction.commit()
        let seconds = wantsFrames ? Double(frames) / Double(settings.framesPerSecond) : audioSeconds
        return RenderSummary(
            outputs: request.outputs.map(\.path), frames: wantsFrames ? frames : 0, durationSeconds: seconds,
            loudness: kept?.loudness ?? besideLoudness.value)
    }

    /// The seconds shown before the start: the request's, or the style's lead-in for a video of
    /// the whole song.
    var effectivePreroll: Double {
        if let preroll = request.prerollSeconds { return preroll }
        let framed = request.outputs.contains { $0.needsFrames } || request.segment != nil
        return framed && request.startSeconds == 0 ? request.settings.leadInSeconds : 0
    }

    /// A value set once, read from any thread.
    private final class Box<Value: Sendable>: Sendable {
        private let stored = Mutex<Value?>(nil)
        var value: Value? { stored.withLock { $0 } }
        func set(_ newValue: Value) { stored.withLock { $0 = newValue } }
    }

    /// A flag set once, read from any thread.
    private final class Latch: Sendable {
        private let value = Atomic<Bool>(false)
        var isSet: Bool { value.load(ordering: .acquiring) }
        func set() { value.store(true, ordering: .releasing) }
    }

    /// The frames of the whole song rendered with this request's settings: the visual end and its
    /// tail, or the sound's, when it rings on longer (found by bouncing the whole sound unheard).
    private func wholeSongFrameCount() throws(RenderError) -> Int {
        let settings = request.settings
        let start = settings.seconds(ofFrame: settings.frameIndex(atSeconds: -effectivePreroll))
        let visual = request.song.durationSeconds + settings.tailSeconds + request.postrollSeconds - start
        guard let sound = request.sound else { return settings.frameCount(seconds: visual) }
        let soundFont: String
        do { soundFont = try SoundFontLocator.locate(explicit: sound.soundFontPath) } catch { throw RenderError(error) }
        var natural = 0.0
        _ = try bounce(sound, soundFont: soundFont, into: UnheardSound(), from: start, until: nil) { seconds in
            natural = seconds
            return seconds
        }
        return settings.frameCount(seconds: max(natural, visual))
    }

    private func bounce(
        _ sound: SoundSettings, soundFont: String, into sink: some SoundSink, from start: Double, until end: Double?,
        length: (Double) -> Double
    ) throws(RenderError) -> Double {
        do {
            return try sound.bouncer.bounce(
                request.song, soundFont: soundFont, into: sink, from: start, until: end,
                length: length, shouldStop: { self.shouldStop }
            ).seconds
        } catch .stopped {
            throw .interrupted(signal: nil)
        } catch {
            throw RenderError(error)
        }
    }

    /// The glyphs for a canvas from a font file: missing or not a regular file is exit 66, unusable 65.
    public static func loadFonts(_ path: String, canvasSide: Int, extra: Set<UInt32> = []) throws(RenderError) -> TextFonts {
        do {
            return try FontRasterizer(path: path).textFonts(canvasSide: canvasSide, extra: extra)
        } catch {
            if RegularFile.problem(at: path) != nil { throw .missingInput(error.description) }
            throw .badInput(error.description)
        }
    }
}

/// A sound sink that only counts: the whole sound's length, for a segment's share.
private final class UnheardSound: SoundSink {
    private(set) var framesWritten = 0
    func append(left: UnsafePointer<Float>, right: UnsafePointer<Float>, count: Int) throws(AudioError) { framesWritten += count }
    func finish() throws(AudioError) {}
}
