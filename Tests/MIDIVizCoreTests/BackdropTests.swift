import Testing

@testable import MIDIVizCore

@Suite(.timeLimit(.minutes(30))) struct BackdropTests {
    /// Rows of one colour right of x = 20, and a different pixel at every place left of it.
    func picture(width: Int = 120) -> Canvas {
        var canvas = Canvas(width: width, height: 30)
        for y in 0..<30 {
            for x in 0..<width {
                canvas.pixels[y * width + x] =
                    x < 20
                    ? UInt32(truncatingIfNeeded: (y * width + x) &* 2_654_435_761) | 0xFF00_0000
                    : 0xFF00_0000 | UInt32(y * 7)
            }
        }
        // A short different stretch inside one row: that row's longest run is the part after it.
        canvas.pixels[5 * width + 50] = 0xFFFF_FFFF
        return canvas
    }

    /// A layer laid over the backdrop takes each row's run of one colour from the run, not from
    /// the backdrop's pixels: the same pixels as `over` one by one, in runs of transparent,
    /// opaque and mixed pixels, at the run's edges and in the row whose run is cut short.
    /// (123 pixels wide: rows end in a run and a few pixels past its last whole group of eight.)
    @Test func composingALayerEqualsOverPixelByPixel() {
        let width = 123
        var canvas = picture(width: width)
        // Row 7's run ends before the last column, and row 9 has none (no stretch of 32).
        for x in 100..<width { canvas.pixels[7 * width + x] = 0xFF00_00FF | UInt32(x) << 8 }
        for x in 0..<width { canvas.pixels[9 * width + x] = 0xFF00_0000 | UInt32(x * 977) }
        // Rows 11 to 14 are one colour but for lines across them (a keyboard's octaves): runs
        // on both sides of each, none of them whole groups of eight at their ends.
        for y in 11..<15 {
            for x in [57, 58, 100] { canvas.pixels[y * width + x] = 0xFF80_8080 }
        }
        let backdrop = Backdrop(canvas)
        var random = SeededNumbers(state: 21)
        var pixels: [UInt32] = []
        while pixels.count < width * 30 {
            let kind = random.below(3), run = Int(random.below(24)) + 1
            for _ in 0..<run {
                let alpha = kind == 0 ? 0 : kind == 1 ? 255 : UInt32(random.below(256))
                var pixel = alpha << 24
                for shift in [0, 8, 16] as [UInt32] { pixel |= UInt32(random.below(UInt64(alpha) + 1)) << shift }
                pixels.append(pixel)
            }
        }
        let layer = Canvas(width: width, height: 30, pixels: Array(pixels.prefix(width * 30)))
        var frame = Canvas(width: width, height: 30)
        backdrop.compose(layer, in: 2..<27, into: &frame)
        for y in 0..<30 {
            for x in 0..<width {
                let below = backdrop.canvas[x, y]
                #expect(frame[x, y] == ((2..<27).contains(y) ? Canvas.over(layer[x, y], below) : below), "(\(x), \(y))")
            }
        }
    }

    @Test func restoringPutsBackExactlyTheBackdropInTheRegion() {
        // Rows 11 to 14 are cut into runs by lines, as a keyboard's octaves cut its rows.
        var canvas = picture()
        for y in 11..<15 {
            for x in [57, 58, 100] { canvas.pixels[y * 120 + x] = 0xFF80_8080 }
        }
        let backdrop = Backdrop(canvas)
        var target = backdrop.canvas
        let regions = [
            Rect(x: 10.5, y: 2.2, width: 30, height: 8), Rect(x: 48, y: 4, width: 5, height: 3),
            Rect(x: 100, y: -3, width: 40, height: 50), Rect(x: 60, y: 20, width: 1.5, height: 9),
            Rect(x: 40.5, y: 11, width: 70, height: 4),  // across the lines and the runs between them
        ]
        for region in regions { target.fillRect(region, RGBA(1, 0, 0)) }
        target.fillRect(Rect(x: 70, y: 25, width: 3, height: 3), RGBA(0, 1, 0))  // not restored
        for region in regions { backdrop.restore(region, in: &target) }
        for y in 0..<30 {
            for x in 0..<120 where !((70..<73).contains(x) && (25..<28).contains(y)) {
                #expect(target[x, y] == backdrop.canvas[x, y], "(\(x), \(y))")
            }
        }
        #expect(target[71, 26] != backdrop.canvas[71, 26], "outside every region: left alone")
        backdrop.restoreAll(in: &target)
        #expect(target.pixels == backdrop.canvas.pixels)
    }

    /// Regions put back at once, a row's close ones in one copy across the gaps between them,
    /// give the pixels of each put back in turn, keeping what is kept (drawn in regions not put
    /// back, some of them in those gaps, one of them anywhere): random frames of narrow regions
    /// close together, over a backdrop of runs and of pixels all different.
    @Test func restoringRegionsAtOnceEqualsOneByOne() {
        var canvas = picture()
        for y in 11..<15 {
            for x in [57, 58, 100] { canvas.pixels[y * 120 + x] = 0xFF80_8080 }
        }
        let backdrop = Backdrop(canvas)
        var random = SeededNumbers(state: 5)
        var spanCount = 0
        for frame in 0..<300 {
            func region() -> Rect {
                Rect(
                    x: Float(random.below(1300)) / 10 - 5, y: Float(random.below(340)) / 10 - 3, width: Float(random.below(120)) / 10 + 0.5,
                    height: Float(random.below(200)) / 10 + 0.5)
            }
            let restored = (0..<Int(random.below(12))).map { _ in region() }
            var kept: [Rect?] = (0..<Int(random.below(6))).map { _ in region() }
            if frame % 50 == 7 { kept.append(nil) }
            // What the frame before drew: each region's pixels, all different, as a frame does.
            var target = backdrop.canvas
            for (index, region) in (restored + kept.compactMap { $0 }).enumerated() {
                target.fillRect(region, RGBA(Float(index % 7) / 7, 1, 0.5))
            }
            var oneByOne = target, atOnce = target
            for region in restored { backdrop.restore(region, in: &oneByOne) }
            backdrop.restore(restored, sparing: kept, in: &atOnce)
            #expect(atOnce.pixels == oneByOne.pixels, "frame \(frame)")
            RowSpans.forEachBand(
                of: restored.compactMap { RowSpans.Box($0, width: 120, height: 30) }, sparing: [], bridgedGap: Backdrop.bridgedGap
            ) { _, spans in
                for (left, right) in zip(spans, spans.dropFirst()) {
                    #expect(left.upperBound < right.lowerBound, "spans apart and in order")
                }
                spanCount += spans.count
            }
        }
        #expect(spanCount > 300, "the frames have rows to put back")
    }
}
