import MIDIVizCore
import MIDIVizIO

/// A video file written by one ffmpeg child reading raw frames on its stdin and the sound from a
/// WAV or a FIFO: H.264 + AAC in an MP4 with `+faststart`, ProRes + PCM in a MOV, VP9 + Opus in
/// a WebM. Tagged BT.709 limited range. Opaque H.264 and VP9 take yuv420p; ProRes and anything
/// transparent take straight RGBA, converted by ffmpeg with the BT.709 matrix.
public final class VideoEncoderSink: FrameSink {
    private let ffmpeg: FFmpegProcess
    public let order: FrameOrder

    /// Where ffmpeg reads the sound.
    public enum Audio: Sendable {
        /// A finished WAV file.
        case wav(path: String)
        /// A FIFO carrying 16-bit stereo PCM as it is made.
        case pcmFIFO(path: String, sampleRate: Int)
    }

    /// Starts ffmpeg writing `path` as `container` (not `.gif`: `GIFSink`).
    public init(
        path: String, container: VideoContainer, ffmpeg executable: String, settings: RenderSettings, audio: Audio?,
        crf: Int, preset: String, stallTimeoutSeconds: Double
    ) throws(RenderError) {
        let alpha = settings.transparent
        let takesRGBA = alpha || container == .mov
        order = takesRGBA ? .inOrderRGBA : .inOrder
        let tags = ["-color_range", "tv", "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709"]
        var arguments =
            [
                "-f", "rawvideo", "-pix_fmt", takesRGBA ? "rgba" : "yuv420p", "-s", "\(settings.width)x\(settings.height)",
                "-framerate", String(settings.framesPerSecond),
            ] + (takesRGBA ? [] : tags) + ["-i", "pipe:0"]
        switch audio {
        case .wav(let path): arguments += ["-i", path]
        case .pcmFIFO(let path, let rate): arguments += ["-f", "s16le", "-ar", String(rate), "-ac", "2", "-i", path]
        case nil: break
        }
        arguments += ["-map", "0:v"] + (audio != nil ? ["-map", "1:a"] : [])
        if takesRGBA { arguments += ["-vf", "scale=out_color_matrix=bt709:out_range=tv"] }
        switch container {
        case .mp4, .gif:
            arguments += ["-c:v", "libx264", "-preset", preset, "-crf", String(crf), "-pix_fmt", "yuv420p"] + tags
            if audio != nil { arguments += Self.soundArguments(container) }
            arguments += ["-movflags", "+faststart", "-f", "mp4"]
        case .mov:
            // prores_aw: 4 to 6 times prores_ks's speed at 1080p60 on 2 cores, the same profiles.
            arguments +=
                [
                    "-c:v", "prores_aw", "-profile:v", alpha ? "4" : "3", "-vendor", "apl0",
                    "-pix_fmt", alpha ? "yuva444p10le" : "yuv422p10le",
                ] + tags
            if audio != nil { arguments += Self.soundArguments(container) }
            arguments += ["-f", "mov"]
        case .webm:
            // Good quality at a constant rate factor; realtime speed settings keep 1080p60 usable.
            arguments +=
                [
                    "-c:v", "libvpx-vp9", "-crf", String(min(63, crf + 11)), "-b:v", "0", "-deadline", "realtime",
                    "-cpu-used", "8", "-row-mt", "1", "-pix_fmt", alpha ? "yuva420p" : "yuv420p",
                ] + tags
            if alpha { arguments += ["-auto-alt-ref", "0"] }
            if audio != nil { arguments += Self.soundArguments(container) }
            arguments += ["-f", "webm"]
        }
        arguments.append(path)
        do {
            ffmpeg = try FFmpegProcess(executable: executable, arguments: arguments, stallTimeoutSeconds: stallTimeoutSeconds)
        } catch {
            throw RenderError(error)
        }
    }

    /// The sound's codec in `container`: AAC 192 kb/s, PCM, Opus 160 kb/s.
    static func soundArguments(_ container: VideoContainer) -> [String] {
        switch container {
        case .mp4, .gif: return ["-c:a", "aac", "-b:a", "192k"]
        case .mov: return ["-c:a", "pcm_s16le"]
        case .webm: return ["-c:a", "libopus", "-b:a", "160k"]
        }
    }

    /// Puts a finished video (without sound) and a WAV together into `path`: the video copied,
    /// the sound encoded as `container` carries it. One short ffmpeg run at the end.
    public static func addSound(
        _ wav: String, to video: String, into path: String, container: VideoContainer,
        ffmpeg executable: String, stallTimeoutSeconds: Double
    ) throws(RenderError) {
        var arguments = ["-i", video, "-i", wav, "-map", "0:v", "-map", "1:a", "-c:v", "copy"] + soundArguments(container)
        switch container {
        case .mp4, .gif: arguments += ["-movflags", "+faststart", "-f", "mp4"]
        case .mov: arguments += ["-f", "mov"]
        case .webm: arguments += ["-f", "webm"]
        }
        do {
            let process = try FFmpegProcess(executable: executable, arguments: arguments + [path], stallTimeoutSeconds: stallTimeoutSeconds)
            try process.finish()
        } catch {
            throw RenderError(error)
        }
    }

    public func write(yuv420p: UnsafeRawBufferPointer, frame: Int) throws(RenderError) {
        do { try ffmpeg.write(yuv420p) } catch { throw RenderError(error) }
    }

    public func write(rgba: UnsafeRawBufferPointer, frame: Int) throws(RenderError) {
        do { try ffmpeg.write(rgba) } catch { throw RenderError(error) }
    }

    public func finish() throws(RenderError) {
        do { try ffmpeg.finish() } catch { throw RenderError(error) }
    }

    public func stop() { ffmpeg.stop() }

    /// Whether ffmpeg is still running.
    public var isEncoding: Bool { ffmpeg.isRunning }
}
