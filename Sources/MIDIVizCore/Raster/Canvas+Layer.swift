/// A transparent layer that moves, laid over a backdrop: the keyboard's falling notes in a
/// dense song (`ScrollArea.Motion.down`).
extension Canvas {
    /// Moves the pixels of `rows` down by `shift` (up when negative), in every column; the rows
    /// uncovered at the end keep what they held.
    package mutating func moveRows(_ rows: Range<Int>, down shift: Int) {
        let count = rows.count - abs(shift)
        guard shift != 0, count > 0 else { return }
        let from = shift > 0 ? rows.lowerBound : rows.lowerBound - shift
        let to = shift > 0 ? rows.lowerBound + shift : rows.lowerBound
        let width = self.width
        pixels.withUnsafeMutableBufferPointer { buffer in
            // `update(from:count:)` copies overlapping memory as memmove does.
            buffer.baseAddress!.advanced(by: to * width).update(from: buffer.baseAddress!.advanced(by: from * width), count: count * width)
        }
    }

    /// Makes `columns` × `rows` fully transparent.
    package mutating func clear(columns: Range<Int>, rows: Range<Int>) {
        let width = self.width
        pixels.withUnsafeMutableBufferPointer { buffer in
            for y in rows { buffer.baseAddress!.advanced(by: y * width + columns.lowerBound).update(repeating: 0, count: columns.count) }
        }
    }

    /// Replaces rows `rows` with `layer` (premultiplied) laid over `backdrop`, and every other
    /// row with the backdrop's: "over" with each channel rounded to the nearest level, where
    /// the layer is transparent the backdrop's pixel and where it is opaque the layer's.
    package mutating func compose(_ layer: Canvas, over backdrop: Canvas, in rows: Range<Int>) {
        compose(layer, over: backdrop, in: rows) { _ in 0..<0 }
    }

    /// `compose(_:over:in:)` where, in each row `y`, the backdrop is one colour across
    /// `evenColumns(y)`: that colour is used there instead of reading the backdrop's pixels.
    mutating func compose(_ layer: Canvas, over backdrop: Canvas, in rows: Range<Int>, evenColumns: (Int) -> Range<Int>) {
        precondition(layer.width == width && layer.height == height && backdrop.width == width && backdrop.height == height, "canvas sizes differ")
        let width = self.width, height = self.height
        let rows = rows.clamped(to: 0..<height)
        pixels.withUnsafeMutableBufferPointer { target in
            backdrop.pixels.withUnsafeBufferPointer { below in
                layer.pixels.withUnsafeBufferPointer { above in
                    let target = target.baseAddress!, below = below.baseAddress!, above = above.baseAddress!
                    target.update(from: below, count: rows.lowerBound * width)
                    let end = rows.upperBound * width
                    target.advanced(by: end).update(from: below.advanced(by: end), count: (height - rows.upperBound) * width)
                    for y in rows {
                        let row = y * width
                        let even = evenColumns(y).clamped(to: 0..<width)
                        // The layer's row copied first (a plain copy streams from memory faster
                        // than a loop reads it), then laid over the backdrop where it is not
                        // opaque, read back while it is in the cache.
                        let to = target.advanced(by: row), bottom = below.advanced(by: row)
                        to.update(from: above.advanced(by: row), count: width)
                        guard !even.isEmpty else {
                            Self.layRow(to, over: bottom, 0..<width)
                            continue
                        }
                        Self.layRow(to, over: bottom, 0..<even.lowerBound)
                        Self.layRow(to, over: bottom[even.lowerBound], even)
                        Self.layRow(to, over: bottom, even.upperBound..<width)
                    }
                }
            }
        }
    }

    /// Lays `columns` of a row holding the layer's pixels over the backdrop's row `below`. Eight
    /// pixels at a time: left as they are where the layer is all opaque, the backdrop's where
    /// it is all transparent.
    @inline(__always)
    private static func layRow(_ row: UnsafeMutablePointer<UInt32>, over below: UnsafePointer<UInt32>, _ columns: Range<Int>) {
        var x = columns.lowerBound
        while x + 8 <= columns.upperBound {
            let top = UnsafeRawPointer(row.advanced(by: x)).loadUnaligned(as: SIMD8<UInt32>.self)
            let alphas = alphasAreAll(top)
            if !alphas.opaque {
                let bottom = UnsafeRawPointer(below.advanced(by: x)).loadUnaligned(as: SIMD8<UInt32>.self)
                let pixels = alphas.transparent ? bottom : over8(top, bottom)
                UnsafeMutableRawPointer(row.advanced(by: x)).storeBytes(of: pixels, as: SIMD8<UInt32>.self)
            }
            x += 8
        }
        while x < columns.upperBound {
            row[x] = over(row[x], below[x])
            x += 1
        }
    }

    /// `layRow` where the backdrop's row is `color` across `columns`: no backdrop read.
    @inline(__always)
    private static func layRow(_ row: UnsafeMutablePointer<UInt32>, over color: UInt32, _ columns: Range<Int>) {
        let bottom = SIMD8<UInt32>(repeating: color)
        var x = columns.lowerBound
        while x + 8 <= columns.upperBound {
            let top = UnsafeRawPointer(row.advanced(by: x)).loadUnaligned(as: SIMD8<UInt32>.self)
            let alphas = alphasAreAll(top)
            if !alphas.opaque {
                UnsafeMutableRawPointer(row.advanced(by: x)).storeBytes(of: alphas.transparent ? bottom : over8(top, bottom), as: SIMD8<UInt32>.self)
            }
            x += 8
        }
        while x < columns.upperBound {
            row[x] = over(row[x], color)
            x += 1
        }
    }

    /// Whether eight pixels' alphas are all 0 or all 255, folded in halves (`==` on eight
    /// lanes compiles to a loop over them, through memory): every alpha is 0 when their bits
    /// ORed are, and 255 when ANDed.
    @inline(__always)
    static func alphasAreAll(_ pixels: SIMD8<UInt32>) -> (transparent: Bool, opaque: Bool) {
        let any4 = pixels.lowHalf | pixels.highHalf, every4 = pixels.lowHalf & pixels.highHalf
        let any2 = any4.lowHalf | any4.highHalf, every2 = every4.lowHalf & every4.highHalf
        return ((any2.x | any2.y) >> 24 == 0, (every2.x & every2.y) >> 24 == 255)
    }

    /// `over` of eight pixels at once, in 16-bit lanes: x × keep + 128 is at most 65,153 and
    /// adding its high byte stays below 65,536. Alpha 0 (keep 255) gives the bottom pixel and
    /// alpha 255 (keep 0) the top one, as `over` does.
    @inline(__always)
    static func over8(_ top: SIMD8<UInt32>, _ bottom: SIMD8<UInt32>) -> SIMD8<UInt32> {
        let keep = SIMD8<UInt32>(repeating: 255) &- (top &>> 24)
        let keep16 = unsafeBitCast(keep | keep &<< 16, to: SIMD16<UInt16>.self)
        let half = SIMD16<UInt16>(repeating: 128)
        @inline(__always) func scaled(_ pairs: SIMD8<UInt32>) -> SIMD8<UInt32> {
            let product = unsafeBitCast(pairs, to: SIMD16<UInt16>.self) &* keep16 &+ half
            return unsafeBitCast((product &+ (product &>> 8)) &>> 8, to: SIMD8<UInt32>.self)
        }
        let redBlue = scaled(bottom & 0x00FF_00FF), greenAlpha = scaled((bottom &>> 8) & 0x00FF_00FF)
        return top &+ (redBlue | greenAlpha &<< 8)
    }

    /// Premultiplied `top` over `bottom`: each channel of the bottom times what the top's alpha
    /// leaves, 255 − alpha, over 255 (rounded), plus the top's.
    @inline(__always)
    static func over(_ top: UInt32, _ bottom: UInt32) -> UInt32 {
        let alpha = top >> 24
        if alpha == 0 { return bottom }
        if alpha == 255 { return top }
        let keep = 255 - alpha
        /// x × keep / 255, rounded, for x in 0...255, on the red-blue or green-alpha pair.
        func scaled(_ pair: UInt32) -> UInt32 {
            let product = pair &* keep &+ 0x0080_0080
            return ((product &+ ((product >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
        }
        let redBlue = scaled(bottom & 0x00FF_00FF), greenAlpha = scaled((bottom >> 8) & 0x00FF_00FF)
        return top &+ (redBlue | greenAlpha << 8)
    }
}
