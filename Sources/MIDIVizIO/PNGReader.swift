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

    /// Why `bytes` are not a whole PNG that libpng decodes (truncated, a bad CRC, more than
    /// `maximumPixels`), or nil when they are. The corresponding C functions are
    /// `png_image_begin_read_from_memory` and `png_image_finish_read`.
    package static func problem(inPNG bytes: [UInt8], maximumPixels: Int) -> String? {
        bytes.withUnsafeBytes { buffer -> String? in
            var image = png_image()
            image.version = UInt32(PNG_IMAGE_VERSION)
            guard png_image_begin_read_from_memory(&image, buffer.baseAddress, buffer.count) != 0 else { return message(of: image) }
            defer { png_image_free(&image) }
            let (width, height) = (Int(image.width), Int(image.height))
            guard width.multipliedReportingOverflow(by: height).partialValue <= maximumPixels, width <= maximumPixels, height <= maximumPixels else {
                return "\(width)x\(height) pixels, more than \(maximumPixels / 1_000_000) megapixels"
            }
            image.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            let status = pixels.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, 0, nil) }
            return status != 0 ? nil : message(of: image)
        }
    }

    private static func message(of image: png_image) -> String {
        var text = image.message
        return withUnsafeBytes(of: &text) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
