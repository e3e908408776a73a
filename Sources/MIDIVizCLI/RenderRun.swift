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
    let look: LookOptions
    let sound: AudioOptions
    let output: OutputOptions

    func run() throws {
        signal(SIGPIPE, SIG_IGN)
        let started = Date()
        let job: RenderJob
        do { job = try makeJob() } catch { throw error.reported }
        let interruption = Interruption { job.stop(signal: $0) }
        defer { interruption.cancel() }
        let reporter = ProgressReporter(style: output.quiet ? nil : output.progress)
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

    /// The engine's job for these options, checked before any work.
    func makeJob() throws(RenderError) -> RenderJob {
        try RenderJob(request(settings: look.settings(for: song)))
    }

    func request(settings: RenderSettings) throws(RenderError) -> RenderRequest {
        var outputs: [RenderOutput] = []
        var container: VideoContainer?
        if let videoPath {
            guard let known = VideoContainer(outputPath: videoPath) else {
                // Whatever else is wrong with it is said first (the input named as the output).
                try OutputChecks.check(files: [videoPath] + (sound.audio.map { [$0] } ?? []),
                                       inputs: songPath.map { [($0, "input song")] } ?? [])
                throw .usage("cannot write \(videoPath): midiviz writes \(VideoContainer.names) (by the extension)")
            }
            container = known
            outputs.append(.video(path: videoPath, container: known, crf: output.crf, preset: output.preset))
        }
        if let raw = output.rawVideoOut { outputs.append(.rawYUV(path: raw)) }
        if let directory = output.framesDirectory { outputs.append(.pngFrames(directory: directory, level: output.pngLevel)) }
        if let audio = sound.audio { outputs.append(.wav(path: audio)) }
        let wantsSound = sound.audio != nil || (container?.hasSound == true && !output.noAudio)
        let soundSettings = SoundSettings(bouncer: sound.bouncer, soundFontPath: sound.soundfont, loudness: sound.loudnessTarget)
        let heard = sound.muteHidden ? song.muting(hiddenBy: settings.trackLook) : song
        var request = RenderRequest(song: heard, songPath: songPath, songName: songName, settings: settings, fontPath: look.font,
                                    sound: wantsSound ? soundSettings : nil, outputs: outputs, jobs: output.jobs)
        request.startSeconds = try seconds(output.from, name: "--from") ?? 0
        request.endSeconds = try seconds(output.to, name: "--to")
        request.maximumSongSeconds = output.maxDuration
        request.stallTimeoutSeconds = output.stallTimeout
        request.backgroundImagePath = look.backgroundImage
        request.segment = output.segment?.segment
        // A range starts where asked unless --preroll is given.
        request.prerollSeconds = output.preroll ?? (output.from != nil ? 0 : nil)
        request.postrollSeconds = output.postroll
        return request
    }

    private func seconds(_ spec: TimeSpec?, name: String) throws(RenderError) -> Double? {
        guard let spec else { return nil }
        guard let seconds = spec.seconds(in: song) else {
            throw .usage("\(name) \(spec): \(songName) has no bars to count (SMPTE time division)")
        }
        return seconds
    }

    private func report(_ summary: RenderSummary, started: Date) {
        guard !output.quiet else { return }
        let wall = Date().timeIntervalSince(started)
        let seconds = summary.durationSeconds
        func rounded(_ value: Double) -> JSONValue { value.isFinite ? .double((value * 100).rounded() / 100) : .null }
        if output.progress == .json {
            var fields: [(String, JSONValue)] = [("done", .bool(true)), ("outputs", .array(summary.outputs.map(JSONValue.string))),
                                                 ("duration_s", .double(seconds)), ("frames", .int(summary.frames)),
                                                 ("wall_s", .double((wall * 1000).rounded() / 1000)),
                                                 ("realtime_x", .double((seconds / max(wall, 1e-9) * 100).rounded() / 100))]
            if let loudness = summary.loudness {
                fields += [("loudness_measured_lufs", rounded(loudness.measuredLUFS)), ("true_peak_dbtp", rounded(loudness.truePeakDBTP)),
                           ("gain_db", rounded(loudness.gainDB)), ("limited", .bool(loudness.limiterThresholdDB != nil)),
                           ("loudness_lufs", rounded(loudness.resultLUFS)), ("loudness_true_peak_dbtp", rounded(loudness.resultTruePeakDBTP))]
            }
            print(JSONValue.object(fields).text)
        } else {
            var loudness = ""
            if let measured = summary.loudness {
                loudness = measured.measuredLUFS.isFinite
                    ? String(format: "; sound %.1f LUFS, %+.1f dB%@ to %.1f LUFS, %.1f dBTP", measured.measuredLUFS, measured.gainDB,
                             measured.limiterThresholdDB != nil ? " and limited" : "", measured.resultLUFS, measured.resultTruePeakDBTP)
                    : "; sound silent, left as it is"
            }
            FileHandle.standardError.write(Data(String(format: "midiviz: %@: %@, %d frames at %d fps, in %.1f s (%.2fx real time)%@\n",
                                                       summary.outputs.joined(separator: ", "), SongClock.text(seconds), summary.frames,
                                                       look.fps, wall, seconds / max(wall, 1e-9), loudness).utf8))
        }
    }
}
