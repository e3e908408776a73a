import CYUV
import MIDIVizCore

/// RGBA to planar YUV 4:2:0, BT.709 coefficients, limited ("TV") range: what the encoder takes,
/// so ffmpeg need not convert (its conversion is single-threaded and costs more than the pipe).
/// The corresponding C functions are `midiviz_rgba_to_yuv420{,_region}` (our own, in CYUV).
package enum YUV420 {
    /// Bytes of one frame: Y plane, then U and V at quarter size.
    package static func byteCount(width: Int, height: Int) -> Int { width * height * 3 / 2 }

    /// Fills `output` (resized if needed) with the frame; width and height must be even.
    package static func convert(_ canvas: Canvas, into output: inout [UInt8]) {
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

/// One worker's frames as yuv420p, kept from frame to frame so that only the tiles a frame
/// changed are converted again (a falling-notes frame changes a fifth of the picture or less).
/// Feed it every frame of one `FrameWorkspace`, in the order they were drawn.
package struct YUV420Planes: Sendable {
    /// The last frame, Y then U then V; empty before the first.
    package private(set) var bytes: [UInt8] = []

    package init() {}

    /// Brings the planes up to `canvas`, which differs from the canvas of the last update only
    /// in `changed`; the first update (or one at a new size) converts everything. With `moved`
    /// (`FrameWorkspace.moved`: the canvas was left behind), the frame is the last one with
    /// those columns moved, and the canvas is read only in `changed`.
    package mutating func update(from canvas: Canvas, changed: ChangedTiles, moved: ColumnMove? = nil) {
        precondition(canvas.width % 2 == 0 && canvas.height % 2 == 0, "4:2:0 needs even sizes")
        precondition(changed.width == canvas.width && changed.height == canvas.height, "tiles of another canvas")
        let needed = YUV420.byteCount(width: canvas.width, height: canvas.height)
        guard bytes.count == needed else {
            precondition(moved == nil, "a moved frame without the one before it")
            YUV420.convert(canvas, into: &bytes)
            return
        }
        let width = canvas.width, height = canvas.height
        if let moved {
            let columns = moved.columns, shift = moved.left
            precondition(columns.lowerBound % 2 == 0 && columns.upperBound % 2 == 0 && shift % 2 == 0, "4:2:0 moves by pairs of columns")
            bytes.withUnsafeMutableBufferPointer { out in
                let luma = out.baseAddress!, half = width / 2, quarter = half * (height / 2)
                ColumnMove.move(luma, stride: width, rows: height, columns: columns, left: shift)
                let chroma = (columns.lowerBound / 2)..<(columns.upperBound / 2)
                for plane in [luma.advanced(by: width * height), luma.advanced(by: width * height + quarter)] {
                    ColumnMove.move(plane, stride: half, rows: height / 2, columns: chroma, left: shift / 2)
                }
            }
        }
        canvas.pixels.withUnsafeBufferPointer { pixels in
            bytes.withUnsafeMutableBufferPointer { out in
                changed.forEachRectangle { x0, y0, x1, y1 in
                    midiviz_rgba_to_yuv420_region(
                        pixels.baseAddress!, Int32(canvas.width), Int32(canvas.height),
                        Int32(x0), Int32(y0), Int32(x1), Int32(y1), out.baseAddress!)
                }
            }
        }
    }
}
