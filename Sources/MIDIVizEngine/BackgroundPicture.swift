import Foundation
import MIDIVizCore
import MIDIVizIO

/// `--background-image`: a PNG or JPEG (anything ffmpeg reads) scaled to cover the frame
/// (Lanczos, cropped to the middle), then darkened, decoded once by one ffmpeg child.
package enum BackgroundPicture {
    /// - Parameter dim: 0 keeps the picture as it is, 1 makes it black.
    package static func load(_ path: String, width: Int, height: Int, dim: Double) throws(RenderError) -> BackgroundImage {
        if let problem = RegularFile.problem(at: path) { throw .missingInput("cannot read background image \(path): \(problem)") }
        let ffmpeg: String
        do { ffmpeg = try FFmpegProcess.locate() } catch { throw RenderError(error) }
        let arguments = [
            "-nostdin", "-loglevel", "error", "-i", path, "-frames:v", "1",
            "-vf", "scale=\(width):\(height):force_original_aspect_ratio=increase:flags=lanczos,crop=\(width):\(height),format=rgba",
            "-f", "rawvideo", "pipe:1",
        ]
        let child: ChildProcess
        do { child = try ChildProcess(executable: ffmpeg, arguments: arguments, readsOutput: true) } catch { throw .failed("cannot start ffmpeg: \(error)") }
        let termination = child.waitForExit()
        guard termination == .exited(0), let image = BackgroundImage(width: width, height: height, rgba: [UInt8](child.standardOutput)) else {
            let reason = child.lastErrorLines(1).first ?? "not an image"
            throw .badInput("cannot use background image \(path): \(reason)")
        }
        return image.dimmed(by: dim)
    }
}
