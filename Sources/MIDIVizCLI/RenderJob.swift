import ArgumentParser
import Foundation
import MIDIVizCore
import MIDIVizIO

/// One run of `render` or `demo`: the sound first (its length sets the video's), then the
/// frames streamed to ffmpeg (and/or written as PNG), muxed with the WAV into the MP4. Outputs
/// appear under their names only when complete; on an error or a signal, temporaries and the
/// ffmpeg child are cleaned up.
struct RenderJob {
    let song: Song
    /// The song's file, for messages.
    let songName: String
    let videoPath: String?
    let look: LookOptions
    let sound: AudioOptions
    let output: OutputOptions

    func run() throws {
        let started = Date()
        signal(SIGPIPE, SIG_IGN)
        guard song.durationSeconds <= output.maxDuration else {
            throw fail("cannot render \(songName): it lasts \(Int(song.durationSeconds)) s, more than --max-duration \(Int(output.maxDuration)) s",
                       code: ExitCodes.dataError)
        }
        let settings = look.settings(for: song)
        let fps = Double(settings.framesPerSecond)
        // The range, in song seconds.
        let start = try resolve(output.from, default: 0, name: "--from")
        // A --to past the song's end (and its tail) is the end, as without --to.
        let songEnd = song.durationSeconds + settings.tailSeconds
        let end: Double? = try output.to.map { try resolve($0, default: 0, name: "--to") }.flatMap { $0 < songEnd ? $0 : nil }
        let visualEnd = end ?? songEnd
        guard visualEnd > start else {
            throw fail("nothing to render: --from \(Self.clock(start)) is not before the end \(Self.clock(visualEnd))", code: ExitCodes.usage)
        }
        /// Frames cover the range (and the sound's tail, when it rings on longer); the WAV is
        /// padded to exactly the frames' length.
        func frameCount(forAudioSeconds audio: Double) -> Int {
            settings.frameCount(seconds: end != nil ? visualEnd - start : max(audio, visualEnd - start))
        }

        let wantsVideo = videoPath != nil || output.rawVideoOut != nil
        let wantsAudio = sound.audio != nil || (wantsVideo && !output.noAudio)
        var soundFont: String?
        if wantsAudio {
            do { soundFont = try SoundFontLocator.locate(explicit: sound.soundfont) } catch { throw fail(error.description, code: error.exitCode) }
        }
        var ffmpeg: String?
        if videoPath != nil {
            do { ffmpeg = try FFmpegProcess.locate() } catch { throw fail(error.description, code: error.exitCode) }
        }
        if let videoPath {
            let folder = URL(fileURLWithPath: videoPath).deletingLastPathComponent().path
            guard access(folder, W_OK) == 0 else {
                throw fail("cannot create \(videoPath): \(String(cString: strerror(errno)))", code: ExitCodes.cannotCreate)
            }
        }
        let fonts = try loadFontsOrExit(look.font, canvasSide: settings.textSide)
        let cleanup = Cleanup()
        let interruption = Interruption { cleanup.run() }
        defer { interruption.cancel() }

        // 1. The sound.
        var wavPath: String?
        var audioSeconds = 0.0
        if let soundFont {
            let path = sound.audio ?? NSTemporaryDirectory() + "midiviz-\(getpid())-\(UUID().uuidString).wav"
            cleanup.add { unlink(path + ".partial-\(getpid())") }
            if sound.audio == nil { cleanup.add { unlink(path) } }
            do {
                let result = try sound.bouncer.bounce(song, soundFont: soundFont, to: path, from: start, until: end) { natural in
                    Double(frameCount(forAudioSeconds: natural)) / fps
                }
                audioSeconds = result.seconds
            } catch {
                interruption.yieldIfInterrupted()
                cleanup.run()
                throw fail(error.description, code: error.exitCode)
            }
            wavPath = path
        }
        let frames = frameCount(forAudioSeconds: audioSeconds)
        guard wantsVideo || output.framesDirectory != nil else {
            report(started: started, frames: 0, seconds: audioSeconds, outputs: [sound.audio!])
            return
        }

        // 2. The frames, to ffmpeg and/or PNG files.
        var staged: StagedDirectory?
        if let directory = output.framesDirectory {
            do { staged = try StagedDirectory(path: directory) } catch {
                interruption.yieldIfInterrupted()
                cleanup.run()
                throw fail(error.description, code: ExitCodes.cannotCreate)
            }
            cleanup.add { staged?.discard() }
        }
        var encoder: FFmpegProcess?
        var rawVideo: UnsafeMutablePointer<FILE>?
        let partialVideo = videoPath.map { Self.partialName(for: $0) }
        if let ffmpeg, let partialVideo {
            do {
                encoder = try FFmpegProcess(executable: ffmpeg, arguments: encoderArguments(settings: settings, audio: wavPath, output: partialVideo))
            } catch {
                interruption.yieldIfInterrupted()
                cleanup.run()
                throw fail(error.description, code: error.exitCode)
            }
            cleanup.add { encoder?.stop(); unlink(partialVideo) }
        } else if let raw = output.rawVideoOut {
            rawVideo = fopen(raw, "wb")
            guard rawVideo != nil else { throw fail("cannot write \(raw): \(String(cString: strerror(errno)))", code: ExitCodes.cannotCreate) }
        }
        let pipeline = VideoPipeline(renderer: FrameRenderer(scene: Scene(song: song, settings: settings), fonts: fonts),
                                     jobs: output.jobs, startSeconds: start, frameCount: frames,
                                     frames: staged.map { ($0, PNGWriter(level: output.pngLevel)) })
        let reporter = ProgressReporter(total: frames, style: output.quiet ? nil : output.progress)
        let sink: (@Sendable (UnsafeRawBufferPointer) throws -> Void)?
        if let encoder {
            sink = { bytes in try encoder.write(bytes) }
        } else if let rawVideo {
            nonisolated(unsafe) let file = rawVideo
            sink = { bytes in _ = fwrite(bytes.baseAddress, 1, bytes.count, file) }
        } else {
            sink = nil
        }
        do {
            try pipeline.run(into: sink) { reporter.update(done: $0) }
            try encoder?.finish()
            if let rawVideo { fclose(rawVideo) }
            try staged?.commit()
            if let videoPath, let partialVideo, rename(partialVideo, videoPath) != 0 {
                throw VideoError.cannotWrite(path: videoPath, reason: String(cString: strerror(errno)))
            }
        } catch {
            interruption.yieldIfInterrupted()
            reporter.finish()
            cleanup.run()
            if let error = error as? VideoError { throw fail(error.description, code: error.exitCode) }
            throw fail(String(describing: error), code: ExitCodes.cannotCreate)
        }
        reporter.finish()
        if sound.audio == nil, let wavPath { unlink(wavPath) }
        let outputs = [videoPath, output.framesDirectory, sound.audio].compactMap { $0 }
        report(started: started, frames: frames, seconds: Double(frames) / fps, outputs: outputs)
    }

    private func resolve(_ spec: TimeSpec?, default value: Double, name: String) throws -> Double {
        guard let spec else { return value }
        guard let seconds = spec.seconds(in: song) else {
            throw fail("\(name) \(spec): \(songName) has no bars to count (SMPTE time division)", code: ExitCodes.usage)
        }
        return seconds
    }

    private func encoderArguments(settings: RenderSettings, audio: String?, output path: String) -> [String] {
        var arguments = ["-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "\(settings.width)x\(settings.height)",
                         "-framerate", String(settings.framesPerSecond),
                         "-color_range", "tv", "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709",
                         "-i", "pipe:0"]
        if let audio { arguments += ["-i", audio] }
        arguments += ["-map", "0:v"] + (audio != nil ? ["-map", "1:a"] : [])
        arguments += ["-c:v", "libx264", "-preset", self.output.preset, "-crf", String(self.output.crf), "-pix_fmt", "yuv420p",
                      "-color_range", "tv", "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709"]
        if audio != nil { arguments += ["-c:a", "aac", "-b:a", "192k"] }
        arguments += ["-movflags", "+faststart", "-f", "mp4", path]
        return arguments
    }

    /// `song.mp4` → `.song.mp4.partial-PID` in the same folder, so the rename is atomic.
    static func partialName(for path: String) -> String {
        let url = URL(fileURLWithPath: path)
        return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).partial-\(getpid())").path
    }

    private func report(started: Date, frames: Int, seconds: Double, outputs: [String]) {
        let wall = Date().timeIntervalSince(started)
        if output.progress == .json && !output.quiet {
            let line = JSONValue.object([("done", .bool(true)), ("outputs", .array(outputs.map(JSONValue.string))),
                                         ("duration_s", .double(seconds)), ("frames", .int(frames)),
                                         ("wall_s", .double((wall * 1000).rounded() / 1000)),
                                         ("realtime_x", .double((seconds / max(wall, 1e-9) * 100).rounded() / 100))])
            print(line.text)
        } else if !output.quiet {
            FileHandle.standardError.write(Data(String(format: "midiviz: %@: %@, %d frames at %d fps, in %.1f s (%.2fx real time)\n",
                                                       outputs.joined(separator: ", "), Self.clock(seconds), frames,
                                                       look.fps, wall, seconds / max(wall, 1e-9)).utf8))
        }
    }

    static func clock(_ seconds: Double) -> String { SongReport.clock(seconds) }
}

/// Cleanup steps to run once, on failure or on a signal.
final class Cleanup: @unchecked Sendable {
    private let lock = NSLock()
    private var steps: [() -> Void] = []

    func add(_ step: @escaping () -> Void) {
        lock.lock(); steps.append(step); lock.unlock()
    }

    /// Runs the steps, newest first; a second caller waits until the first has finished.
    func run() {
        lock.lock()
        defer { lock.unlock() }
        let pending = steps
        steps.removeAll()
        for step in pending.reversed() { step() }
    }
}
