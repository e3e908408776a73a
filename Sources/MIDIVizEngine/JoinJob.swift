import Foundation
import MIDIVizCore
import MIDIVizIO
import Synchronization

/// Segments of one song (`RenderRequest.segment`), rendered anywhere, joined into the video of
/// the whole song: their H.264 streams concatenated without re-encoding, in the order of their
/// shares, with the song's sound bounced once, whole. The result has the frame count of the song
/// rendered in one piece. Each part says what it is (`SegmentIdentity`); parts that do not make
/// the song with these options, exactly once each, are refused, naming the part and the cause.
package struct JoinRequest: Sendable {
    /// The segments' MP4s, in any order.
    package var parts: [String]
    package var song: Song
    package var songPath: String?
    package var songName: String
    /// The look the segments were rendered with (its speed sets the visual tail); the frame rate
    /// is taken from the parts.
    package var settings: RenderSettings
    package var sound: SoundSettings
    /// `RenderOptions.segmentOptionsDigest` of the options the parts must have been made with.
    package var optionsSHA256: String
    package var output: String
    /// The segments' `--preroll` (nil: the style's lead-in, as a whole-song render has) and
    /// `--postroll`.
    package var prerollSeconds: Double?
    package var postrollSeconds: Double = 0

    package init(
        parts: [String], song: Song, songPath: String?, songName: String, settings: RenderSettings,
        sound: SoundSettings, optionsSHA256: String, output: String
    ) {
        self.parts = parts
        self.song = song
        self.songPath = songPath
        self.songName = songName
        self.settings = settings
        self.sound = sound
        self.optionsSHA256 = optionsSHA256
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
        // The parts' H.264 is copied: into an MP4 only (a WebM or MOV would need it re-encoded).
        guard VideoContainer(outputPath: request.output) == .mp4 else { throw .joinContainer(path: request.output) }
        var inputs = request.parts.map { (path: $0, what: "part \($0)") }
        if let song = request.songPath { inputs.append((song, "input song")) }
        if let soundFont = request.sound.soundFontPath { inputs.append((soundFont, "SoundFont")) }
        try OutputChecks.check([.mp4(path: request.output, crf: 0, preset: "")], inputs: inputs)
    }

    /// Joins; on any failure the temporaries go and an old output stays as it was.
    package func run() throws(RenderError) -> RenderSummary {
        do {
            return try perform()
        } catch {
            let names = transaction.names
            transaction.discard()
            throw state.withLock { $0.stopped } ? RenderError.interrupted(signal: nil) : error.naming(names)
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

        // The parts: each a whole segment of this song and these options, each share once, in order.
        let parts = try orderedParts(ffprobe: ffprobe)
        let partFrames = parts.map(\.identity.frames)
        let frames = partFrames.reduce(0, +)
        let rate = request.settings.frameRate

        // The whole song's sound, padded to the frames of the song rendered whole.
        let wav = try transaction.scratch(beside: request.output, suffix: "wav")
        var soundRequest = RenderRequest(
            song: request.song, songPath: request.songPath, songName: request.songName, settings: request.settings,
            fontPath: FontRasterizer.defaultFontPath, sound: request.sound, outputs: [.wav(path: wav)], jobs: 1)
        soundRequest.prerollSeconds = request.prerollSeconds ?? request.settings.leadInSeconds
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
        let expected = Int(rate.frames(in: sound.durationSeconds).rounded())
        guard expected == frames else {
            throw .badInput(
                "the parts hold \(frames) frames, \(request.songName) makes \(expected) at \(rate.description) fps: render every segment, and join, with the same song and options"
            )
        }

        // The parts one after another, copied, with the sound. Each part's length is given
        // (frames / fps): from the container's own, the timestamps drift at each join. ffmpeg's
        // list is read line by line: a path holding a newline cannot be in it, so the list names
        // links to the parts, beside it in a folder of their own (`part-1.mp4`, ...).
        let folder = try transaction.scratchFolder(beside: request.output, suffix: "parts")
        var lines: [String] = []
        for (number, (part, count)) in zip(parts.map(\.path), partFrames).enumerated() {
            let link = "part-\(number + 1).mp4"
            do {
                try FileManager.default.createSymbolicLink(atPath: folder + "/" + link, withDestinationPath: OutputChecks.absolute(part))
            } catch {
                throw .cannotCreate("cannot link to \(part) in a temporary folder beside \(request.output): \(error.localizedDescription)")
            }
            lines.append("file '\(link)'\n" + String(format: "duration %.6f\n", rate.seconds(ofFrame: count)))
        }
        let list = folder + "/parts.txt"
        guard FileManager.default.createFile(atPath: list, contents: Data(lines.joined().utf8)) else {
            throw .cannotCreate("cannot write a list of the parts in a temporary folder beside \(request.output)")
        }
        let video = try transaction.stage(.mp4(path: request.output, crf: 0, preset: ""))
        _ = try Self.run(
            ffmpeg,
            [
                "-nostdin", "-loglevel", "error", "-y", "-f", "concat", "-safe", "0", "-protocol_whitelist", "file", "-i", FFmpegProcess.file(list),
                "-i", FFmpegProcess.file(wav), "-map", "0:v", "-map", "1:a", "-map_metadata", "-1", "-c:v", "copy", "-c:a", "aac", "-b:a", "192k",
                "-movflags", "+faststart", "-f", "mp4", FFmpegProcess.file(video),
            ],
            failure: { .failed("ffmpeg could not join the parts: \($0)") },
            started: { process in
                state.withLock { $0.encoder = process }
            })
        try transaction.commit()
        return RenderSummary(outputs: [request.output], frames: frames, durationSeconds: rate.seconds(ofFrame: frames))
    }

    /// A part and what it says it is.
    private struct Part {
        var path: String
        var identity: SegmentIdentity
    }

    /// What ffprobe says of a part: its video stream (decoded: the frames counted) and its tags.
    private struct Probe: Decodable {
        struct Stream: Decodable {
            var codecName: String?
            var readFrames: String?
            var width: Int?
            var height: Int?
            var pixelFormat: String?
            enum CodingKeys: String, CodingKey {
                case codecName = "codec_name", readFrames = "nb_read_frames", width, height, pixelFormat = "pix_fmt"
            }
        }
        struct Format: Decodable { var tags: [String: String]? }
        var streams: [Stream]?
        var format: Format?
    }

    /// Every part read and checked, in the order of their shares: a readable H.264 MP4 whose
    /// frames all decode and are as many as it says, a segment of this song (by its bytes) and
    /// these options, of one count, encoding and version; each share exactly once, every share
    /// there, each starting where the one before ends.
    private func orderedParts(ffprobe: String) throws(RenderError) -> [Part] {
        guard let song = SegmentIdentity.songDigest(path: request.songPath, name: request.songName) else {
            throw .missingInput("cannot read \(request.songName)")
        }
        var parts: [Part] = []
        var byIndex: [Int: String] = [:]
        for path in request.parts {
            let identity = try Self.identity(
                of: path, ffprobe: ffprobe, picture: "\(request.settings.width)x\(request.settings.height) yuv420p")
            guard identity.songSHA256 == song else { throw .badPart(path: path, problem: .otherSong(song: request.songName)) }
            guard identity.optionsSHA256 == request.optionsSHA256 else { throw .badPart(path: path, problem: .otherOptions) }
            if let first = parts.first {
                guard identity.count == first.identity.count else {
                    throw .badPart(
                        path: path,
                        problem: .otherCount(index: identity.index, count: identity.count, than: first.path, thanCount: first.identity.count))
                }
                guard identity.version == first.identity.version else {
                    throw .badPart(path: path, problem: .otherVersion(version: identity.version, than: first.path, thanVersion: first.identity.version))
                }
                guard identity.encoding == first.identity.encoding else { throw .badPart(path: path, problem: .otherEncoding(than: first.path)) }
            }
            if let other = byIndex[identity.index] {
                let same = URL(fileURLWithPath: other).standardizedFileURL == URL(fileURLWithPath: path).standardizedFileURL
                throw .badPart(path: path, problem: .duplicate(of: same ? path : other, index: identity.index, count: identity.count))
            }
            byIndex[identity.index] = path
            parts.append(Part(path: path, identity: identity))
        }
        let count = parts[0].identity.count
        let missing = (1...count).filter { byIndex[$0] == nil }
        guard missing.isEmpty else { throw .missingParts(indices: missing, count: count) }
        parts.sort { $0.identity.index < $1.identity.index }
        var next = 0
        for part in parts {
            guard part.identity.firstFrame == next else {
                throw .badPart(path: part.path, problem: .gap(firstFrame: part.identity.firstFrame, expectedFirstFrame: next))
            }
            next += part.identity.frames
        }
        return parts
    }

    /// What the part at `path` says it is, once its video has been decoded whole: refused when
    /// it is missing, unreadable, damaged, not a segment, not as long as it says, or its frames
    /// are not `picture` (`WxH pixel-format`).
    private static func identity(of path: String, ffprobe: String, picture: String) throws(RenderError) -> SegmentIdentity {
        if let problem = RegularFile.problem(at: path) { throw .missingInput("cannot read \(path): \(problem)") }
        let child: ChildProcess
        do {
            child = try ChildProcess(
                executable: ffprobe,
                arguments: [
                    "-v", "error", "-select_streams", "v:0", "-count_frames", "-show_entries",
                    "stream=codec_name,nb_read_frames,width,height,pix_fmt:format_tags", "-of", "json", FFmpegProcess.file(path),
                ],
                readsOutput: true)
        } catch {
            throw .failed("cannot start \(ffprobe)")
        }
        let termination = child.waitForExit()
        let complaint = child.lastErrorLines(1).first.map { FFmpegProcess.line($0, aboutFile: path) }
        guard termination == .exited(0) else {
            throw .badPart(path: path, problem: .unreadable(reason: complaint ?? termination.map { "\($0)" } ?? "no exit"))
        }
        guard let probe = try? JSONDecoder().decode(Probe.self, from: child.standardOutput), let stream = probe.streams?.first,
            stream.codecName == "h264", let frames = stream.readFrames.flatMap({ Int($0) })
        else { throw .badPart(path: path, problem: .unreadable(reason: "no H.264 video")) }
        // The decoder complains of a damaged picture, though ffprobe exits 0.
        if let complaint { throw .badPart(path: path, problem: .damaged(reason: complaint)) }
        guard let text = probe.format?.tags?[SegmentIdentity.metadataKey], let identity = SegmentIdentity(metadataText: text) else {
            throw .badPart(path: path, problem: .notASegment)
        }
        guard frames == identity.frames else { throw .badPart(path: path, problem: .wrongFrameCount(frames: frames, expected: identity.frames)) }
        let found = "\(stream.width ?? 0)x\(stream.height ?? 0) \(stream.pixelFormat ?? "unknown")"
        guard found == picture else { throw .badPart(path: path, problem: .otherPicture(picture: found, expected: picture)) }
        return identity
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
