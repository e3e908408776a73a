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
    /// The config files the options came from (no output may replace one).
    let configFiles: [String]
    /// `--segment`, resolved.
    var segment: RenderSegment? = nil
    /// The sound options the command line gave (`--loudness`, `--soundfont`, ...), warned of
    /// when the render makes no sound.
    var soundOptionsGiven: [String] = []
    /// Every render option the command line gave, warned of when this render leaves it unused
    /// (`RenderOptions.unusedOptionsWarning`).
    var optionsGiven: [String] = []

    func run() throws {
        signal(SIGPIPE, SIG_IGN)
        let started = Date()
        let job: RenderJob
        var makesSound = true
        var overlaysLeftOut: String?
        // Engraving sheet music runs the score tools.
        do {
            job = try Interruption.stoppingScoreTools { () throws(RenderError) in
                let request = try request()
                makesSound = request.sound != nil
                overlaysLeftOut = request.settings.overlaysLeftOutWarning(song: request.song)
                return try RenderJob(request)
            }
            // Named by the user (the engine's own WAVs have scratch names); after the checks of
            // what the output may not be (an input named as the output is said first), as the
            // video's container is.
            if let audio = outputs.audio { try OutputChecks.checkExtension(of: audio, writes: "WAV", extensions: ["wav", "wave"]) }
        } catch {
            throw error.reported
        }
        if !outputs.reporting.quiet {
            let container = videoPath.flatMap(VideoContainer.init(outputPath:))
            // The render's own first: past 20, only the song's are left out (`info` lists them).
            printWarnings(
                options.warnings(
                    for: song,
                    also: [
                        options.sampleRateWarning(for: container), overlaysLeftOut,
                        // A render without sound says so of the sound's options below.
                        options.unusedOptionsWarning(
                            given: makesSound ? optionsGiven : optionsGiven.filter { !soundOptionsGiven.contains($0) }, container: container),
                    ]))
            if !makesSound && !soundOptionsGiven.isEmpty {
                let named = soundOptionsGiven.map { "--" + $0 }.joined(separator: ", ")
                let gif = container == .gif
                let why = options.noAudio ? "--no-audio" : "\(gif ? "a .gif" : "frames") carr\(gif ? "ies" : "y") none; --audio FILE.wav makes it"
                printWarnings(["\(named): this render makes no sound (\(why)), so \(soundOptionsGiven.count == 1 ? "it has" : "they have") no effect"])
            }
        }
        let interruption = Interruption { job.stop(signal: $0) }
        defer { interruption.cancel() }
        let reporter = ProgressReporter(style: outputs.reporting.quiet ? nil : outputs.reporting.progress)
        let summary: RenderSummary
        do {
            summary = try job.run { reporter.update($0) }
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
        var request = try RenderRequest(
            song: song, songPath: songPath, songName: songName, options: options, outputs: list,
            segment: segment, defaultJobs: AvailableCores.count)
        request.configFiles = configFiles
        return request
    }

    private func report(_ summary: RenderSummary, started: Date) {
        guard !outputs.reporting.quiet else { return }
        if let missed = options.loudnessWarning(summary.loudness) { printWarnings([missed]) }
        let wall = Date().timeIntervalSince(started)
        let seconds = summary.durationSeconds
        if outputs.reporting.progress == .json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let line = RenderSummaryLine(summary: summary, wallSeconds: wall)
            print(String(decoding: (try? encoder.encode(line)) ?? Data("{}".utf8), as: UTF8.self))
        } else {
            var loudness = ""
            if let measured = summary.loudness {
                loudness =
                    measured.measuredLUFS.isFinite
                    ? String(
                        format: "; sound %.1f LUFS, %+.1f dB%@ to %.1f LUFS, %.1f dBTP", measured.measuredLUFS, measured.gainDB,
                        measured.limiterThresholdDB != nil ? " and limited" : "", measured.resultLUFS, measured.resultTruePeakDBTP)
                    : Self.unmeasured(measured, seconds: seconds)
            }
            // A GIF above 50 fps keeps every n-th frame (`GIFSink`).
            var kept = ""
            if let videoPath, VideoContainer(outputPath: videoPath) == .gif, let gif = GIFSink.keptRate(of: options.fps) {
                kept = " (the GIF keeps one frame in \(gif.every): \(gif.rate.text) fps)"
            }
            say(
                String(
                    format: "midiviz: %@: %@, %d frame%@ at %@ fps%@, in %.1f s (%.2fx real time)%@",
                    summary.outputs.joined(separator: ", "), SongClock.text(seconds), summary.frames, summary.frames == 1 ? "" : "s",
                    options.fps.description, kept, wall, seconds / max(wall, 1e-9), loudness
                ))
        }
    }
}

/// The last line of `--progress json`: what was made, how long it is, how fast, and the sound's
/// loudness (figures to 0.01; null where not finite, as for silence).
struct RenderSummaryLine: Encodable {
    let summary: RenderSummary
    let wallSeconds: Double

    enum CodingKeys: String, CodingKey {
        case done, outputs, durationSeconds = "duration_s", frames, wallSeconds = "wall_s", realtime = "realtime_x"
        case measuredLUFS = "loudness_measured_lufs", truePeak = "true_peak_dbtp", gain = "gain_db", limited
        case resultLUFS = "loudness_lufs", resultTruePeak = "loudness_true_peak_dbtp"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        func hundredths(_ value: Double, _ key: CodingKeys) throws {
            if value.isFinite { try container.encode((value * 100).rounded() / 100, forKey: key) } else { try container.encodeNil(forKey: key) }
        }
        try container.encode(true, forKey: .done)
        try container.encode(summary.outputs, forKey: .outputs)
        try container.encode((summary.durationSeconds * 1e9).rounded() / 1e9, forKey: .durationSeconds)
        try container.encode(summary.frames, forKey: .frames)
        try container.encode((wallSeconds * 1000).rounded() / 1000, forKey: .wallSeconds)
        try hundredths(summary.durationSeconds / max(wallSeconds, 1e-9), .realtime)
        guard let loudness = summary.loudness else { return }
        try hundredths(loudness.measuredLUFS, .measuredLUFS)
        try hundredths(loudness.truePeakDBTP, .truePeak)
        try hundredths(loudness.gainDB, .gain)
        try container.encode(loudness.limiterThresholdDB != nil, forKey: .limited)
        try hundredths(loudness.resultLUFS, .resultLUFS)
        try hundredths(loudness.resultTruePeakDBTP, .resultTruePeak)
    }
}

extension RenderRun {
    /// Why a sound has no loudness: EBU R128 measures in 0.4-s blocks and gates out blocks under
    /// -70 LUFS.
    static func unmeasured(_ measured: LoudnessMeasurement, seconds: Double) -> String {
        if seconds < 0.4 { return "; sound too short to measure its loudness (under 0.4 s), left as it is" }
        if measured.truePeakDBTP.isFinite { return "; sound too quiet to measure its loudness (under -70 LUFS), left as it is" }
        return "; sound silent, left as it is"
    }
}
