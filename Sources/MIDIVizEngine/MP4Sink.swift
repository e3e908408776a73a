import MIDIVizCore
import MIDIVizIO

/// H.264 (x264) + AAC in an MP4 with `+faststart`, through one ffmpeg child reading yuv420p on
/// its stdin and the sound from a WAV; tagged BT.709 limited range.
public final class MP4Sink: FrameSink {
    private let ffmpeg: FFmpegProcess
    public var order: FrameOrder { .inOrder }

    /// Where ffmpeg reads the sound.
    public enum Audio: Sendable {
        /// A finished WAV file.
        case wav(path: String)
        /// A FIFO carrying 16-bit stereo PCM as it is made.
        case pcmFIFO(path: String, sampleRate: Int)
    }

    /// Starts ffmpeg writing `path`.
    public init(path: String, ffmpeg executable: String, settings: RenderSettings, audio: Audio?,
                crf: Int, preset: String, stallTimeoutSeconds: Double) throws(RenderError) {
        let tags = ["-color_range", "tv", "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709"]
        var arguments = ["-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "\(settings.width)x\(settings.height)",
                         "-framerate", String(settings.framesPerSecond)] + tags + ["-i", "pipe:0"]
        switch audio {
        case .wav(let path): arguments += ["-i", path]
        case .pcmFIFO(let path, let rate): arguments += ["-f", "s16le", "-ar", String(rate), "-ac", "2", "-i", path]
        case nil: break
        }
        arguments += ["-map", "0:v"] + (audio != nil ? ["-map", "1:a"] : [])
        arguments += ["-c:v", "libx264", "-preset", preset, "-crf", String(crf), "-pix_fmt", "yuv420p"] + tags
        if audio != nil { arguments += ["-c:a", "aac", "-b:a", "192k"] }
        arguments += ["-movflags", "+faststart", "-f", "mp4", path]
        do {
            ffmpeg = try FFmpegProcess(executable: executable, arguments: arguments, stallTimeoutSeconds: stallTimeoutSeconds)
        } catch {
            throw RenderError(error)
        }
    }

    public func write(yuv420p: UnsafeRawBufferPointer, frame: Int) throws(RenderError) {
        do { try ffmpeg.write(yuv420p) } catch { throw RenderError(error) }
    }

    public func finish() throws(RenderError) {
        do { try ffmpeg.finish() } catch { throw RenderError(error) }
    }

    public func stop() { ffmpeg.stop() }

    /// Whether ffmpeg is still running.
    public var isEncoding: Bool { ffmpeg.isRunning }
}
