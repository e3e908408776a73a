import Foundation
import MIDIVizCore
import MIDIVizIO

/// `--background-image`: a picture (PNG, JPEG, or any ffmpeg recognises by its content: WebP,
/// GIF, BMP…) scaled to cover the frame (Lanczos, cropped to the middle), then darkened, decoded
/// once by one ffmpeg child. midiviz reads the file itself and gives ffmpeg its bytes on stdin,
/// so no name is taken for a protocol (`http:x.png`) or a pattern (`%d`), and a file that is not
/// a whole picture is refused with its cause before any work.
package enum BackgroundPicture {
    /// The largest picture file, and the most pixels a PNG may have, that are read.
    static let largestFileBytes = 256 << 20
    static let mostPixels = 100_000_000

    /// - Parameter dim: 0 keeps the picture as it is, 1 makes it black.
    package static func load(_ path: String, width: Int, height: Int, dim: Double) throws(RenderError) -> BackgroundImage {
        let bytes: [UInt8]
        do {
            bytes = try RegularFile.contents(of: path, limit: largestFileBytes)
        } catch .unreadable(let reason) {
            throw .missingInput("cannot read background image \(path): \(reason)")
        } catch {
            throw .badInput("cannot use background image \(path): larger than \(largestFileBytes >> 20) MiB")
        }
        guard !bytes.isEmpty else { throw .badInput("cannot use background image \(path): it is empty") }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
            let problem = PNGReader.problem(inPNG: bytes, maximumPixels: mostPixels)
        {
            throw .badInput("cannot use background image \(path): a broken PNG (\(problem))")
        }
        if isTruncatedJPEG(bytes) { throw .badInput("cannot use background image \(path): a truncated JPEG (its last scan has no end)") }
        let ffmpeg: String
        do { ffmpeg = try FFmpegProcess.locate() } catch { throw RenderError(error) }
        let arguments = [
            "-nostdin", "-loglevel", "error", "-protocol_whitelist", "pipe", "-i", "pipe:0", "-frames:v", "1",
            "-vf", "scale=\(width):\(height):force_original_aspect_ratio=increase:flags=lanczos,crop=\(width):\(height),format=rgba",
            "-f", "rawvideo", "pipe:1",
        ]
        let child: ChildProcess
        do {
            child = try ChildProcess(executable: ffmpeg, arguments: arguments, inputBytes: bytes, readsOutput: true)
        } catch {
            throw .failed("cannot start ffmpeg: \(error)")
        }
        let termination = child.waitForExit()
        guard termination == .exited(0), let image = BackgroundImage(width: width, height: height, rgba: [UInt8](child.standardOutput)) else {
            let complaint = child.lastErrorLines(20).first.map(Self.cause)
            throw .badInput("cannot use background image \(path): not a picture ffmpeg can read" + (complaint.map { " (\($0))" } ?? ""))
        }
        return image.dimmed(by: dim)
    }

    /// A JPEG (`FF D8 FF`) whose last scan (`FF DA`) is not followed by its end (`FF D9`): cut
    /// short. ffmpeg would decode it in part, grey below the cut. The end of the entropy-coded
    /// data cannot hide in it: a `FF` there is followed by `00` or a restart marker.
    static func isTruncatedJPEG(_ bytes: [UInt8]) -> Bool {
        guard bytes.starts(with: [0xFF, 0xD8, 0xFF]) else { return false }
        var lastScan: Int?, endAfterScan = false
        for index in bytes.indices.dropLast() where bytes[index] == 0xFF {
            switch bytes[index + 1] {
            case 0xDA: lastScan = index; endAfterScan = false
            case 0xD9 where lastScan != nil: endAfterScan = true
            default: break
            }
        }
        return lastScan == nil || !endAfterScan
    }

    /// An ffmpeg error line without what names our pipe or ffmpeg's internals:
    /// `[mjpeg @ 0x55d…] overread 8` is `mjpeg: overread 8`, `pipe:0: Invalid data…` is `Invalid data…`.
    static func cause(_ line: String) -> String {
        var text = Substring(line)
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            let source = text[text.index(after: text.startIndex)..<close].split(separator: " @ ").first ?? ""
            text = text[text.index(after: close)...].drop { $0 == " " }
            if !source.isEmpty { return "\(source): \(text)" }
        }
        if text.hasPrefix("pipe:0: ") { text = text.dropFirst("pipe:0: ".count) }
        return String(text)
    }
}
