/// Source-over blending of a straight colour into the canvas, on packed pixels: red and blue
/// are blended together in one 32-bit multiply, green and alpha in another (eight pixels at
/// once: in 16-bit lanes). The canvas holds premultiplied colour: on an opaque canvas alpha
/// stays 255 (the bytes are those of plain blending); on a transparent one (alpha 0) it
/// accumulates as the "over" operator does.
extension Canvas {
    /// A colour prepared for blending: packed channels and its alpha as a weight in 0...256.
    @usableFromInline
    struct Ink {
        /// Red and blue at bits 0–7 and 16–23.
        @usableFromInline let redBlue: UInt32
        /// Green at bits 0–7 and an opaque alpha (255) at bits 16–23.
        @usableFromInline let greenAlpha: UInt32
        /// The colour as an opaque pixel.
        @usableFromInline let opaque: UInt32
        /// The colour's own alpha as a weight, 0...256.
        @usableFromInline let weight: UInt32

        @usableFromInline @inline(__always)
        init(_ color: RGBA) {
            let packed = color.withAlpha(1).pixel
            redBlue = packed & 0x00FF_00FF
            greenAlpha = (packed >> 8) & 0x00FF_00FF
            opaque = packed
            weight = RGBA.rounded(color.a * 256, upTo: 256)
        }

        /// `Ink(top.mixed(with: bottom, amount))`, its four channels in one vector: a gradient
        /// makes one for every row it fills. The same arithmetic lane by lane; whole numbers
        /// are found with 2²³ as in `Canvas.wholes`.
        @usableFromInline @inline(__always)
        init(mixing top: RGBA, with bottom: RGBA, _ amount: Float) {
            let start = SIMD4<Float>(top.r, top.g, top.b, top.a), end = SIMD4<Float>(bottom.r, bottom.g, bottom.b, bottom.a)
            let limits = SIMD4<Float>(255, 255, 255, 256)
            let scaled = (start + (end - start) * amount) * limits
            // Not below the limit (NaN too) is the limit, as `min(limit, value)` has it.
            let below = scaled.replacing(with: limits, where: .!(scaled .< limits))
            let clamped = below.replacing(with: 0, where: below .< 0)
            let magic = SIMD4<Float>(repeating: 8_388_608)
            let nearest = (clamped + magic) - magic
            let floor = nearest.replacing(with: nearest - 1, where: nearest .> clamped)
            let whole = unsafeBitCast(floor + magic, to: SIMD4<UInt32>.self) &- magic[0].bitPattern
            let rounded = whole &+ (SIMD4<UInt32>(repeating: 1) & unsafeBitCast((clamped - floor) .>= 0.5, to: SIMD4<UInt32>.self))
            redBlue = rounded[0] | rounded[2] << 16
            greenAlpha = rounded[1] | 255 << 16
            opaque = rounded[0] | rounded[1] << 8 | rounded[2] << 16 | 255 << 24
            weight = rounded[3]
        }

        /// The weight for a coverage in 0...1.
        @inlinable @inline(__always)
        func weight(_ coverage: Float) -> UInt32 {
            // Through Int32: no range traps (0...256 fits), the same truncation.
            UInt32(bitPattern: Int32(max(0, min(256, Float(weight) * coverage + 0.5))))
        }
    }

    /// Blends `ink` over `pixel` with `weight` in 0...256 (256 replaces the pixel).
    @inlinable @inline(__always)
    static func blend(_ pixel: UInt32, _ ink: Ink, _ weight: UInt32) -> UInt32 {
        let keep = 256 &- weight
        let redBlue = ((pixel & 0x00FF_00FF) &* keep &+ ink.redBlue &* weight) >> 8
        let greenAlpha = ((pixel >> 8) & 0x00FF_00FF) &* keep &+ ink.greenAlpha &* weight
        return (redBlue & 0x00FF_00FF) | (greenAlpha & 0xFF00_FF00)
    }

    /// Blends `ink` with one weight over pixels `start..<end` of a row, eight pixels at a time.
    @inlinable @inline(__always)
    static func blendSpan(_ row: UnsafeMutablePointer<UInt32>, from start: Int, to end: Int, _ ink: Ink, _ weight: UInt32) {
        guard end > start, weight > 0 else { return }
        if weight >= 256 {
            row.advanced(by: start).update(repeating: ink.opaque, count: end - start)
            return
        }
        let weights = SIMD8<UInt32>(repeating: weight)
        var x = start
        while x + 8 <= end {
            blend8(row.advanced(by: x), ink, weights)
            x += 8
        }
        for tail in x..<end { row[tail] = blend(row[tail], ink, weight) }
    }

    /// Blends `ink` over eight pixels with eight weights in 0...256: `blend` on each, in 16-bit
    /// lanes. A channel times the rest (256 − weight), plus the ink's times the weight, is at
    /// most 255 × 256 and fits 16 bits: the same sums as in 32 bits, with one 16-bit multiply
    /// each (SSE2 has no 32-bit one).
    @inlinable @inline(__always)
    static func blend8(_ pixels: UnsafeMutablePointer<UInt32>, _ ink: Ink, _ weights: SIMD8<UInt32>) {
        let raw = UnsafeMutableRawPointer(pixels)
        let current = raw.loadUnaligned(as: SIMD8<UInt32>.self)
        // Each pixel's weight in both of its 16-bit halves.
        let weights16 = unsafeBitCast(weights | weights &<< 16, to: SIMD16<UInt16>.self)
        let keep16 = SIMD16<UInt16>(repeating: 256) &- weights16
        let redBlue16 = unsafeBitCast(current & 0x00FF_00FF, to: SIMD16<UInt16>.self)
        let greenAlpha16 = unsafeBitCast((current &>> 8) & 0x00FF_00FF, to: SIMD16<UInt16>.self)
        let inkRedBlue = unsafeBitCast(SIMD8<UInt32>(repeating: ink.redBlue), to: SIMD16<UInt16>.self)
        let inkGreenAlpha = unsafeBitCast(SIMD8<UInt32>(repeating: ink.greenAlpha), to: SIMD16<UInt16>.self)
        let redBlue = unsafeBitCast((redBlue16 &* keep16 &+ inkRedBlue &* weights16) &>> 8, to: SIMD8<UInt32>.self)
        let greenAlpha = unsafeBitCast(greenAlpha16 &* keep16 &+ inkGreenAlpha &* weights16, to: SIMD8<UInt32>.self)
        let result = redBlue | (greenAlpha & 0xFF00_FF00)
        raw.storeBytes(of: result, as: SIMD8<UInt32>.self)
    }

    /// The glow's inner loop: weight = (rowTerm − dx² · inverseSquared)² · scale, eight at a time,
    /// blended into `row` and, with the same weights, into row `also` if there is one.
    @inlinable
    static func blendGlowRun(
        _ row: UnsafeMutablePointer<UInt32>, also other: UnsafeMutablePointer<UInt32>? = nil, from start: Int, to end: Int, firstDX: Float,
        rowTerm: Float, inverseSquared: Float, scale: Float, _ ink: Ink
    ) {
        guard end > start else { return }
        // dx is computed from the run's start for every pixel, never accumulated, in the eight
        // lanes and in the tail alike.
        let lanes = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7)
        let rowTerms = SIMD8<Float>(repeating: rowTerm), inverses = SIMD8<Float>(repeating: inverseSquared)
        let scales = SIMD8<Float>(repeating: scale)
        var x = start
        while x + 8 <= end {
            let dx = SIMD8<Float>(repeating: firstDX) + (SIMD8<Float>(repeating: Float(x - start)) + lanes)
            let unclamped = rowTerms - dx * dx * inverses
            let falloff = unclamped.replacing(with: 0, where: unclamped .< 0)
            let weights = wholes(falloff * falloff * scales)
            blend8(row.advanced(by: x), ink, weights)
            if let other { blend8(other.advanced(by: x), ink, weights) }
            x += 8
        }
        for tail in x..<end {
            let dx = firstDX + Float(tail - start)
            let falloff = max(0, rowTerm - dx * dx * inverseSquared)
            let weight = whole(falloff * falloff * scale)
            row[tail] = blend(row[tail], ink, weight)
            if let other { other[tail] = blend(other[tail], ink, weight) }
        }
    }

    /// A weight in 0...256 truncated to a whole number, through Int32: no range traps.
    @inlinable @inline(__always)
    static func whole(_ weight: Float) -> UInt32 { UInt32(bitPattern: Int32(weight)) }

    /// `whole` of eight weights in 0...256 at once, in float lanes (a conversion lane by lane
    /// checks each for traps). Adding 2²³ rounds a weight to the nearest whole number, which is
    /// one too many when above it; the whole number is then the low bits of 2²³ plus it.
    @inlinable @inline(__always)
    static func wholes(_ weights: SIMD8<Float>) -> SIMD8<UInt32> {
        let magic = SIMD8<Float>(repeating: 8_388_608)
        let nearest = (weights + magic) - magic
        let floor = nearest.replacing(with: nearest - 1, where: nearest .> weights)
        return unsafeBitCast(floor + magic, to: SIMD8<UInt32>.self) &- magic[0].bitPattern
    }
}
