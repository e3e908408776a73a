import Foundation
import MIDIVizCore
import MIDIVizIO

/// `--background-video`: a clip behind the notes, scaled to cover the frame (Lanczos, cropped
/// to the middle), darkened by `--background-dim`, looped (or, `--background-video-end hold`,
/// held on its last frame). Clip frame k is shown behind the
/// whole render's frame k (frame 0 being the first of a whole-song render, its lead-in
/// included), at the render's frame rate: a range, a segment or a poster starts at the clip frame
/// a whole render would show there (decoding and dropping those before it), so their frames
/// match. The clip is decoded by ffmpeg as a stream, one pass at a time, a few frames ahead of
/// the frames being drawn (`BackgroundVideoFrames`), never whole.
public struct BackgroundVideo: Sendable, Equatable {
    public let path: String
    /// 0 keeps the clip as it is, 1 makes it black.
    public let dim: Double
    /// The clip's length in seconds, as ffprobe reads it.
    public let durationSeconds: Double
    /// After its last frame: start again, or keep showing that frame.
    public let end: BackgroundVideoEnd

    /// Checks that `path` is a video ffmpeg can read (before any work) and reads its length.
    package static func probe(_ path: String, dim: Double, end: BackgroundVideoEnd = .loop) throws(RenderError) -> BackgroundVideo {
        // A FIFO or a device would keep ffprobe (and the render) waiting for ever.
        if let problem = RegularFile.problem(at: path) { throw .missingInput("cannot read background video \(path): \(problem)") }
        guard FileManager.default.isReadableFile(atPath: path) else { throw .missingInput("cannot read background video \(path): permission denied") }
        let ffmpeg: String
        do { ffmpeg = try FFmpegProcess.locate() } catch { throw RenderError(error) }
        let ffprobe = URL(fileURLWithPath: ffmpeg).deletingLastPathComponent().appendingPathComponent("ffprobe").path
        let arguments = [
            "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=codec_type,duration:format=duration", "-of", "default=noprint_wrappers=1",
            FFmpegProcess.file(path),
        ]
        let child: ChildProcess
        do {
            child = try ChildProcess(executable: ffprobe, arguments: arguments, readsOutput: true)
        } catch {
            throw .failed("cannot start ffprobe (beside ffmpeg, \(ffprobe)): \(error)")
        }
        let termination = child.waitForExit()
        let lines = String(decoding: child.standardOutput, as: UTF8.self).split(separator: "\n")
        // The video stream's length where the container gives it (a longer sound track does not
        // count), else the container's.
        let duration = lines.lazy.filter { $0.hasPrefix("duration=") }.compactMap { Double($0.dropFirst("duration=".count)) }.first
        guard termination == .exited(0), lines.contains("codec_type=video"), let duration, duration.isFinite, duration > 0 else {
            let complaint = child.lastErrorLines(5).first.map(BackgroundPicture.cause)
            throw .badInput("cannot use background video \(path): not a video ffmpeg can read" + (complaint.map { " (\($0))" } ?? ""))
        }
        return BackgroundVideo(path: path, dim: dim, durationSeconds: duration, end: end)
    }

    /// The clip's frames at `settings`' frame rate (at least one). ffprobe gives the length to
    /// the microsecond: a thousandth of a frame short is a whole frame (299 frames at 29.97 last
    /// 9.976633 s, 298.99999 frames).
    func frameCount(settings: RenderSettings) -> Int {
        max(1, Int((settings.frameRate.frames(in: durationSeconds) + 1e-3).rounded(.down)))
    }

    /// The clip frame behind the song's frame `songFrame`: counted from the first frame of a
    /// whole-song render, looped or held on the last.
    func clipFrame(ofSongFrame songFrame: Int, settings: RenderSettings) -> Int {
        let first = settings.frameIndex(atSeconds: -settings.leadInSeconds)
        let count = frameCount(settings: settings)
        switch end {
        case .loop: return ((songFrame - first) % count + count) % count
        case .hold: return max(0, min(songFrame - first, count - 1))
        }
    }

    /// ffmpeg's arguments: one pass of the clip at the render's size and rate, its frames
    /// `clipFrame..<clipFrame + frames`. The frames before are decoded and dropped (`trim`
    /// after `fps`), not sought by time: a seek lands on a keyframe or a frame early, and a
    /// looped input (`-stream_loop`) starts each loop again at the seek. A clip whose last
    /// frames do not decode (its length rounded up) ends on copies of its last one (`tpad`).
    /// Each pass is exact, so a range, a segment and a poster show the frames a whole render
    /// shows.
    func ffmpegArguments(from clipFrame: Int, settings: RenderSettings, frames: Int) -> [String] {
        let (width, height, rate) = (settings.width, settings.height, settings.frameRate)
        return [
            "-nostdin", "-loglevel", "error", "-i", FFmpegProcess.file(path), "-an", "-sn",
            "-vf",
            "fps=\(rate.text),tpad=stop_mode=clone:stop=-1,trim=start_frame=\(clipFrame),scale=\(width):\(height):force_original_aspect_ratio=increase:flags=lanczos,crop=\(width):\(height),format=rgba",
            "-frames:v", String(max(1, frames)), "-f", "rawvideo", "pipe:1",
        ]
    }

    /// The clip's frame behind the song's frame at `seconds` (a poster), as a picture.
    package func picture(atSeconds seconds: Double, settings: RenderSettings) throws(RenderError) -> BackgroundImage {
        let ffmpeg: String
        do { ffmpeg = try FFmpegProcess.locate() } catch { throw RenderError(error) }
        let clipFrame = clipFrame(ofSongFrame: settings.frameIndex(atSeconds: seconds), settings: settings)
        let child: ChildProcess
        do {
            child = try ChildProcess(executable: ffmpeg, arguments: ffmpegArguments(from: clipFrame, settings: settings, frames: 1), readsOutput: true)
        } catch {
            throw .failed("cannot start ffmpeg: \(error)")
        }
        guard child.waitForExit() == .exited(0),
            let image = BackgroundImage(width: settings.width, height: settings.height, rgba: [UInt8](child.standardOutput))
        else {
            throw .badInput("cannot use background video \(path): ffmpeg decoded no frame" + (child.lastErrorLines(3).first.map { " (\($0))" } ?? ""))
        }
        return image.dimmed(by: dim)
    }
}

/// The frames of a background video for one render, decoded by ffmpeg as a stream: frame k of
/// the render (0 the render's first) is `frame(k)`, asked for once, by any worker, in about
/// increasing order. One ffmpeg child decodes one pass of the clip (`ffmpegArguments`): the
/// first from the clip frame the render starts on, each next one, when the clip loops, from its
/// first frame.
/// Decoding stays at most `ahead` frames ahead of the frames taken, so memory is a few frames
/// whatever the clip's or the song's length.
/// `@unchecked Sendable`: every field is under `condition`.
final class BackgroundVideoFrames: @unchecked Sendable {
    private let condition = NSCondition()
    private let frameBytes: Int
    private let width: Int, height: Int
    /// How much of each channel stays: (1 - dim) × 256.
    private let keep: UInt32
    private let ahead: Int
    private var pending = Data()
    private var frames: [Int: [UInt32]] = [:]
    private var decoded = 0
    /// The last frame decoded, kept when the clip is held on it.
    private var last: [UInt32]?
    private let holds: Bool
    private var ended = false
    private var child: ChildProcess?
    private let video: BackgroundVideo
    private let settings: RenderSettings
    private let ffmpeg: String

    /// How long a frame may take to come before the run fails (`--stall-timeout`), and how much
    /// longer the first may take.
    private let stallTimeoutSeconds: Double
    private let firstFrameAllowance: Double

    init(video: BackgroundVideo, settings: RenderSettings, firstSongFrame: Int, ahead: Int, stallTimeoutSeconds: Double) throws(RenderError) {
        self.stallTimeoutSeconds = stallTimeoutSeconds
        (width, height, holds) = (settings.width, settings.height, video.end == .hold)
        (self.video, self.settings) = (video, settings)
        keep = BackgroundImage.keep(dimmedBy: video.dim)
        frameBytes = settings.width * settings.height * 4
        self.ahead = max(2, ahead)
        do { ffmpeg = try FFmpegProcess.locate() } catch { throw RenderError(error) }
        let first = video.clipFrame(ofSongFrame: firstSongFrame, settings: settings)
        // The first frame comes after the clip's frames before it are decoded and dropped: 1/20 s
        // each is allowed on top of the stall timeout (a 4K clip decodes faster than that).
        firstFrameAllowance = Double(first) / 20
        let child = try startPass(from: first)
        Thread.detachNewThread { [weak self] in self?.decodePasses(firstChild: child) }
    }

    /// Starts ffmpeg on the clip's frames from `clipFrame` to its end.
    private func startPass(from clipFrame: Int) throws(RenderError) -> ChildProcess {
        let arguments = video.ffmpegArguments(from: clipFrame, settings: settings, frames: video.frameCount(settings: settings) - clipFrame)
        do {
            let child = try ChildProcess(executable: ffmpeg, arguments: arguments) { [weak self] chunk in self?.receive(chunk) }
            // Stopped meanwhile (between two passes): this one stops at once.
            let stopped = condition.withLock {
                if !ended { self.child = child }
                return ended
            }
            if stopped { child.stop() }
            return child
        } catch {
            throw .failed("cannot start ffmpeg: \(error)")
        }
    }

    /// Waits for each pass to end; starts the next while the clip loops and the render goes on.
    /// A pass that fails (ffmpeg gone, or no frame) ends the frames: `frame(_:)` says why.
    private func decodePasses(firstChild: ChildProcess) {
        var child = firstChild
        while true {
            let succeeded = child.waitForExit() == .exited(0)
            condition.lock()
            let again = succeeded && !holds && !ended && decoded > passStart
            passStart = decoded
            pending.removeAll()
            condition.unlock()
            guard again, let next = try? startPass(from: 0) else { break }
            child = next
        }
        end()
    }

    /// The render frame the current pass started at.
    private var passStart = 0

    /// Takes what ffmpeg wrote: whole frames are kept (dimmed); nothing once stopped.
    private func receive(_ chunk: Data) {
        condition.lock()
        defer { condition.unlock() }
        guard !ended else { return }
        pending.append(chunk)
        while pending.count >= frameBytes {
            let pixels = Self.pixels(pending, count: width * height, keep: keep)
            pending.removeFirst(frameBytes)
            store(pixels)
        }
    }

    /// Keeps the next frame; waits while `ahead` are waiting. Called with `condition` locked.
    private func store(_ pixels: [UInt32]) {
        frames[decoded] = pixels
        if holds { last = pixels }
        decoded += 1
        condition.broadcast()
        while frames.count >= ahead && !ended { condition.wait() }
    }

    /// The first `count` RGBA pixels of `bytes`, opaque, each channel times `keep` / 256: one
    /// pass, as `BackgroundImage(width:height:rgba:)` then `dimmed(by:)` would make them.
    private static func pixels(_ bytes: Data, count: Int, keep: UInt32) -> [UInt32] {
        [UInt32](unsafeUninitializedCapacity: count) { out, initialized in
            bytes.withUnsafeBytes { raw in
                for index in 0..<count {
                    out[index] = BackgroundImage.opaque(raw.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self), keep: keep)
                }
            }
            initialized = count
        }
    }

    private func end() {
        condition.lock()
        ended = true
        condition.broadcast()
        condition.unlock()
    }

    /// The render's frame `index`; waits for it to be decoded. Each frame is taken once.
    func frame(_ index: Int) throws(RenderError) -> [UInt32] {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: stallTimeoutSeconds + (decoded == 0 ? firstFrameAllowance : 0))
        while frames[index] == nil && !ended {
            if !condition.wait(until: deadline) && frames[index] == nil {
                throw .failed("ffmpeg gave no frame of background video \(video.path) for \(stallTimeoutSeconds.optionText) s")
            }
        }
        // Held: once the clip has ended, its last frame stays.
        if holds, ended, frames[index] == nil, index >= decoded, let last { return last }
        guard let pixels = frames.removeValue(forKey: index), pixels.count == width * height else {
            let complaint = child?.lastErrorLines(3).first
            throw .badInput("cannot use background video \(video.path): ffmpeg stopped decoding it" + (complaint.map { " (\($0))" } ?? ""))
        }
        condition.broadcast()
        return pixels
    }

    /// Stops the decoding (the render is over, or has failed).
    func stop() {
        condition.lock()
        ended = true
        let child = self.child
        condition.broadcast()
        condition.unlock()
        child?.stop()
    }
}

/// What a background video does after its last frame (`--background-video-end`).
public enum BackgroundVideoEnd: String, Sendable, CaseIterable {
    /// Starts again from its first frame.
    case loop
    /// Keeps showing its last frame.
    case hold
}
