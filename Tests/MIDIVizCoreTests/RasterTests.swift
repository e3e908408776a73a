import Testing

@testable import MIDIVizCore

@Suite(.timeLimit(.minutes(30))) struct RasterTests {
    let black = RGBA(0, 0, 0)
    let white = RGBA(1, 1, 1)

    /// The summed coverage of `color` painted over black: the area actually drawn, in pixels.
    func paintedArea(_ canvas: Canvas) -> Float {
        canvas.pixels.reduce(Float(0)) { $0 + Float($1 & 0xFF) / 255 }
    }

    @Test func byteRoundingIsRoundedThenClamped() {
        var values: [Float] = [-1, -0.5, -0.0, 0, 0.49999997, 0.5, 1.5, 2.5, 254.49998, 254.5, 254.50002, 255, 255.4, 255.5, 256, 256.5, 1e9, .infinity, .nan]
        for step in 0...100_000 { values.append(Float(step) / 100_000 * 260 - 2) }
        for k in 0...255 { values += [Float(k) + 0.5, (Float(k) + 0.5).nextDown, (Float(k) + 0.5).nextUp] }
        for value in values {
            for limit: Float in [255, 256] {
                let reference = UInt32(max(0, min(limit, value.rounded())))
                #expect(RGBA.rounded(value, upTo: limit) == reference, "\(value)")
            }
        }
    }

    @Test func halfAlphaWhiteOverBlackIsMidGrey() {
        var canvas = Canvas(width: 4, height: 4, color: black)
        canvas.fillRect(Rect(x: 0, y: 0, width: 4, height: 4), white.withAlpha(0.5))
        let value = canvas[1, 1] & 0xFF
        #expect(value == 127 || value == 128)
        #expect(canvas[1, 1] >> 24 == 255, "the canvas stays opaque")
    }

    @Test func opaqueFillReplacesAndFractionalEdgesAreCoverage() {
        var canvas = Canvas(width: 30, height: 10, color: black)
        canvas.fillRect(Rect(x: 10.5, y: 2, width: 9.5, height: 6), RGBA(1, 0, 0))
        #expect(canvas[15, 5] == RGBA(1, 0, 0).pixel)
        #expect(abs(Int(canvas[10, 5] & 0xFF) - 128) <= 1, "pixel 10 is half covered")
        #expect(canvas[9, 5] == black.pixel && canvas[20, 5] == black.pixel)
        #expect(abs(paintedArea(canvas) - 9.5 * 6) < 0.5)
    }

    /// Glows centred on whole and half rows (each row above paired with the row below, their
    /// weights worked out once) and elsewhere, some with holes, some partly or wholly beyond
    /// an edge, over random pixels: the same pixels as drawing every row by itself.
    @Test func aGlowsPairedRowsAreTheRowsDrawnOneByOne() {
        var numbers = SeededNumbers(state: 41)
        for round in 0..<2000 {
            let width = 8 + Int(numbers.below(70)), height = 4 + Int(numbers.below(50))
            let pixels = (0..<(width * height)).map { _ in UInt32(truncatingIfNeeded: numbers.next()) }
            var paired = Canvas(width: width, height: height, pixels: pixels)
            var single = paired
            let rows: Float = [0, 0.5, 0.25, 0.37][Int(numbers.below(4))] + Float(Int(numbers.below(UInt64(height + 30)))) - 15
            let center = Point(numbers.unit() * Float(width + 30) - 15, rows)
            let radius = numbers.unit() * 30, hole = numbers.below(3) == 0 ? numbers.unit() * radius : 0
            let color = RGBA(numbers.unit(), numbers.unit(), numbers.unit(), numbers.unit())
            var rowByRow = paired
            paired.fillGlow(center: center, radius: radius, hole: hole, color)
            single.fillGlow(center: center, radius: radius, hole: hole, color, pairsRows: false)
            // The glow as it was drawn before rows were paired: through `forEachRow`.
            let ink = Canvas.Ink(color), inverseSquared = 1 / (radius * radius), scale = Float(ink.weight)
            if color.a > 0, radius > 0, scale >= 1 {
                let reach = min(radius, radius * (1 - 1 / scale.squareRoot()).squareRoot() + 1)
                rowByRow.forEachRow(ofDiscAt: center, radius: reach, margin: 0) { row, dySquared, columns in
                    let skip = Canvas.columns(within: hole, of: center.x, dySquared: dySquared, in: columns)
                    for (start, end) in [(columns.lowerBound, skip.lowerBound), (skip.upperBound, columns.upperBound)] {
                        Canvas.blendGlowRun(
                            row, from: start, to: end, firstDX: Float(start) + 0.5 - center.x, rowTerm: 1 - dySquared * inverseSquared,
                            inverseSquared: inverseSquared, scale: scale, ink)
                    }
                }
            }
            let differing = zip(paired.pixels, rowByRow.pixels).filter { $0 != $1 }.count
            #expect(differing == 0 && single.pixels == rowByRow.pixels, "round \(round): centre \(center), radius \(radius), hole \(hole)")
            if differing > 0 { break }
        }
    }

    /// A glow whose hole, or a disc whose fully covered middle, lies wholly beyond the right
    /// edge, the shape itself partly inside: its rows stop at the edge (the glow's ran on into
    /// the start of the next row; the disc's crashed on a range that ended before it began).
    @Test func aGlowWithItsHoleBeyondTheEdgeStaysInItsRows() {
        var canvas = Canvas(width: 20, height: 20, color: black)
        canvas.fillGlow(center: Point(25, 10), radius: 12, hole: 4, white)
        #expect((0..<20).allSatisfy { canvas[0, $0] == black.pixel && canvas[1, $0] == black.pixel })
        #expect(canvas[19, 10] != black.pixel)
        var disc = Canvas(width: 20, height: 20, color: black)
        disc.fillCircle(center: Point(28.4, 10), radius: 8, white)
        #expect(disc.pixels.allSatisfy { $0 == black.pixel })
    }

    @Test func shapesAreClippedAtTheCanvasBorder() {
        var canvas = Canvas(width: 20, height: 20, color: black)
        canvas.fillRect(Rect(x: -5, y: -5, width: 10, height: 10), white)
        canvas.fillCircle(center: Point(-3, 10), radius: 8, white)
        canvas.fillCircle(center: Point(500, 500), radius: 8, white)
        canvas.fillGlow(center: Point(25, 25), radius: 10, white)
        // Beside the canvas, on rows that are inside it: nothing to draw, nothing to crash.
        let before = canvas.pixelHash
        canvas.fillCircle(center: Point(60, 10), radius: 8, white)
        canvas.strokeCircle(center: Point(-40, 10), radius: 8, lineWidth: 2, white)
        canvas.fillGlow(center: Point(60, 10), radius: 12, hole: 4, white)
        #expect(canvas.pixelHash == before)
        canvas.drawLine(from: Point(-10, 19), to: Point(40, 19), lineWidth: 2, white)
        #expect(canvas[0, 0] == white.pixel && canvas[4, 4] == white.pixel && canvas[5, 5] == black.pixel)
        #expect(canvas[0, 10] == white.pixel, "the part of the circle inside the canvas is drawn")
        #expect(canvas[19, 19] != black.pixel)
    }

    @Test(arguments: [3.0, 10.0, 37.5] as [Float])
    func circleCoverageAddsUpToItsArea(radius: Float) {
        var canvas = Canvas(width: 100, height: 100, color: black)
        canvas.fillCircle(center: Point(50.3, 49.6), radius: radius, white)
        let area = Float.pi * radius * radius
        #expect(abs(paintedArea(canvas) - area) < max(1, area * 0.01))
        #expect(canvas[50, 49] == white.pixel)
        #expect(canvas[50, Int(49.6 + radius + 2)] == black.pixel)
        let edge = canvas[50, Int(49.6 - radius)] & 0xFF
        #expect(edge > 0 && edge < 255, "the edge pixel is partly covered")
    }

    @Test func ringCoverageIsCircumferenceTimesWidth() {
        var canvas = Canvas(width: 100, height: 100, color: black)
        canvas.strokeCircle(center: Point(50, 50), radius: 30, lineWidth: 3, white)
        #expect(abs(paintedArea(canvas) - 2 * Float.pi * 30 * 3) < 6)
        #expect(canvas[50, 50] == black.pixel)
    }

    @Test func roundedRectLosesOnlyItsCorners() {
        var canvas = Canvas(width: 100, height: 100, color: black)
        canvas.fillRoundedRect(Rect(x: 10, y: 20, width: 60, height: 40), radius: 8, top: white, bottom: white)
        let expected = 60 * 40 - (4 - Float.pi) * 64
        #expect(abs(paintedArea(canvas) - expected) < 3)
        #expect(canvas[10, 20] == black.pixel || (canvas[10, 20] & 0xFF) < 40, "the corner is cut")
    }

    @Test func roundedRectGradientRunsTopToBottom() {
        var canvas = Canvas(width: 20, height: 100, color: black)
        canvas.fillRoundedRect(Rect(x: 0, y: 0, width: 20, height: 100), radius: 2, top: RGBA(1, 0, 0), bottom: RGBA(0, 0, 1))
        #expect(canvas.color(x: 10, y: 2).r > 0.9 && canvas.color(x: 10, y: 97).b > 0.9)
    }

    @Test func lineCoverageIsLengthTimesWidth() {
        var canvas = Canvas(width: 100, height: 100, color: black)
        canvas.drawLine(from: Point(20, 20), to: Point(80, 60), lineWidth: 2, white)
        let length = (60 * 60 + 40 * 40 as Float).squareRoot()
        // Round caps add a disc of the line's width.
        #expect(abs(paintedArea(canvas) - (length * 2 + Float.pi)) < 3)
    }

    @Test func glowFallsOffToZeroAtItsRadius() {
        var canvas = Canvas(width: 100, height: 100, color: black)
        canvas.fillGlow(center: Point(50, 50), radius: 20, white)
        let center = canvas[50, 50] & 0xFF, middle = canvas[60, 50] & 0xFF
        #expect(center > 240 && middle > 0 && middle < center)
        #expect(canvas[71, 50] == black.pixel && canvas[50, 29] == black.pixel)
    }

    @Test func glowHoleIsLeftAlone() {
        var canvas = Canvas(width: 100, height: 100, color: black)
        canvas.fillGlow(center: Point(50, 50), radius: 30, hole: 10, white)
        #expect(canvas[50, 50] == black.pixel && canvas[50, 65] != black.pixel)
    }

    @Test func textBlendsGlyphCoverageAtTheBaseline() {
        // A 2×3 glyph for "A" whose top is 3 px above the baseline.
        var glyphs = [Glyph?](repeating: nil, count: 256)
        glyphs[65] = Glyph(width: 2, height: 3, left: 1, top: 3, advance: 4, coverage: [255, 0, 255, 128, 255, 255])
        let set = GlyphSet(pixelSize: 4, ascender: 3, descender: 1, glyphs: glyphs)
        #expect(set.width(of: Array("AA".utf8)) == 8)
        var canvas = Canvas(width: 12, height: 6, color: black)
        canvas.drawText(Array("AA".utf8), glyphs: set, origin: Point(0, 4), white)
        #expect(canvas[1, 1] == white.pixel && canvas[2, 1] == black.pixel)
        #expect(abs(Int(canvas[2, 2] & 0xFF) - 128) <= 1)
        #expect(canvas[5, 1] == white.pixel, "the second glyph starts one advance later")
        #expect(canvas[1, 4] == black.pixel, "nothing below the baseline for this glyph")
    }

    @Test func pixelHashSeesOnePixel() {
        var canvas = Canvas(width: 8, height: 8, color: black)
        let before = canvas.pixelHash
        canvas.fillRect(Rect(x: 3, y: 3, width: 1, height: 1), RGBA(0, 0, 1.0 / 255))
        #expect(canvas.pixelHash != before)
        #expect(Canvas(width: 8, height: 8, color: black).pixelHash == before)
        #expect(Canvas(width: 4, height: 16, color: black).pixelHash != before, "size is part of the hash")
    }

    /// A rounded rectangle drawn with its spans, side coverages read once and gradient rows
    /// made in lanes equals one drawn pixel by pixel from `coverage` and the mixed colour, also
    /// when drawn only within a box (a scrolled frame's dirty tiles).
    @Test func roundedRectEqualsItsPixelByPixelReference() {
        var numbers = SeededNumbers(state: 5)
        for _ in 0..<450 {
            let rect = Rect(
                x: numbers.unit() * 40 - 5, y: numbers.unit() * 30 - 5, width: numbers.unit() * 30 + 0.2, height: numbers.unit() * 40 + 0.2)
            let radius = numbers.below(3) == 0 ? 0 : numbers.unit() * 6
            // Half with one alpha at both ends (the sides' weights are then found once).
            let top = RGBA(numbers.unit(), numbers.unit(), numbers.unit(), numbers.unit())
            let bottom = RGBA(numbers.unit(), numbers.unit(), numbers.unit(), numbers.below(2) == 0 ? top.a : numbers.unit())
            var drawn = Canvas(width: 48, height: 40)
            drawn.fillVerticalGradient(top: RGBA(0.2, 0.3, 0.4), bottom: RGBA(0.9, 0.1, 0.5))
            var reference = drawn
            let shape = RoundedRectPixels(rect, radius: radius, canvasWidth: 48, canvasHeight: 40)
            // A third with a hidden box (a later opaque shape's): its pixels are left as they are.
            var hidden = PixelBox.empty
            if numbers.below(3) == 0, !shape.rows.isEmpty, !shape.columns.isEmpty {
                /// A part of `range` from a random start, to its end or to a random end.
                func part(of range: Range<Int>) -> Range<Int> {
                    let start = range.lowerBound + Int(numbers.below(UInt64(range.count)))
                    let end = numbers.below(2) == 0 ? range.upperBound : start + 1 + Int(numbers.below(UInt64(range.upperBound - start)))
                    return start..<end
                }
                let rows = part(of: shape.rows)
                hidden = PixelBox(rows: (numbers.below(2) == 0 ? shape.rows.lowerBound : rows.lowerBound)..<rows.upperBound, columns: part(of: shape.columns))
            }
            // A third drawn within a box, anywhere on the canvas: pixels outside it are left as they are.
            var clip: PixelBox? = nil
            if numbers.below(3) == 0 {
                let top = Int(numbers.below(40)), left = Int(numbers.below(48))
                clip = PixelBox(
                    rows: top..<top + 1 + Int(numbers.below(UInt64(40 - top))), columns: left..<left + 1 + Int(numbers.below(UInt64(48 - left))))
            }
            drawn.fillRoundedRect(rect, radius: radius, top: top, bottom: bottom, hidden: hidden, within: clip)
            for y in shape.rows {
                let amount = max(0, min(1, (Float(y) + 0.5 - rect.minY) / rect.height))
                let ink = Canvas.Ink(top.mixed(with: bottom, amount))
                let dy = shape.dy(row: y), rowCoverage = shape.rowCoverage(y)
                for x in shape.columns where !(hidden.rows.contains(Int32(y)) && hidden.columns.contains(Int32(x))) {
                    if let clip, !(clip.rows.contains(Int32(y)) && clip.columns.contains(Int32(x))) { continue }
                    let coverage = shape.coverage(x, dy: dy, rowCoverage: rowCoverage)
                    reference.pixels[y * 48 + x] = Canvas.blend(reference.pixels[y * 48 + x], ink, ink.weight(coverage))
                }
            }
            #expect(drawn.pixels == reference.pixels, "\(rect) radius \(radius) hidden \(hidden) clip \(String(describing: clip))")
        }
    }
}
