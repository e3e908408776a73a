import Foundation
import MIDIVizCore
import MIDIVizIO
import Synchronization

/// A batch's render: the plan's songs, several at once (the options' `jobs` songs at once, each
/// on the cores left to it), past songs that fail, skipping those whose output and record are
/// up to date; `stop` (from any thread, a signal handler) ends it, leaving finished songs with
/// their records and no partial output.
public final class BatchJob: Sendable {
    public let plan: BatchPlan
    /// Render songs even when their outputs are up to date.
    public let force: Bool
    private let songsAtOnce: Int
    private let processorCount: Int
    /// How a failed song's error is worded in the report.
    private let describe: @Sendable (RenderError) -> String
    /// What the workers and `stop` share.
    private struct State {
        var next = 0
        var stopped = false
        var active: [Int: RenderJob] = [:]
        var results: [BatchResult?]
        var finished = 0
        var digests: [String: String?] = [:]
    }
    private let state: Mutex<State>

    /// - Parameters:
    ///   - force: render songs even when their outputs are up to date.
    ///   - processorCount: the cores the songs share.
    ///   - describe: a failed song's message in the report (the command line names options as
    ///     its flags); the error's own description by default.
    public init(
        plan: BatchPlan, force: Bool = false, processorCount: Int = AvailableCores.count,
        describe: @escaping @Sendable (RenderError) -> String = { $0.description }
    ) {
        self.plan = plan
        self.force = force
        self.describe = describe
        songsAtOnce = max(1, plan.options.jobs ?? 1)
        self.processorCount = max(1, processorCount)
        state = Mutex(State(results: Array(repeating: nil, count: plan.songs.count)))
    }

    /// Renders the songs; returns the report of every song: rendered, skipped or failed (all
    /// failed alike when the batch's font, SoundFont, background or ffmpeg is missing:
    /// `BatchPlan.checkSetup`; with exit code 64 when two songs would be written to one output:
    /// `BatchPlan.checkOutputsAreDistinct`). Stopped, the songs it did not finish failed as not finished
    /// (exit 130), and those it finished as they went.
    /// - Parameter progress: called as each song ends, with its result and how many have
    ///   ended, from the thread that rendered it.
    public func run(progress: @escaping @Sendable (BatchResult, Int) -> Void = { _, _ in }) -> BatchReport {
        // A plan made by hand is checked as `BatchPlan.make` checks its own: each output once.
        do throws(BatchError) { try plan.checkOutputsAreDistinct() } catch { return report(everySongFailed: error.exitCode, error.description) }
        // What every song needs from the batch (`BatchPlan.checkSetup`): one failure for all.
        do throws(RenderError) { try plan.checkSetup() } catch { return report(everySongFailed: error.exitCode, describe(error)) }
        let started = Date()
        let workers = min(songsAtOnce, max(1, plan.songs.count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while let index = claim() {
                var result = render(index, workers: workers)
                // A song failed by `stop` (its tools or render stopped under it) was interrupted.
                if result.status == .failed, state.withLock({ $0.stopped }) {
                    result.exitCode = 130
                    result.message = "not finished: the batch was stopped while it rendered"
                }
                let number = state.withLock { state in
                    state.results[index] = result
                    state.active[index] = nil
                    state.finished += 1
                    return state.finished
                }
                progress(result, number)
            }
        }
        let done = state.withLock { state in
            zip(plan.songs, state.results).map { song, result in
                result
                    ?? BatchResult(
                        song: song, status: .failed, exitCode: 130, message: Self.notStarted,
                        durationSeconds: 0, frames: 0, wallSeconds: 0)
            }
        }
        return BatchReport(songs: done, wallSeconds: Date().timeIntervalSince(started), shard: plan.shard, plan: plan.identity)
    }

    /// The report before any song has ended: each failed as not finished (exit 130). A batch
    /// writes it before it starts, so that one stopped before its end (a signal, `kill -9`, a
    /// lost machine) leaves this report, not an earlier run's saying that every song was made.
    public var unfinishedReport: BatchReport {
        report(everySongFailed: 130, "not finished: the batch was stopped before its end, or is still running")
    }

    /// The report of a batch that did not start: every song failed with `message` and
    /// `exitCode` (a song found unreadable while planning, with its own problem).
    public func report(everySongFailed exitCode: Int32, _ message: String) -> BatchReport {
        let songs = plan.songs.map {
            BatchResult(
                song: $0, status: .failed, exitCode: $0.problem == nil ? exitCode : 66, message: $0.problem ?? message,
                durationSeconds: 0, frames: 0, wallSeconds: 0)
        }
        return BatchReport(songs: songs, wallSeconds: 0, shard: plan.shard, plan: plan.identity)
    }

    /// Why a song a stopped batch did not start has no video.
    private static let notStarted = "not finished: the batch was stopped before it started"

    /// Whether `stop` was called.
    public var wasStopped: Bool { state.withLock { $0.stopped } }

    /// Stops every song being rendered (each removes its temporaries) and starts no more.
    public func stop(signal: Int32? = nil) {
        let jobs = state.withLock { state in
            state.stopped = true
            return Array(state.active.values)
        }
        for job in jobs { job.stop(signal: signal) }
    }

    private func claim() -> Int? {
        state.withLock { state in
            guard !state.stopped, state.next < plan.songs.count else { return nil }
            defer { state.next += 1 }
            return state.next
        }
    }

    /// The SHA-256 of a file the songs read, once a run.
    private func digest(_ path: String) -> String? {
        if let known = state.withLock({ $0.digests[path] }) { return known }
        let digest = FileDigest.sha256(ofFile: path)
        state.withLock { $0.digests[path] = digest }
        return digest
    }

    private func render(_ index: Int, workers: Int) -> BatchResult {
        let song = plan.songs[index]
        let started = Date()
        // Once the song is loaded: what `render` would warn of.
        var warnings: [String] = []
        func result(_ status: BatchResult.Status, code: Int32 = 0, _ message: String = "", duration: Double = 0, frames: Int = 0) -> BatchResult {
            BatchResult(
                song: song, status: status, exitCode: code, message: message, warnings: warnings, durationSeconds: duration, frames: frames,
                wallSeconds: Date().timeIntervalSince(started))
        }
        func failed(_ error: RenderError) -> BatchResult { result(.failed, code: error.exitCode, describe(error)) }
        if let problem = song.problem { return result(.failed, code: 66, problem) }
        let bytes: [UInt8]
        let loaded: Song
        do throws(LoadError) {
            bytes = try SongLoader.readFile(song.input)
            loaded = try SongLoader.load(bytes: bytes, name: song.input)
        } catch {
            return result(.failed, code: error.exitCode, error.description)
        }
        var options = song.options
        warnings = options.warnings(for: loaded, also: [options.sampleRateWarning(for: VideoContainer(outputPath: song.output))])
        // `jobs` is songs at once: each song renders on the cores left to it.
        options.jobs = max(1, processorCount / workers)
        let request: RenderRequest
        do {
            request = try RenderRequest(
                song: loaded, songPath: song.input, songName: song.input, options: options,
                outputs: [.video(path: song.output, container: VideoContainer(outputPath: song.output) ?? .mp4, crf: options.crf, preset: options.preset)],
                defaultJobs: 1)
        } catch {
            return failed(error)
        }
        if let leftOut = request.settings.overlaysLeftOutWarning(song: request.song) { warnings.append(leftOut) }
        // The SoundFont the render will play with, found as it finds it.
        var soundFont: String?
        if let sound = request.sound {
            do { soundFont = try SoundFontLocator.locate(explicit: sound.soundFontPath) } catch { return failed(RenderError(error)) }
        }
        var record = BatchRecord(input: bytes, options: options, soundFont: soundFont, digest: digest)
        if !force, let made = record.upToDateRefreshingRecord(output: song.output) {
            StagedOutput.removeStaleTemporaries(of: song.output)  // of a rerun killed earlier
            // What the render made, as a report of that render said: the same totals as a run
            // that renders it.
            return result(.skipped, "up to date", duration: made.durationSeconds ?? 0, frames: made.frames ?? 0)
        }
        let folder = URL(fileURLWithPath: song.output).deletingLastPathComponent().path
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            return result(.failed, code: 73, "cannot create \(folder): \(error.localizedDescription)")
        }
        // The record beside the video is checked as the video is (a FIFO or a folder there is
        // not replaced).
        do { try OutputChecks.check(files: [BatchRecord.path(of: song.output)], inputs: []) } catch { return failed(error) }
        let job: RenderJob
        do { job = try RenderJob(request) } catch { return failed(error) }
        let mayStart = state.withLock { state in
            if !state.stopped { state.active[index] = job }
            return !state.stopped
        }
        guard mayStart else { return result(.failed, code: 130, Self.notStarted) }
        let summary: RenderSummary
        do { summary = try job.run() } catch { return failed(error) }
        if let missed = options.loudnessWarning(summary.loudness) { warnings.append(missed) }
        record.noteOutput(song.output)
        record.durationSeconds = summary.durationSeconds
        record.frames = summary.frames
        // Under the lock, and not once stopped: a signal never cuts a record short (a video
        // without its record is only rendered again).
        let written: Result<Void, BatchError> = state.withLock { state in
            guard !state.stopped else { return .success(()) }
            return Result { () throws(BatchError) in try record.write(for: song.output) }
        }
        if case .failure(let error) = written { return result(.failed, code: error.exitCode, error.message) }
        return result(.rendered, duration: summary.durationSeconds, frames: summary.frames)
    }
}
