import Testing

@testable import MIDIVizCore

/// The rasterizer's vector paths against the scalar arithmetic they stand for, to the bit.
@Suite(.timeLimit(.minutes(30))) struct BlendLanesTests {
    /// A small generator, the same numbers every run.
    struct Numbers {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 11
        }
        mutating func unit() -> Float { Float(next() % 1_000_001) / 1_000_000 }
    }

    /// Every weight 0...256 and the floats around each whole number: `wholes` truncates as the
    /// checked conversion does.
    @Test func wholesTruncateAsTheConversionDoes() {
        var values: [Float] = [0, 256, 0.5, 255.5, 255.99998]
        for k in 0...256 {
            values += [Float(k), Float(k).nextUp, Float(k).nextDown, Float(k) + 0.5, (Float(k) + 0.5).nextDown, (Float(k) + 0.5).nextUp]
        }
        var numbers = Numbers(state: 7)
        for _ in 0..<100_000 { values.append(numbers.unit() * 256) }
        values = values.filter { (0...256).contains($0) }
        for start in stride(from: 0, to: values.count - 8, by: 8) {
            let lanes = SIMD8<Float>(values[start..<start + 8])
            let found = Canvas.wholes(lanes)
            for lane in 0..<8 { #expect(found[lane] == Canvas.whole(lanes[lane]), "\(lanes[lane])") }
        }
    }

    /// A gradient's row colour made in one vector equals the one made channel by channel.
    @Test func inkMixedInLanesEqualsTheMixedColoursInk() {
        var numbers = Numbers(state: 11)
        var checked = 0
        for _ in 0..<200_000 {
            let top = RGBA(numbers.unit(), numbers.unit(), numbers.unit(), numbers.unit())
            // Some channels out of range and on the halves, as scaled colours can be.
            let bottom = RGBA(numbers.unit() * 1.2 - 0.1, Float(numbers.next() % 511) / 510, numbers.unit(), Float(numbers.next() % 513) / 512)
            let amount = numbers.next() % 4 == 0 ? Float(numbers.next() % 3) / 2 : numbers.unit()
            let lanes = Canvas.Ink(mixing: top, with: bottom, amount), reference = Canvas.Ink(top.mixed(with: bottom, amount))
            #expect(lanes.opaque == reference.opaque && lanes.weight == reference.weight)
            #expect(lanes.redBlue == reference.redBlue && lanes.greenAlpha == reference.greenAlpha)
            checked += 1
        }
        #expect(checked == 200_000)
    }

    /// Eight pixels blended at once in 16-bit lanes equal `blend` on each, for every weight,
    /// on opaque and on transparent (premultiplied) pixels.
    @Test func blendingEightAtOnceEqualsOneByOne() {
        var numbers = Numbers(state: 3)
        for weight in UInt32(0)...256 {
            for _ in 0..<40 {
                let ink = Canvas.Ink(RGBA(numbers.unit(), numbers.unit(), numbers.unit(), numbers.unit()))
                var pixels: [UInt32] = (0..<8).map { _ in
                    let alpha = numbers.next() % 3 == 0 ? UInt32(numbers.next() % 256) : 255
                    // Premultiplied: no channel above its alpha.
                    func channel() -> UInt32 { UInt32(numbers.next() % UInt64(alpha + 1)) }
                    return channel() | channel() << 8 | channel() << 16 | alpha << 24
                }
                var weights = SIMD8<UInt32>(repeating: weight)
                weights[Int(numbers.next() % 8)] = UInt32(numbers.next() % 257)
                let expected = (0..<8).map { Canvas.blend(pixels[$0], ink, weights[$0]) }
                pixels.withUnsafeMutableBufferPointer { Canvas.blend8($0.baseAddress!, ink, weights) }
                #expect(pixels == expected)
            }
        }
    }

    /// A rounded rectangle drawn with its spans, side coverages read once and gradient rows
    /// made in lanes equals one drawn pixel by pixel from `coverage` and the mixed colour.
    @Test func roundedRectEqualsItsPixelByPixelReference() {
        var numbers = Numbers(state: 5)
        for _ in 0..<300 {
            let rect = Rect(
                x: numbers.unit() * 40 - 5, y: numbers.unit() * 30 - 5, width: numbers.unit() * 30 + 0.2, height: numbers.unit() * 40 + 0.2)
            let radius = numbers.next() % 3 == 0 ? 0 : numbers.unit() * 6
            // Half with one alpha at both ends (the sides' weights are then found once).
            let top = RGBA(numbers.unit(), numbers.unit(), numbers.unit(), numbers.unit())
            let bottom = RGBA(numbers.unit(), numbers.unit(), numbers.unit(), numbers.next() % 2 == 0 ? top.a : numbers.unit())
            var drawn = Canvas(width: 48, height: 40)
            drawn.fillVerticalGradient(top: RGBA(0.2, 0.3, 0.4), bottom: RGBA(0.9, 0.1, 0.5))
            var reference = drawn
            drawn.fillRoundedRect(rect, radius: radius, top: top, bottom: bottom)
            let shape = RoundedRectPixels(rect, radius: radius, canvasWidth: 48, canvasHeight: 40)
            for y in shape.rows {
                let amount = max(0, min(1, (Float(y) + 0.5 - rect.minY) / rect.height))
                let ink = Canvas.Ink(top.mixed(with: bottom, amount))
                let dy = shape.dy(row: y), rowCoverage = shape.rowCoverage(y)
                for x in shape.columns {
                    let coverage = shape.coverage(x, dy: dy, rowCoverage: rowCoverage)
                    reference.pixels[y * 48 + x] = Canvas.blend(reference.pixels[y * 48 + x], ink, ink.weight(coverage))
                }
            }
            #expect(drawn.pixels == reference.pixels, "\(rect) radius \(radius)")
        }
    }
}
