import Testing

@testable import MIDIVizCore

/// The moving layer: "over" of a premultiplied layer on a backdrop, rows moved down, cleared.
@Suite(.timeLimit(.minutes(30))) struct CanvasLayerTests {
    /// A premultiplied pixel: colour channels at most its alpha; 0 and 255 alphas often.
    func premultiplied(_ random: inout SeededNumbers) -> UInt32 {
        let alpha = [0, 255, UInt32(random.below(256))][Int(random.below(3))]
        var pixel = alpha << 24
        for shift in [0, 8, 16] as [UInt32] { pixel |= UInt32(random.below(UInt64(alpha) + 1)) << shift }
        return pixel
    }

    @Test func overIsEachChannelRoundedAndEightAtOnceTheSame() {
        var random = SeededNumbers(state: 5)
        for _ in 0..<2000 {
            let tops = SIMD8<UInt32>((0..<8).map { _ in premultiplied(&random) })
            let bottoms = SIMD8<UInt32>((0..<8).map { _ in premultiplied(&random) })
            let eight = Canvas.over8(tops, bottoms)
            for lane in 0..<8 {
                let top = tops[lane], bottom = bottoms[lane], alpha = Double(top >> 24)
                let one = Canvas.over(top, bottom)
                #expect(eight[lane] == one, "\(top) over \(bottom)")
                for shift in [0, 8, 16, 24] as [UInt32] {
                    let exact = Double((top >> shift) & 0xFF) + Double((bottom >> shift) & 0xFF) * (255 - alpha) / 255
                    #expect(abs(Double((one >> shift) & 0xFF) - exact) <= 0.5, "\(top) over \(bottom), bits \(shift)")
                }
            }
        }
        // Transparent shows the bottom, opaque hides it.
        #expect(Canvas.over(0, 0xFF12_3456) == 0xFF12_3456)
        #expect(Canvas.over(0xFF65_4321, 0xFF12_3456) == 0xFF65_4321)
    }

    /// Eight pixels laid at once, as a dense keyboard's layer is (opaque or empty nearly
    /// everywhere, some partly covered), are each `over`.
    @Test func layingEightIsOverOfEach() {
        var random = SeededNumbers(state: 7)
        for _ in 0..<4000 {
            // Groups of only empty and opaque pixels half the time, as the select takes them.
            let binary = random.below(2) == 0
            let tops = SIMD8<UInt32>(
                (0..<8).map { _ in
                    let pixel = premultiplied(&random)
                    return binary ? (pixel >> 24 == 255 ? pixel : 0) : pixel
                })
            let bottoms = SIMD8<UInt32>((0..<8).map { _ in 0xFF00_0000 | UInt32(random.below(1 << 24)) })
            let eight = Canvas.layEight(tops, over: bottoms)
            for lane in 0..<8 { #expect(eight[lane] == Canvas.over(tops[lane], bottoms[lane]), "\(tops[lane]) over \(bottoms[lane])") }
            #expect(Canvas.allOpaque(tops) == (0..<8).allSatisfy { tops[$0] >> 24 == 255 })
        }
        // All opaque, and then one lane a level short of it.
        var opaque = SIMD8<UInt32>(repeating: 0xFF12_3456)
        let bottom = SIMD8<UInt32>(repeating: 0xFF65_4321)
        #expect(Canvas.allOpaque(opaque) && Canvas.layEight(opaque, over: bottom) == opaque)
        for lane in 0..<8 {
            opaque[lane] = 0xFE11_2233
            #expect(!Canvas.allOpaque(opaque) && Canvas.layEight(opaque, over: bottom)[lane] == Canvas.over(0xFE11_2233, 0xFF65_4321))
            opaque[lane] = 0xFF12_3456
        }
    }

    /// `frame` is `layer` over `backdrop` in `rows`, pixel by pixel with `over`, and the
    /// backdrop elsewhere.
    func expectComposed(_ frame: Canvas, _ layer: Canvas, over backdrop: Canvas, in rows: Range<Int>) {
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                let expected = rows.contains(y) ? Canvas.over(layer[x, y], backdrop[x, y]) : backdrop[x, y]
                #expect(frame[x, y] == expected, "(\(x), \(y))")
            }
        }
    }

    @Test func composeLaysTheLayerOverItsRowsAndCopiesTheRest() {
        var random = SeededNumbers(state: 9)
        let width = 37, height = 12
        let backdrop = Canvas(width: width, height: height, pixels: (0..<(width * height)).map { _ in 0xFF00_0000 | UInt32(random.below(1 << 24)) })
        let layer = Canvas(width: width, height: height, pixels: (0..<(width * height)).map { _ in premultiplied(&random) })
        var frame = Canvas(width: width, height: height)
        frame.compose(layer, over: backdrop, in: 3..<9)
        expectComposed(frame, layer, over: backdrop, in: 3..<9)
    }

    /// Runs of transparent, opaque and mixed pixels, so that whole blocks of eight take each of
    /// compose's three ways, and blocks one pixel off either.
    @Test func composeOfRunsEqualsOverPixelByPixel() {
        var random = SeededNumbers(state: 11)
        let width = 61, height = 23
        let backdrop = Canvas(width: width, height: height, pixels: (0..<(width * height)).map { _ in 0xFF00_0000 | UInt32(random.below(1 << 24)) })
        var pixels: [UInt32] = []
        while pixels.count < width * height {
            let kind = random.below(3), run = Int(random.below(24)) + 1
            for _ in 0..<run {
                var pixel = premultiplied(&random)
                if kind == 0 { pixel = 0 } else if kind == 1 { pixel |= 0xFF00_0000 }
                pixels.append(pixel)
            }
        }
        let layer = Canvas(width: width, height: height, pixels: Array(pixels.prefix(width * height)))
        var frame = Canvas(width: width, height: height)
        frame.compose(layer, over: backdrop, in: 2..<21)
        expectComposed(frame, layer, over: backdrop, in: 2..<21)
        // The block test itself, on blocks with one pixel off.
        for lane in 0..<8 {
            var opaque = SIMD8<UInt32>(repeating: 0xFF12_3456), clear = SIMD8<UInt32>(repeating: 0x0000_0000)
            #expect(Canvas.alphasAreAll(opaque) == (false, true) && Canvas.alphasAreAll(clear) == (true, false))
            opaque[lane] = 0xFE11_2233
            clear[lane] = 0x0100_0000
            #expect(Canvas.alphasAreAll(opaque) == (false, false) && Canvas.alphasAreAll(clear) == (false, false), "lane \(lane)")
        }
    }

    @Test func rowsMoveDownAndClear() {
        let width = 5, height = 8
        var canvas = Canvas(width: width, height: height, pixels: (0..<(width * height)).map { UInt32($0) })
        canvas.moveRows(2..<7, down: 2)
        // Rows 2, 3, 4 went to 4, 5, 6; 2 and 3 keep theirs; 0, 1 and 7 are untouched.
        for y in 0..<height {
            let from = (4..<7).contains(y) ? y - 2 : y
            #expect((0..<width).allSatisfy { canvas[$0, y] == UInt32(from * width + $0) }, "row \(y)")
        }
        canvas.clear(columns: 1..<3, rows: 5..<7)
        #expect(canvas[1, 5] == 0 && canvas[2, 6] == 0 && canvas[0, 5] != 0 && canvas[3, 6] != 0)
    }
}
