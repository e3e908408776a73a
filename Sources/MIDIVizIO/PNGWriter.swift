import CPNGShim
import Foundation
import MIDIVizCore

/// Writes canvases as PNG files through libpng (8-bit RGB, or RGBA with straight alpha for a
/// transparent canvas; zlib `level`, Up filter).
package struct PNGWriter: Sendable {
    package var level: Int
    /// Keep the canvas's alpha (a transparent background).
    package var alpha: Bool

    package init(level: Int = 1, alpha: Bool = false) {
        self.level = level
        self.alpha = alpha
    }

    package struct WriteError: Error, CustomStringConvertible {
        package var path: String
        package var reason: String
        package var description: String { "cannot write \(path): \(reason)" }
    }

    /// The corresponding C function is `midiviz_png_write_rgba` (our shim over libpng).
    package func write(_ canvas: Canvas, to path: String) throws(WriteError) {
        var message = [CChar](repeating: 0, count: 256)
        let status = canvas.withRGBABytes { bytes in
            let write = alpha ? midiviz_png_write_premultiplied_rgba : midiviz_png_write_rgba
            return write(
                path, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self),
                UInt32(canvas.width), UInt32(canvas.height), Int32(level), &message, message.count)
        }
        if status != 0 {
            throw WriteError(path: path, reason: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
    }
}
