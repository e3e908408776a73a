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
    /// the layer is transparent the backdrop's pixel and where it is opaque the layer's. The
    /// layer may be taller: its row `layerTop + y` lies over row `y`.
    package mutating func compose(_ layer: Canvas, from layerTop: Int = 0, over backdrop: Canvas, in rows: Range<Int>) {
        compose(layer, from: layerTop, over: backdrop, in: rows) { _ in [] }
    }

    /// `compose(_:from:over:in:)` where, in each row `y`, the backdrop is one colour across each
    /// of `evenRuns(y)` (in order, apart): those colours are used there instead of reading the
    /// backdrop's pixels. The rows of `laid` (in order, apart) are left as they are.
    mutating func compose(
        _ layer: Canvas, from layerTop: Int, over backdrop: Canvas, in rows: Range<Int>, leaving laid: [Range<Int>] = [],
        evenRuns: (Int) -> ArraySlice<EvenRun>
    ) {
        precondition(layer.width == width && backdrop.width == width && backdrop.height == height, "canvas sizes differ")
        let width = self.width, height = self.height
        let rows = rows.clamped(to: 0..<height)
        precondition(rows.isEmpty || (layerTop + rows.lowerBound >= 0 && layerTop + rows.upperBound <= layer.height), "rows beyond the layer")
        pixels.withUnsafeMutableBufferPointer { target in
            backdrop.pixels.withUnsafeBufferPointer { below in
                layer.pixels.withUnsafeBufferPointer { above in
                    let target = target.baseAddress!, below = below.baseAddress!, above = above.baseAddress!
                    target.update(from: below, count: rows.lowerBound * width)
                    let end = rows.upperBound * width
                    target.advanced(by: end).update(from: below.advanced(by: end), count: (height - rows.upperBound) * width)
                    var nextLaid = 0
                    for y in rows {
                        while nextLaid < laid.count, laid[nextLaid].upperBound <= y { nextLaid += 1 }
                        if nextLaid < laid.count, laid[nextLaid].contains(y) { continue }
                        let row = y * width
                        let from = above.advanced(by: row + layerTop * width), to = target.advanced(by: row), bottom = below.advanced(by: row)
                        var x = 0
                        for run in evenRuns(y) {
                            let columns = run.columns.clamped(to: x..<width)
                            guard !columns.isEmpty else { continue }
                            Self.lay(from, into: to, over: bottom, x..<columns.lowerBound)
                            Self.lay(from, into: to, over: run.color, columns)
                            x = columns.upperBound
                        }
                        Self.lay(from, into: to, over: bottom, x..<width)
                    }
                }
            }
        }
    }

    /// Columns of a backdrop's row that are one colour.
    struct EvenRun: Sendable, Equatable {
        var columns: Range<Int>
        var color: UInt32
    }

    /// Writes `columns` of the layer's row `from` laid over the backdrop's row `below` into the
    /// row `to`, eight pixels at a time (`layEight`); the backdrop is read only where the layer
    /// is not opaque.
    @inline(__always)
    private static func lay(
        _ from: UnsafePointer<UInt32>, into to: UnsafeMutablePointer<UInt32>, over below: UnsafePointer<UInt32>, _ columns: Range<Int>
    ) {
        var x = columns.lowerBound
        while x + 8 <= columns.upperBound {
            let top = UnsafeRawPointer(from.advanced(by: x)).loadUnaligned(as: SIMD8<UInt32>.self)
            let pixels =
                allOpaque(top) ? top : layEight(top, over: UnsafeRawPointer(below.advanced(by: x)).loadUnaligned(as: SIMD8<UInt32>.self))
            UnsafeMutableRawPointer(to.advanced(by: x)).storeBytes(of: pixels, as: SIMD8<UInt32>.self)
            x += 8
        }
        while x < columns.upperBound {
            to[x] = over(from[x], below[x])
            x += 1
        }
    }

    /// `lay` where the backdrop's row is `color` across `columns`: no backdrop read, and no
    /// branch on what the layer holds but for pixels neither opaque nor empty.
    @inline(__always)
    private static func lay(_ from: UnsafePointer<UInt32>, into to: UnsafeMutablePointer<UInt32>, over color: UInt32, _ columns: Range<Int>) {
        let bottom = SIMD8<UInt32>(repeating: color)
        var x = columns.lowerBound
        while x + 8 <= columns.upperBound {
            let top = UnsafeRawPointer(from.advanced(by: x)).loadUnaligned(as: SIMD8<UInt32>.self)
            UnsafeMutableRawPointer(to.advanced(by: x)).storeBytes(of: layEight(top, over: bottom), as: SIMD8<UInt32>.self)
            x += 8
        }
        while x < columns.upperBound {
            to[x] = over(from[x], color)
            x += 1
        }
    }

    /// Eight of the layer's pixels over eight of the backdrop's, as `over` lays each. Where
    /// every pixel is opaque or empty (all its bits 0), as a dense keyboard's notes are nearly
    /// everywhere, a select: the backdrop's pixel where the layer's is empty. Otherwise the
    /// backdrop's where all are transparent, and `over8`.
    @inline(__always)
    static func layEight(_ top: SIMD8<UInt32>, over bottom: SIMD8<UInt32>) -> SIMD8<UInt32> {
        let none = SIMD8<UInt32>(repeating: 0)
        let empty = none.replacing(with: .max, where: top .== none)
        let either = empty | none.replacing(with: .max, where: top .>= SIMD8<UInt32>(repeating: 0xFF00_0000))
        let either4 = either.lowHalf & either.highHalf, either2 = either4.lowHalf & either4.highHalf
        if either2.x & either2.y == .max { return top | (bottom & empty) }
        return alphasAreAll(top).transparent ? bottom : over8(top, bottom)
    }

    /// Whether eight pixels' alphas are all 255.
    @inline(__always)
    static func allOpaque(_ pixels: SIMD8<UInt32>) -> Bool {
        let every4 = pixels.lowHalf & pixels.highHalf, every2 = every4.lowHalf & every4.highHalf
        return (every2.x & every2.y) >> 24 == 255
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
