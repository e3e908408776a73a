import CPNG
import MIDIVizCore

/// Reads a PNG into a canvas with libpng's simplified API (which reports errors by return value,
/// not longjmp). Used to check written frames. The corresponding C functions are
/// `png_image_begin_read_from_file` and `png_image_finish_read`.
package enum PNGReader {
    package struct ReadError: Error, CustomStringConvertible {
        package var path: String
        package var reason: String
        package var description: String { "cannot read \(path): \(reason)" }
    }

    package static func read(_ path: String) throws(ReadError) -> Canvas {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        guard png_image_begin_read_from_file(&image, path) != 0 else { throw ReadError(path: path, reason: message(of: image)) }
        image.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)  // PNG_FORMAT_RGBA
        var canvas = Canvas(width: Int(image.width), height: Int(image.height))
        let status = canvas.pixels.withUnsafeMutableBytes { buffer in
            png_image_finish_read(&image, nil, buffer.baseAddress, 0, nil)
        }
        guard status != 0 else { throw ReadError(path: path, reason: message(of: image)) }
        return canvas
    }

    private static func message(of image: png_image) -> String {
        var text = image.message
        return withUnsafeBytes(of: &text) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
