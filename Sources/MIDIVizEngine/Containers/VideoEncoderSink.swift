import MIDIVizCore
import MIDIVizIO

/// A video file written by one ffmpeg child reading raw frames on its stdin and the sound from a
/// WAV or a FIFO: H.264 + AAC in an MP4 with `+faststart`, ProRes + PCM in a MOV, VP9 + Opus in
/// a WebM. Tagged BT.709 limited range. Opaque H.264 and VP9 take yuv420p; ProRes and anything
/// transparent take straight RGBA, converted by ffmpeg with the BT.709 matrix.
package final class VideoEncoderSink: FrameSink {
    private let ffmpeg: FFmpegProcess
    package let order: FrameOrder
    /// The output as the user named it (ffmpeg may write a temporary file beside it).
    private let name: String

    /// Where ffmpeg reads the sound.
    package enum Audio: Sendable {
        /// A finished WAV file.
        case wav(path: String)
        /// A FIFO carrying 16-bit stereo PCM as it is made.
        case pcmFIFO(path: String, sampleRate: Int)
    }

    /// Starts ffmpeg writing `path` as `container` (not `.gif`: `GIFSink`).
    /// - Parameters:
    ///   - name: the output as the user named it, for the message when ffmpeg fails.
    ///   - metadata: tags for the container (a segment's identity).
    package init(
        path: String, name: String, container: VideoContainer, ffmpeg executable: String, settings: RenderSettings, audio: Audio?,
        crf: Int, preset: String, stallTimeoutSeconds: Double, metadata: [String: String] = [:]
    ) throws(RenderError) {
        guard let encoding = container.encoding else { throw .usage("a \(container.rawValue) is not written by one ffmpeg encoder") }
        self.name = name
        let alpha = settings.transparent
        let takesRGBA = encoding.takesRGBA(alpha: alpha)
        order = takesRGBA ? .inOrderRGBA : .inOrder
        let tags = ["-color_range", "tv", "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709"]
        var arguments =
            [
                "-f", "rawvideo", "-pix_fmt", takesRGBA ? "rgba" : "yuv420p", "-s", "\(settings.width)x\(settings.height)",
                "-framerate", settings.frameRate.text,
            ] + (takesRGBA ? [] : tags) + ["-protocol_whitelist", "pipe", "-i", "pipe:0"]
        switch audio {
        case .wav(let path): arguments += ["-i", FFmpegProcess.file(path)]
        case .pcmFIFO(let path, let rate): arguments += ["-f", "s16le", "-ar", String(rate), "-ac", "2", "-i", FFmpegProcess.file(path)]
        case nil: break
        }
        arguments += ["-map", "0:v"] + (audio != nil ? ["-map", "1:a"] : [])
        // The frames leave the filter tagged too: else ProRes's MOV says "unknown" colours, which
        // an editor may read as BT.601.
        if takesRGBA {
            arguments += ["-vf", "scale=out_color_matrix=bt709:out_range=tv,setparams=color_primaries=bt709:color_trc=bt709:colorspace=bt709:range=tv"]
        }
        arguments += encoding.videoArguments(alpha: alpha, crf: crf, preset: preset, tags: tags)
        if audio != nil { arguments += encoding.soundArguments }
        arguments += metadata.sorted { $0.key < $1.key }.flatMap { ["-metadata", "\($0.key)=\($0.value)"] }
        arguments += encoding.muxerArguments(customTags: !metadata.isEmpty) + [FFmpegProcess.file(path)]
        do {
            ffmpeg = try FFmpegProcess(executable: executable, arguments: arguments, stallTimeoutSeconds: stallTimeoutSeconds)
        } catch {
            throw RenderError(error)
        }
    }

    /// Puts a finished video (without sound) and a WAV together into `path`: the video copied,
    /// the sound encoded as `container` carries it, or copied too when it already is
    /// (`startEncodingSound`). One ffmpeg run at the end, watched by its progress (a long song's sound
    /// takes a while to encode).
    /// - Parameters:
    ///   - progress: the seconds of the video put together so far, as ffmpeg reports them.
    ///   - started: given the ffmpeg once it runs, so that it can be stopped (a signal).
    ///   - encoded: `wav` is the sound already encoded (`startEncodingSound`): copied too.
    ///   - name: the output as the user named it, for the message when ffmpeg fails.
    package static func addSound(
        _ wav: String, to video: String, into path: String, name: String, container: VideoContainer,
        ffmpeg executable: String, stallTimeoutSeconds: Double, encoded: Bool = false, progress: @escaping @Sendable (Double) -> Void = { _ in },
        started: (FFmpegProcess) -> Void = { _ in }
    ) throws(RenderError) {
        guard let encoding = container.encoding else { throw .usage("a \(container.rawValue) holds no sound") }
        let arguments =
            ["-i", FFmpegProcess.file(video), "-i", FFmpegProcess.file(wav), "-map", "0:v", "-map", "1:a"]
            + (encoded ? ["-c", "copy"] : ["-c:v", "copy"] + encoding.soundArguments) + encoding.muxerArguments
        do {
            let process = try FFmpegProcess(
                executable: executable, arguments: arguments + [FFmpegProcess.file(path)], stallTimeoutSeconds: stallTimeoutSeconds,
                onProgress: { report in if let seconds = report.outTimeSeconds { progress(seconds) } })
            started(process)
            try process.finish()
        } catch {
            throw failure(error, writing: name)
        }
    }

    /// Starts encoding a finished WAV alone into `path`, as `container` carries sound, while the
    /// video is still being made (`VideoEncoding.soundAheadFormat`): what `addSound(...,
    /// encoded: true)` copies in at the end, once `finish()` has returned. Nil when `container`
    /// has no such format.
    package static func startEncodingSound(
        _ wav: String, into path: String, container: VideoContainer, ffmpeg executable: String, stallTimeoutSeconds: Double
    ) throws(RenderError) -> FFmpegProcess? {
        guard let encoding = container.encoding, let format = encoding.soundAheadFormat else { return nil }
        do {
            return try FFmpegProcess(
                executable: executable,
                arguments: ["-i", FFmpegProcess.file(wav), "-map", "0:a"] + encoding.soundArguments + ["-f", format, FFmpegProcess.file(path)],
                stallTimeoutSeconds: stallTimeoutSeconds)
        } catch {
            throw RenderError(error)
        }
    }

    package func write(yuv420p: UnsafeRawBufferPointer, frame: Int) throws(RenderError) {
        do { try ffmpeg.write(yuv420p, untilNextWrite: true) } catch { throw failure(error) }
    }

    package func write(rgba: UnsafeRawBufferPointer, frame: Int) throws(RenderError) {
        do { try ffmpeg.write(rgba, untilNextWrite: true) } catch { throw failure(error) }
    }

    package func drain() throws(RenderError) {
        do { try ffmpeg.drain() } catch { throw failure(error) }
    }

    package func finish() throws(RenderError) {
        do { try ffmpeg.finish() } catch { throw failure(error) }
    }

    /// ffmpeg's failure, naming the output it was writing.
    private func failure(_ error: VideoError) -> RenderError { Self.failure(error, writing: name) }

    /// ffmpeg's failure, naming the output `name` it was making.
    package static func failure(_ error: VideoError, writing name: String) -> RenderError {
        guard case .ffmpegFailed = error else { return RenderError(error) }
        return .failed("cannot write \(name): \(error.description)")
    }

    package func stop() { ffmpeg.stop() }

    /// Whether ffmpeg is still running.
    package var isEncoding: Bool { ffmpeg.isRunning }
}
