import CPNGShim
import Foundation
import MIDIVizCore

/// Writes canvases as PNG files through libpng (8-bit RGB, zlib `level`, Up filter).
public struct PNGWriter: Sendable {
    public var level: Int

    public init(level: Int = 1) { self.level = level }

    public struct WriteError: Error, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "cannot write \(path): \(reason)" }
    }

    /// The corresponding C function is `midiviz_png_write_rgba` (our shim over libpng).
    public func write(_ canvas: Canvas, to path: String) throws(WriteError) {
        var message = [CChar](repeating: 0, count: 256)
        let status = canvas.withRGBABytes { bytes in
            midiviz_png_write_rgba(path, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                   UInt32(canvas.width), UInt32(canvas.height), Int32(level), &message, message.count)
        }
        if status != 0 {
            throw WriteError(path: path, reason: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
    }
}
