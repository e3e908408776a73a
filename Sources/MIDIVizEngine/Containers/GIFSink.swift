import Foundation
import MIDIVizCore
import MIDIVizIO
import Synchronization

/// An animated GIF that loops, with one palette made for the whole clip (ffmpeg's palettegen
/// and paletteuse). The palette needs every frame before the first can be written, so the
/// frames first go losslessly (FFV1) into a scratch file, which `finish` reads twice: for the
/// palette, then for the GIF. Memory stays bounded whatever the clip's length. A transparent
/// background keeps one palette entry transparent. GIF delays are in hundredths of a second
/// and browsers slow anything faster than 50 fps: above that, every n-th frame is kept.
package final class GIFSink: FrameSink {
    package var order: FrameOrder { .inOrderRGBA }
    private let intermediate: FFmpegProcess
    private let path: String, scratch: String, palette: String
    private let executable: String
    private let settings: RenderSettings
    private let stallTimeoutSeconds: Double
    /// The ffmpeg running now, and whether `stop` was called.
    private let running = Mutex<(current: FFmpegProcess?, stopped: Bool)>((nil, false))

    /// - Parameters:
    ///   - scratch, palette: temporary files (`.mkv`, `.png`) the caller removes.
    package init(
        path: String, scratch: String, palette: String, ffmpeg executable: String, settings: RenderSettings,
        stallTimeoutSeconds: Double
    ) throws(RenderError) {
        self.path = path
        self.scratch = scratch
        self.palette = palette
        self.executable = executable
        self.settings = settings
        self.stallTimeoutSeconds = stallTimeoutSeconds
        let arguments = [
            "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(settings.width)x\(settings.height)",
            "-framerate", settings.frameRate.text, "-protocol_whitelist", "pipe", "-i", "pipe:0",
            "-c:v", "ffv1", "-pix_fmt", settings.transparent ? "bgra" : "bgr0", "-threads", "2", "-slices", "4",
            "-f", "matroska", FFmpegProcess.file(scratch),
        ]
        do {
            intermediate = try FFmpegProcess(executable: executable, arguments: arguments, stallTimeoutSeconds: stallTimeoutSeconds)
        } catch {
            throw RenderError(error)
        }
        running.withLock { $0.current = intermediate }
    }

    package func write(rgba: UnsafeRawBufferPointer, frame: Int) throws(RenderError) {
        do { try intermediate.write(rgba) } catch { throw RenderError(error) }
    }

    /// Above 50 fps, the GIF's rate: every `every`-th frame kept; nil at 50 fps or less.
    package static func keptRate(of frameRate: FrameRate) -> (every: Int, rate: FrameRate)? {
        let keep = Int((frameRate.perSecond / 50).rounded(.up))
        guard keep > 1, let kept = FrameRate(numerator: frameRate.numerator, denominator: frameRate.denominator * keep) else { return nil }
        return (keep, kept)
    }

    package func finish() throws(RenderError) {
        do { try intermediate.finish() } catch { throw RenderError(error) }
        let rate = Self.keptRate(of: settings.frameRate).map { "fps=\($0.rate.text)," } ?? ""
        let transparent = settings.transparent
        try run([
            "-i", FFmpegProcess.file(scratch), "-vf", "\(rate)palettegen=stats_mode=full" + (transparent ? ":reserve_transparent=1" : ""),
            "-frames:v", "1", "-update", "1", "-c:v", "png", "-f", "image2", FFmpegProcess.file(palette),
        ])
        try run([
            "-i", FFmpegProcess.file(scratch), "-i", FFmpegProcess.file(palette),
            "-lavfi", "[0:v]\(rate)null[v];[v][1:v]paletteuse=dither=sierra2_4a" + (transparent ? ":alpha_threshold=128" : ""),
            "-loop", "0", "-f", "gif", FFmpegProcess.file(path),
        ])
    }

    private func run(_ arguments: [String]) throws(RenderError) {
        let process: FFmpegProcess
        do {
            process = try FFmpegProcess(executable: executable, arguments: arguments, stallTimeoutSeconds: max(stallTimeoutSeconds, 600))
        } catch {
            throw RenderError(error)
        }
        let proceed = running.withLock { running in
            running.current = process
            return !running.stopped
        }
        guard proceed else {
            process.stop()
            throw .interrupted(signal: nil)
        }
        do { try process.finish() } catch { throw RenderError(error) }
    }

    package func stop() {
        let process = running.withLock { running in
            running.stopped = true
            return running.current
        }
        intermediate.stop()
        process?.stop()
    }
}
