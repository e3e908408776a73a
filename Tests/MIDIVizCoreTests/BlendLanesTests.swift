import Testing

@testable import MIDIVizCore

/// The rasterizer's vector paths against the scalar arithmetic they stand for, to the bit.
@Suite(.timeLimit(.minutes(30))) struct BlendLanesTests {
    /// Every weight 0...256 and the floats around each whole number: `wholes` truncates as the
    /// checked conversion does.
    @Test func wholesTruncateAsTheConversionDoes() {
        var values: [Float] = [0, 256, 0.5, 255.5, 255.99998]
        for k in 0...256 {
            values += [Float(k), Float(k).nextUp, Float(k).nextDown, Float(k) + 0.5, (Float(k) + 0.5).nextDown, (Float(k) + 0.5).nextUp]
        }
        var numbers = SeededNumbers(state: 7)
        for _ in 0..<100_000 { values.append(numbers.unit() * 256) }
        values = values.filter { (0...256).contains($0) }
        for start in stride(from: 0, through: values.count - 8, by: 8) {
            let lanes = SIMD8<Float>(values[start..<start + 8])
            let found = Canvas.wholes(lanes)
            for lane in 0..<8 { #expect(found[lane] == Canvas.whole(lanes[lane]), "\(lanes[lane])") }
        }
    }

    /// A gradient's row colour made in one vector equals the one made channel by channel.
    @Test func inkMixedInLanesEqualsTheMixedColoursInk() {
        var numbers = SeededNumbers(state: 11)
        var inks: [(RGBA, RGBA, Float)] = [
            // Not numbers, and beyond any limit: clamped as `RGBA.rounded` clamps them.
            (RGBA(.nan, .infinity, -.infinity, .nan), RGBA(0, 1, 0.5, 1), 0.5),
            (RGBA(.infinity, 0.2, 0.3, .infinity), RGBA(.infinity, 0.2, 0.3, .infinity), 0.5),
            (RGBA(2, -1, 0.5, 1.5), RGBA(-3, 4, 0.5, -0.5), 0),
            (RGBA(2, -1, 0.5, 1.5), RGBA(-3, 4, 0.5, -0.5), 1),
        ]
        for _ in 0..<200_000 {
            let top = RGBA(numbers.unit(), numbers.unit(), numbers.unit(), numbers.unit())
            // Some channels out of range and on the halves, as scaled colours can be.
            let bottom = RGBA(numbers.unit() * 1.2 - 0.1, Float(numbers.below(511)) / 510, numbers.unit(), Float(numbers.below(513)) / 512)
            let amount = numbers.below(4) == 0 ? Float(numbers.below(3)) / 2 : numbers.unit()
            inks.append((top, bottom, amount))
        }
        for (top, bottom, amount) in inks {
            let lanes = Canvas.Ink(mixing: top, with: bottom, amount), reference = Canvas.Ink(top.mixed(with: bottom, amount))
            #expect(lanes.opaque == reference.opaque && lanes.weight == reference.weight, "\(top) \(bottom) \(amount)")
            #expect(lanes.redBlue == reference.redBlue && lanes.greenAlpha == reference.greenAlpha)
        }
    }

    /// Eight pixels blended at once in 16-bit lanes equal `blend` on each, for every weight,
    /// on opaque and on transparent (premultiplied) pixels.
    @Test func blendingEightAtOnceEqualsOneByOne() {
        var numbers = SeededNumbers(state: 3)
        for weight in UInt32(0)...256 {
            for _ in 0..<40 {
                let ink = Canvas.Ink(RGBA(numbers.unit(), numbers.unit(), numbers.unit(), numbers.unit()))
                var pixels: [UInt32] = (0..<8).map { _ in
                    let alpha = numbers.below(3) == 0 ? UInt32(numbers.below(256)) : 255
                    // Premultiplied: no channel above its alpha.
                    func channel() -> UInt32 { UInt32(numbers.below(UInt64(alpha + 1))) }
                    return channel() | channel() << 8 | channel() << 16 | alpha << 24
                }
                var weights = SIMD8<UInt32>(repeating: weight)
                weights[Int(numbers.below(8))] = UInt32(numbers.below(257))
                let expected = (0..<8).map { Canvas.blend(pixels[$0], ink, weights[$0]) }
                pixels.withUnsafeMutableBufferPointer { Canvas.blend8($0.baseAddress!, ink, weights) }
                #expect(pixels == expected)
            }
        }
    }
}
