/// RGBA to planar YUV 4:2:0, BT.709 coefficients, limited ("TV") range: what video encoders
/// take, so ffmpeg need not convert (its conversion is single-threaded and costs more than the
/// pipe). Chroma is the average of each 2×2 block. Width and height must be even.
public enum YUV420 {
    /// Bytes of one frame: Y plane, then U and V at quarter size.
    public static func byteCount(width: Int, height: Int) -> Int { width * height * 3 / 2 }

    /// Fills `output` (resized if needed) with the frame.
    public static func convert(_ canvas: Canvas, into output: inout [UInt8]) {
        let width = canvas.width, height = canvas.height
        precondition(width % 2 == 0 && height % 2 == 0, "4:2:0 needs even sizes")
        let needed = byteCount(width: width, height: height)
        if output.count != needed { output = [UInt8](repeating: 0, count: needed) }
        // Fixed point, ×2^16: Y = 16 + 219·(0.2126 R + 0.7152 G + 0.0722 B)/255, and likewise
        // U, V = 128 + 224·(B′ − Y′)/1.8556/255, (R′ − Y′)/1.5748/255.
        let yR: Int32 = 11_966, yG: Int32 = 40_254, yB: Int32 = 4_064
        let uR: Int32 = -6_596, uG: Int32 = -22_189, uB: Int32 = 28_784
        let vR: Int32 = 28_784, vG: Int32 = -26_145, vB: Int32 = -2_639
        canvas.pixels.withUnsafeBufferPointer { pixels in
            output.withUnsafeMutableBufferPointer { out in
                let lumaPlane = out.baseAddress!
                let uPlane = lumaPlane + width * height
                let vPlane = uPlane + (width / 2) * (height / 2)
                for y in stride(from: 0, to: height, by: 2) {
                    let top = pixels.baseAddress! + y * width, bottom = top + width
                    let lumaTop = lumaPlane + y * width, lumaBottom = lumaTop + width
                    let chromaRow = (y / 2) * (width / 2)
                    for x in stride(from: 0, to: width, by: 2) {
                        var sumR: Int32 = 0, sumG: Int32 = 0, sumB: Int32 = 0
                        @inline(__always) func luma(_ pixel: UInt32) -> UInt8 {
                            let r = Int32(pixel & 0xFF), g = Int32((pixel >> 8) & 0xFF), b = Int32((pixel >> 16) & 0xFF)
                            sumR &+= r; sumG &+= g; sumB &+= b
                            return UInt8(truncatingIfNeeded: (yR &* r &+ yG &* g &+ yB &* b &+ (16 << 16) &+ 32_768) >> 16)
                        }
                        lumaTop[x] = luma(top[x])
                        lumaTop[x + 1] = luma(top[x + 1])
                        lumaBottom[x] = luma(bottom[x])
                        lumaBottom[x + 1] = luma(bottom[x + 1])
                        // Sums of four pixels: divide by 4 inside the shift.
                        uPlane[chromaRow + x / 2] = UInt8(truncatingIfNeeded: (uR &* sumR &+ uG &* sumG &+ uB &* sumB &+ (512 << 16) &+ 131_072) >> 18)
                        vPlane[chromaRow + x / 2] = UInt8(truncatingIfNeeded: (vR &* sumR &+ vG &* sumG &+ vB &* sumB &+ (512 << 16) &+ 131_072) >> 18)
                    }
                }
            }
        }
    }
}
