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
    let transaction = OutputTransaction()
    /// What `stop` and `cancel` share with the run.
    struct State {
        var sinks: [any FrameSink] = []
        /// The ffmpeg putting a normalized sound with the finished video, while it runs.
        var muxer: FFmpegProcess?
        /// The ffmpeg encoding that sound beside the frames: from its start to the frames stage's end.
        var soundEncoder: FFmpegProcess?
        var isStopped = false
        var stopSignal: Int32?
        var isRunning = false
        var hasRun = false
    }
    let state = Mutex(State())
    private let runEnded = DispatchSemaphore(value: 0)

    /// Checks the request: the song's length, the outputs (none may be the input, share a path,
    /// be a folder where a file goes, a device, FIFO or socket, or lie in a folder we cannot write).
    public init(_ request: RenderRequest) throws(RenderError) {
        self.request = request
        guard !request.outputs.isEmpty else { throw .usage("nothing to write: no output") }
        try request.settings.check(forVideo: request.outputs.contains(where: \.needsEvenSides))
        guard request.jobs >= 1 else { throw .option(.outOfRange(option: "jobs", value: String(request.jobs), allowed: "at least 1")) }
        try Self.checkLength(of: request.song, named: request.songName, maximum: request.maximumSongSeconds)
        try Self.checkValues(of: request)
        if request.sound == nil, request.outputs.contains(where: { if case .wav = $0 { return true } else { return false } }) {
            throw .usage("a WAV output needs sound settings")
        }
        var inputs: [(String, String)] = [(request.fontPath, "font")]
        if let song = request.songPath { inputs.append((song, "input song")) }
        if let image = request.backgroundImagePath { inputs.append((image, "background image")) }
        if let video = request.backgroundVideo { inputs.append((video.path, "background video")) }
        inputs += request.configFiles.map { ($0, "config file") }
        if let soundFont = request.sound?.soundFontPath ?? ProcessInfo.processInfo.environment["MIDIVIZ_SOUNDFONT"], !soundFont.isEmpty {
            inputs.append((soundFont, "SoundFont"))
        }
        try OutputChecks.check(request.outputs, inputs: inputs)
        // A segment is for join, which joins MP4s only: anything else is refused before any work.
        if request.segment != nil, let video = request.outputs.first(where: { $0.container != nil && $0.container != .mp4 }) {
            throw .segmentContainer(path: video.path)
        }
        for (name, seconds) in [("preroll", request.prerollSeconds ?? 0), ("postroll", request.postrollSeconds)]
        where !RenderRequest.rollRange.contains(seconds) {
            throw .option(.outOfRange(option: name, value: String(seconds), allowed: "between 0 and \(Int(RenderRequest.rollRange.upperBound)) seconds"))
        }
        if request.settings.transparent, let opaque = request.outputs.first(where: { $0.container == .mp4 }) {
            throw .opaqueContainer(path: opaque.path)
        }
    }

    /// Renders; on any failure every temporary is removed and the old outputs stay as they were.
    /// - Parameter progress: called after each frame, from the thread that finished it.
    public func run(progress: @escaping @Sendable (RenderProgress) -> Void = { _ in }) throws(RenderError) -> RenderSummary {
        signal(SIGPIPE, SIG_IGN)  // a reader gone is an error from write, not a signal
        let ranBefore = state.withLock { state in
            defer { state.hasRun = true }
            return state.hasRun
        }
        // Its outputs are committed or discarded: nothing is left to run.
        guard !ranBefore else { throw .usage("a RenderJob runs once: make another for another render") }
        state.withLock { $0.isRunning = true }
        defer {
            state.withLock { $0.isRunning = false }
            runEnded.signal()
        }
        do {
            return try perform(progress: progress)
        } catch {
            for sink in currentSinks() { sink.stop() }
            let names = transaction.names
            transaction.discard()
            let (stopped, signal) = state.withLock { ($0.isStopped, $0.stopSignal) }
            if stopped { throw .interrupted(signal: signal) }
            throw error.naming(names)
        }
    }

    /// The request's own values, set by hand or from options: each in the range the options allow.
    private static func checkValues(of request: RenderRequest) throws(RenderError) {
        func outOfRange(_ option: String, _ value: some CustomStringConvertible, _ allowed: String) -> RenderError {
            .option(.outOfRange(option: option, value: value.description, allowed: allowed))
        }
        guard request.stallTimeoutSeconds.isFinite, request.stallTimeoutSeconds > 0 else {
            throw outOfRange("stall-timeout", request.stallTimeoutSeconds, "a positive number of seconds")
        }
        guard request.startSeconds.isFinite, request.startSeconds >= 0 else { throw outOfRange("from", request.startSeconds, "0 or more seconds") }
        if let end = request.endSeconds, !end.isFinite || end < 0 { throw outOfRange("to", end, "0 or more seconds") }
        for output in request.outputs {
            switch output {
            case .video(let path, let container, let crf, let preset):
                // Named for another container (a name without an extension is taken as it is).
                if let named = VideoContainer(outputPath: path), named != container {
                    try OutputChecks.checkExtension(of: path, writes: container.rawValue.uppercased(), extensions: [container.rawValue])
                }
                let crf = crf ?? request.crf, preset = preset ?? request.preset
                guard RenderOptions.crfs.contains(crf) else { throw outOfRange("crf", crf, "between 0 and 51") }
                if container == .mp4, !RenderOptions.presets.contains(preset) {
                    throw outOfRange("preset", preset, "one of " + RenderOptions.presets.joined(separator: ", "))
                }
            case .pngFrames(_, let level):
                try OutputChecks.checkPNGLevel(level)
            case .wav, .rawYUV:
                break
            }
        }
    }

    /// Refuses a song longer than `maximum` seconds (a finite number), or one whose values are
    /// out of range (`Song.problem`).
    static func checkLength(of song: Song, named name: String, maximum: Double) throws(RenderError) {
        guard maximum.isFinite, maximum > 0 else { throw .usage("the longest song must be a positive number of seconds") }
        if let problem = song.problem { throw .badInput("cannot render \(name): \(problem)") }
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
        let (running, sinks, muxers) = state.withLock { state in
            state.isStopped = true
            state.stopSignal = signal
            return (state.isRunning, state.sinks, [state.soundEncoder, state.muxer])
        }
        for sink in sinks { sink.stop() }
        for muxer in muxers { muxer?.stop() }
        if running { _ = runEnded.wait(timeout: .now() + 10) }
        transaction.discard()
        return transaction.isCommitted
    }

    var shouldStop: Bool { state.withLock { $0.isStopped } }

    private func currentSinks() -> [any FrameSink] { state.withLock { $0.sinks } }

    /// The plan, every output under a temporary name, the sound stage (first, when the frames'
    /// count waits on a normalized sound's length) and the frames stage, then the commit.
    private func perform(progress: @escaping @Sendable (RenderProgress) -> Void) throws(RenderError) -> RenderSummary {
        let plan = try RenderPlan(request, preroll: effectivePreroll, wholeSongFrameCount: wholeSongFrameCount)
        var temporary: [RenderOutput: String] = [:]
        for output in request.outputs { temporary[output] = try transaction.stage(output) }
        var sound: RenderSound?
        if let soundFont = plan.soundFont, let settings = request.sound {
            sound = RenderSound(
                song: request.song, settings: settings, soundFont: soundFont, start: plan.start, end: plan.end, limit: plan.soundLimit,
                shouldStop: { self.shouldStop })
        }
        var frames = plan.frameCount(forAudioSeconds: 0)
        var audioSeconds = 0.0
        let settle = { (natural: Double) -> Double in
            let settled = plan.settled(naturalSeconds: natural)
            frames = settled.frames
            return settled.seconds
        }
        // Normalized sound is made and measured whole, kept aside, then played with its gain:
        // before anything else, unless an encoder takes it (then beside the frames, `renderFrames`).
        let spool = plan.loudness != nil ? try spoolPath() : nil
        var kept: RenderSound.Kept?
        if let sound, let loudness = plan.loudness, let spool, !plan.normalizesBeside {
            kept = try sound.keep(normalizingTo: loudness, spoolPath: spool, length: settle)
            audioSeconds = kept!.seconds
        }
        var measured = kept?.loudness
        if !plan.wantsFrames {
            // The sound alone.
            if let sound, let wav = plan.wav { audioSeconds = try sound.writeWAV(temporary[wav]!, kept: kept, length: settle) }
        } else {
            let made = try renderFrames(plan, frames: frames, sound: sound, kept: kept, spoolPath: spool, temporary: temporary, progress: progress)
            frames = made.frames
            measured = measured ?? made.loudness
        }

        // All outputs at once, unless stopped meanwhile (while the sound was put with the video).
        if shouldStop { throw .interrupted(signal: nil) }
        // An ffmpeg that ends well but wrote nothing (a wrong `$MIDIVIZ_FFMPEG`) made no video.
        for output in request.outputs {
            guard case .video(let path, _, _, _) = output, plan.wantsFrames, frames > 0,
                ((try? FileManager.default.attributesOfItem(atPath: temporary[output]!))?[.size] as? Int ?? 0) == 0
            else { continue }
            throw .failed("ffmpeg wrote nothing into \(path), though it ended well: is it ffmpeg?")
        }
        try transaction.commit()
        let seconds = plan.wantsFrames ? plan.settings.seconds(ofFrame: frames) : audioSeconds
        return RenderSummary(
            outputs: request.outputs.map(\.path), frames: plan.wantsFrames ? frames : 0, durationSeconds: seconds, loudness: measured)
    }

    /// A scratch file for the spool of normalized sound, beside the first output that is a file.
    private func spoolPath() throws(RenderError) -> String {
        try transaction.scratch(beside: request.outputs.first { !$0.isFolder }?.path ?? PathParts(request.outputs[0].path).trimmed, suffix: "f32")
    }

    /// The seconds shown before the start: the request's, or the style's lead-in for a video of
    /// the whole song.
    var effectivePreroll: Double {
        if let preroll = request.prerollSeconds { return preroll }
        let framed = request.outputs.contains { $0.needsFrames } || request.segment != nil
        return framed && request.startSeconds == 0 ? request.settings.leadInSeconds : 0
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
        let whole = RenderSound(song: request.song, settings: sound, soundFont: soundFont, start: start, end: nil, shouldStop: { self.shouldStop })
        _ = try whole.bounce(into: UnheardSound()) { seconds in
            natural = seconds
            return seconds
        }
        return settings.frameCount(seconds: max(natural, visual))
    }

    /// The glyphs for a canvas from a font file: missing or not a regular file is exit 66, unusable 65.
    package static func loadFonts(_ path: String, canvasSide: Int, extra: Set<UInt32> = []) throws(RenderError) -> TextFonts {
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
