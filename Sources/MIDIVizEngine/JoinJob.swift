import Foundation
import MIDIVizCore
import MIDIVizIO
import Synchronization

/// Segments of one song (`RenderRequest.segment`), rendered anywhere, joined into the video of
/// the whole song: their H.264 streams concatenated without re-encoding, with the song's sound
/// bounced once, whole. The result has the frame count of the song rendered in one piece.
package struct JoinRequest: Sendable {
    /// The segments' MP4s, in order.
    package var parts: [String]
    package var song: Song
    package var songPath: String?
    package var songName: String
    /// The look the segments were rendered with (its speed sets the visual tail); the frame rate
    /// is taken from the parts.
    package var settings: RenderSettings
    package var sound: SoundSettings
    package var output: String
    /// The segments' `--preroll` (nil: the style's lead-in, as a whole-song render has) and
    /// `--postroll`.
    package var prerollSeconds: Double?
    package var postrollSeconds: Double = 0

    package init(
        parts: [String], song: Song, songPath: String?, songName: String, settings: RenderSettings,
        sound: SoundSettings, output: String
    ) {
        self.parts = parts
        self.song = song
        self.songPath = songPath
        self.songName = songName
        self.settings = settings
        self.sound = sound
        self.output = output
    }
}

package final class JoinJob: Sendable {
    package let request: JoinRequest
    private let transaction = OutputTransaction()
    /// What `stop` shares with the run: whether it was called, and what to stop.
    private struct State {
        var stopped = false
        var soundJob: RenderJob?
        var encoder: ChildProcess?
    }
    private let state = Mutex(State())

    /// Checks the output as `RenderJob` does: not a part, the song or the SoundFont, not a
    /// folder, device or FIFO, in a folder that can be written.
    package init(_ request: JoinRequest) throws(RenderError) {
        self.request = request
        guard !request.parts.isEmpty else { throw .usage("nothing to join: no parts") }
        var inputs = request.parts.map { (path: $0, what: "part") }
        if let song = request.songPath { inputs.append((song, "input song")) }
        if let soundFont = request.sound.soundFontPath { inputs.append((soundFont, "SoundFont")) }
        try OutputChecks.check([.mp4(path: request.output, crf: 0, preset: "")], inputs: inputs)
    }

    /// Joins; on any failure the temporaries go and an old output stays as it was.
    package func run() throws(RenderError) -> RenderSummary {
        do {
            return try perform()
        } catch {
            transaction.discard()
            throw state.withLock { $0.stopped } ? RenderError.interrupted(signal: nil) : error
        }
    }

    /// Stops the sound or the encoder, whichever runs, and removes the temporaries.
    /// - Returns: whether the join had already committed its video (then it stays, complete).
    @discardableResult
    package func stop(signal: Int32) -> Bool {
        let (job, process) = state.withLock { state in
            state.stopped = true
            return (state.soundJob, state.encoder)
        }
        job?.stop(signal: signal)
        process?.stop()
        transaction.discard()
        return transaction.isCommitted
    }

    private func perform() throws(RenderError) -> RenderSummary {
        let ffmpeg: String
        do { ffmpeg = try FFmpegProcess.locate() } catch { throw RenderError(error) }
        let ffprobe = URL(fileURLWithPath: ffmpeg).deletingLastPathComponent().appendingPathComponent("ffprobe").path
        guard FileManager.default.isExecutableFile(atPath: ffprobe) else { throw .unavailable("no ffprobe beside \(ffmpeg)") }

        // The parts: H.264 of one size and frame rate; their frames add up.
        var shape: String?
        var partFrames: [Int] = []
        var fps = 0
        for part in request.parts {
            let fields = try Self.run(
                ffprobe,
                [
                    "-v", "error", "-select_streams", "v:0", "-count_packets", "-show_entries",
                    "stream=codec_name,width,height,r_frame_rate,nb_read_packets", "-of", "csv=p=0", FFmpegProcess.file(part),
                ],
                failure: { .badInput("\(part): not a video midiviz can join (\($0))") }
            )
            .trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").map(String.init)
            guard fields.count == 5, fields[0] == "h264", let count = Int(fields[4]), let rate = Int(fields[3].split(separator: "/").first ?? "")
            else { throw .badInput("\(part): not an H.264 segment of midiviz") }
            let partShape = fields[0...3].joined(separator: ",")
            if let shape, shape != partShape { throw .badInput("\(part): \(partShape) differs from the first part's \(shape)") }
            shape = partShape
            partFrames.append(count)
            fps = rate
        }
        let frames = partFrames.reduce(0, +)

        // The whole song's sound, padded to the frames of the song rendered whole.
        let wav = try transaction.scratch(beside: request.output, suffix: "wav")
        var settings = request.settings
        settings.framesPerSecond = fps
        var soundRequest = RenderRequest(
            song: request.song, songPath: request.songPath, songName: request.songName, settings: settings,
            fontPath: FontRasterizer.defaultFontPath, sound: request.sound, outputs: [.wav(path: wav)], jobs: 1)
        soundRequest.prerollSeconds = request.prerollSeconds ?? settings.leadInSeconds
        // The sound goes to AAC, as a render's into an MP4 does.
        soundRequest.sound?.loudness?.truePeakCeilingDBTP -= VideoContainer.lossyPeakHeadroomDB
        soundRequest.postrollSeconds = request.postrollSeconds
        let job = try RenderJob(soundRequest)
        guard
            state.withLock({ state in
                state.soundJob = job
                return !state.stopped
            })
        else { throw .interrupted(signal: nil) }
        let sound = try job.run()
        let expected = Int((sound.durationSeconds * Double(fps)).rounded())
        guard expected == frames else {
            throw .badInput(
                "the parts hold \(frames) frames, \(request.songName) makes \(expected) at \(fps) fps: render every segment, and join, with the same song and options"
            )
        }

        // The parts one after another, copied, with the sound. Each part's length is given
        // (frames / fps): from the container's own, the timestamps drift at each join.
        let list = try transaction.scratch(beside: request.output, suffix: "txt")
        let lines = zip(request.parts, partFrames).map { part, count in
            "file '" + URL(fileURLWithPath: part).standardizedFileURL.path.replacingOccurrences(of: "'", with: "'\\''") + "'\n"
                + String(format: "duration %.6f\n", Double(count) / Double(fps))
        }
        guard FileManager.default.createFile(atPath: list, contents: Data(lines.joined().utf8)) else {
            throw .cannotCreate("cannot write \(list)")
        }
        let video = try transaction.stage(.mp4(path: request.output, crf: 0, preset: ""))
        _ = try Self.run(
            ffmpeg,
            [
                "-nostdin", "-loglevel", "error", "-y", "-f", "concat", "-safe", "0", "-protocol_whitelist", "file", "-i", FFmpegProcess.file(list), "-i",
                FFmpegProcess.file(wav),
                "-map", "0:v", "-map", "1:a", "-c:v", "copy", "-c:a", "aac", "-b:a", "192k",
                "-movflags", "+faststart", "-f", "mp4", FFmpegProcess.file(video),
            ],
            failure: { .failed("ffmpeg could not join the parts: \($0)") },
            started: { process in
                state.withLock { $0.encoder = process }
            })
        try transaction.commit()
        return RenderSummary(outputs: [request.output], frames: frames, durationSeconds: Double(frames) / Double(fps))
    }

    /// Runs a tool to its end: its output, or `failure` with the last line it printed.
    private static func run(
        _ tool: String, _ arguments: [String], failure: (String) -> RenderError,
        started: (ChildProcess) -> Void = { _ in }
    ) throws(RenderError) -> String {
        let child: ChildProcess
        do { child = try ChildProcess(executable: tool, arguments: arguments, readsOutput: true) } catch { throw failure("cannot start \(tool)") }
        started(child)
        let termination = child.waitForExit()
        guard termination == .exited(0) else {
            let status = termination.map { "\($0)" } ?? "no exit"
            throw failure(child.lastErrorLines(1).first ?? status)
        }
        return String(decoding: child.standardOutput, as: UTF8.self)
    }
}
