import ArgumentParser
import Foundation
import MIDIVizCore
import MIDIVizEngine
import MIDIVizIO

/// `render` and `demo`: the options made into the engine's request, one run with progress and
/// signals, one summary line.
struct RenderRun {
    let song: Song
    /// The song's file; nil for the built-in demo.
    let songPath: String?
    let songName: String
    let videoPath: String?
    let options: RenderOptions
    let outputs: OutputOptions

    func run() throws {
        signal(SIGPIPE, SIG_IGN)
        let started = Date()
        let job: RenderJob
        do { job = try RenderJob(request()) } catch { throw error.reported }
        let interruption = Interruption { job.stop(signal: $0) }
        defer { interruption.cancel() }
        let reporter = ProgressReporter(style: outputs.reporting.quiet ? nil : outputs.reporting.progress)
        let summary: RenderSummary
        do {
            summary = try job.run { reporter.update(done: $0.framesDone, of: $0.frames) }
        } catch {
            interruption.yieldIfInterrupted()
            reporter.finish()
            throw error.reported
        }
        reporter.finish()
        report(summary, started: started)
    }

    /// The engine's request: the outputs these options name, and the render options.
    func request() throws(RenderError) -> RenderRequest {
        var list: [RenderOutput] = []
        if let videoPath {
            guard let known = VideoContainer(outputPath: videoPath) else {
                // Whatever else is wrong with it is said first (the input named as the output).
                try OutputChecks.check(
                    files: [videoPath] + (outputs.audio.map { [$0] } ?? []),
                    inputs: songPath.map { [($0, "input song")] } ?? [])
                throw .usage("cannot write \(videoPath): midiviz writes \(VideoContainer.names) (by the extension)")
            }
            list.append(.video(path: videoPath, container: known, crf: options.crf, preset: options.preset))
        }
        if let raw = outputs.rawVideoOut { list.append(.rawYUV(path: raw)) }
        if let directory = outputs.framesDirectory { list.append(.pngFrames(directory: directory, level: outputs.pngLevel)) }
        if let audio = outputs.audio { list.append(.wav(path: audio)) }
        return try RenderRequest(
            song: song, songPath: songPath, songName: songName, options: options, outputs: list,
            segment: outputs.segment?.segment, defaultJobs: ProcessInfo.processInfo.activeProcessorCount)
    }

    private func report(_ summary: RenderSummary, started: Date) {
        guard !outputs.reporting.quiet else { return }
        let wall = Date().timeIntervalSince(started)
        let seconds = summary.durationSeconds
        func rounded(_ value: Double) -> JSONValue { value.isFinite ? .double((value * 100).rounded() / 100) : .null }
        if outputs.reporting.progress == .json {
            var fields: [(String, JSONValue)] = [
                ("done", .bool(true)), ("outputs", .array(summary.outputs.map(JSONValue.string))),
                ("duration_s", .double(seconds)), ("frames", .int(summary.frames)),
                ("wall_s", .double((wall * 1000).rounded() / 1000)),
                ("realtime_x", .double((seconds / max(wall, 1e-9) * 100).rounded() / 100)),
            ]
            if let loudness = summary.loudness {
                fields += [
                    ("loudness_measured_lufs", rounded(loudness.measuredLUFS)), ("true_peak_dbtp", rounded(loudness.truePeakDBTP)),
                    ("gain_db", rounded(loudness.gainDB)), ("limited", .bool(loudness.limiterThresholdDB != nil)),
                    ("loudness_lufs", rounded(loudness.resultLUFS)), ("loudness_true_peak_dbtp", rounded(loudness.resultTruePeakDBTP)),
                ]
            }
            print(JSONValue.object(fields).text)
        } else {
            var loudness = ""
            if let measured = summary.loudness {
                loudness =
                    measured.measuredLUFS.isFinite
                    ? String(
                        format: "; sound %.1f LUFS, %+.1f dB%@ to %.1f LUFS, %.1f dBTP", measured.measuredLUFS, measured.gainDB,
                        measured.limiterThresholdDB != nil ? " and limited" : "", measured.resultLUFS, measured.resultTruePeakDBTP)
                    : "; sound silent, left as it is"
            }
            FileHandle.standardError.write(
                Data(
                    String(
                        format: "midiviz: %@: %@, %d frames at %d fps, in %.1f s (%.2fx real time)%@\n",
                        summary.outputs.joined(separator: ", "), SongClock.text(seconds), summary.frames,
                        options.fps, wall, seconds / max(wall, 1e-9), loudness
                    ).utf8))
        }
    }
}
