import CYUV
import MIDIVizCore

/// RGBA to planar YUV 4:2:0, BT.709 coefficients, limited ("TV") range: what the encoder takes,
/// so ffmpeg need not convert (its conversion is single-threaded and costs more than the pipe).
/// The corresponding C function is `midiviz_rgba_to_yuv420` (our own, in CYUV).
public enum YUV420 {
    /// Bytes of one frame: Y plane, then U and V at quarter size.
    public static func byteCount(width: Int, height: Int) -> Int { width * height * 3 / 2 }

    /// Fills `output` (resized if needed) with the frame; width and height must be even.
    public static func convert(_ canvas: Canvas, into output: inout [UInt8]) {
        precondition(canvas.width % 2 == 0 && canvas.height % 2 == 0, "4:2:0 needs even sizes")
        let needed = byteCount(width: canvas.width, height: canvas.height)
        if output.count != needed { output = [UInt8](repeating: 0, count: needed) }
        canvas.pixels.withUnsafeBufferPointer { pixels in
            output.withUnsafeMutableBufferPointer { out in
                midiviz_rgba_to_yuv420(pixels.baseAddress!, Int32(canvas.width), Int32(canvas.height), out.baseAddress!)
            }
        }
    }
}
