import CYUV
import MIDIVizCore

/// A canvas's pixels as straight (not premultiplied) RGBA, as encoders with alpha take them.
/// The corresponding C function is `midiviz_unpremultiply` (our own, in CYUV).
package enum StraightRGBA {
    /// Fills `buffer` (grown if needed) with the canvas's pixels, each colour divided by its alpha.
    package static func copy(_ canvas: Canvas, into buffer: inout [UInt32]) {
        if buffer.count != canvas.pixels.count { buffer = [UInt32](repeating: 0, count: canvas.pixels.count) }
        canvas.pixels.withUnsafeBufferPointer { source in
            buffer.withUnsafeMutableBufferPointer { target in
                midiviz_unpremultiply(source.baseAddress!, target.baseAddress!, source.count)
            }
        }
    }
}
