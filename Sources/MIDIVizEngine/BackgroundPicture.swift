import Foundation
import MIDIVizCore
import MIDIVizIO

/// `--background-image`: a PNG or JPEG (anything ffmpeg reads) scaled to cover the frame
/// (Lanczos, cropped to the middle), then darkened, decoded once by one ffmpeg child.
public enum BackgroundPicture {
    /// - Parameter dim: 0 keeps the picture as it is, 1 makes it black.
    public static func load(_ path: String, width: Int, height: Int, dim: Double) throws(RenderError) -> BackgroundImage {
        if let problem = RegularFile.problem(at: path) { throw .missingInput("cannot read background image \(path): \(problem)") }
        let ffmpeg: String
        do { ffmpeg = try FFmpegProcess.locate() } catch { throw RenderError(error) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = ["-nostdin", "-loglevel", "error", "-i", path, "-frames:v", "1",
                             "-vf", "scale=\(width):\(height):force_original_aspect_ratio=increase:flags=lanczos,crop=\(width):\(height),format=rgba",
                             "-f", "rawvideo", "pipe:1"]
        let output = Pipe(), errors = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = errors
        do { try process.run() } catch { throw .failed("cannot start ffmpeg: \(error)") }
        // Read both pipes to their ends so that neither blocks ffmpeg.
        let reader = errors.fileHandleForReading, errorsRead = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var message = Data()
        Thread.detachNewThread {
            message = reader.readDataToEndOfFile()
            errorsRead.signal()
        }
        let bytes = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        errorsRead.wait()
        guard process.terminationStatus == 0, let image = BackgroundImage(width: width, height: height, rgba: [UInt8](bytes)) else {
            let reason = String(decoding: message, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? "not an image"
            throw .badInput("cannot use background image \(path): \(reason)")
        }
        return image.dimmed(by: dim)
    }
}
