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
    /// those columns moved, and the canvas is read only in `changed`. With `laid`
    /// (`FrameRenderer.laidLayer(of:)`), its rows are made from its layer and backdrop instead
    /// of read from the canvas, which does not hold them.
    package mutating func update(from canvas: Canvas, changed: ChangedTiles, moved: ColumnMove? = nil, laid: LaidLayer? = nil) {
        precondition(canvas.width % 2 == 0 && canvas.height % 2 == 0, "4:2:0 needs even sizes")
        precondition(changed.width == canvas.width && changed.height == canvas.height, "tiles of another canvas")
        let needed = YUV420.byteCount(width: canvas.width, height: canvas.height)
        let width = canvas.width, height = canvas.height
        let laidRows = laid?.rows ?? []
        if bytes.count != needed {
            precondition(moved == nil, "a moved frame without the one before it")
            bytes = [UInt8](repeating: 0, count: needed)
            convert(canvas, x0: 0, y0: 0, x1: width, y1: height, leaving: laidRows)
        } else {
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
            changed.forEachRectangle { x0, y0, x1, y1 in convert(canvas, x0: x0, y0: y0, x1: x1, y1: y1, leaving: laidRows) }
        }
        guard let laid else { return }
        precondition(laid.layer.width == width && laid.backdrop.width == width && laid.backdrop.height == height, "a layer of another size")
        if scratch.count != 2 * width { scratch = [UInt32](repeating: 0, count: 2 * width) }
        laid.layer.pixels.withUnsafeBufferPointer { layer in
            laid.backdrop.pixels.withUnsafeBufferPointer { backdrop in
                scratch.withUnsafeMutableBufferPointer { scratch in
                    bytes.withUnsafeMutableBufferPointer { out in
                        for rows in laid.rows {
                            precondition(rows.lowerBound % 2 == 0 && rows.upperBound % 2 == 0 && rows.upperBound <= height, "laid rows in pairs")
                            precondition(laid.layerTop >= 0 && laid.layerTop + rows.upperBound <= laid.layer.height, "rows beyond the layer")
                            midiviz_layer_over_to_yuv420_rows(
                                layer.baseAddress!, Int32(laid.layerTop), backdrop.baseAddress!, Int32(width), Int32(height),
                                Int32(rows.lowerBound), Int32(rows.upperBound), scratch.baseAddress!, out.baseAddress!)
                        }
                    }
                }
            }
        }
    }

    /// Two rows of composed pixels, for `update`'s laid rows.
    private var scratch: [UInt32] = []

    /// Converts the rectangle (even bounds) of `canvas`, but for the rows `leaving` (in order).
    private mutating func convert(_ canvas: Canvas, x0: Int, y0: Int, x1: Int, y1: Int, leaving laid: [Range<Int>]) {
        canvas.pixels.withUnsafeBufferPointer { pixels in
            bytes.withUnsafeMutableBufferPointer { out in
                func convert(rows: Range<Int>) {
                    guard !rows.isEmpty else { return }
                    midiviz_rgba_to_yuv420_region(
                        pixels.baseAddress!, Int32(canvas.width), Int32(canvas.height), Int32(x0), Int32(rows.lowerBound), Int32(x1),
                        Int32(rows.upperBound), out.baseAddress!)
                }
                var row = y0
                for rows in laid where row < y1 {
                    let end = min(max(rows.lowerBound, row), y1)
                    convert(rows: row..<end)
                    row = max(row, rows.upperBound)
                }
                if row < y1 { convert(rows: row..<y1) }
            }
        }
    }
}
