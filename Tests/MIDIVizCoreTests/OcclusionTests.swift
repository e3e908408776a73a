import Testing

@testable import MIDIVizCore

@Suite(.timeLimit(.minutes(30))) struct OcclusionTests {
    let width = 160, height = 120

    /// Random rounded rectangles stacked in a few columns (same left and right edges) and rows
    /// (same top and bottom edges), opaque or not, with radii; edges on whole pixels when
    /// `wholeEdges`, so that no covering shape has an anti-aliased side.
    func stacked(seed: UInt64, count: Int, wholeEdges: Bool) -> [Shape] {
        var random = SeededNumbers(state: seed)
        func edge(_ range: ClosedRange<Float>) -> Float {
            let value = Float.random(in: range, using: &random)
            return wholeEdges ? value.rounded() : value
        }
        let columns = (0..<4).map { _ in (x: edge(0...140), width: edge(3...20)) }
        let rows = (0..<4).map { _ in (y: edge(0...110), height: edge(3...12)) }
        return (0..<count).map { _ in
            let color = RGBA(Float.random(in: 0...1, using: &random), Float.random(in: 0...1, using: &random), Float.random(in: 0...1, using: &random))
            let bottom = color.scaled(0.6)
            let alpha: Float = Bool.random(using: &random) ? 1 : 0.7
            let radius = [0, 1.5, 3, 8][Int.random(in: 0..<4, using: &random)] as Float
            let rect: Rect
            if Bool.random(using: &random) {
                let column = columns.randomElement(using: &random)!
                rect = Rect(x: column.x, y: edge(-10...110), width: column.width, height: edge(2...40))
            } else {
                let row = rows.randomElement(using: &random)!
                rect = Rect(x: edge(-10...150), y: row.y, width: edge(2...50), height: row.height)
            }
            return .roundedRect(rect, radius: radius, top: color.withAlpha(alpha), bottom: bottom.withAlpha(alpha))
        }
    }

    func drawn(_ shapes: [Shape]) -> Canvas {
        var canvas = Canvas(width: width, height: height)
        canvas.fillVerticalGradient(top: RGBA(0.1, 0.1, 0.2), bottom: RGBA(0, 0, 0))
        canvas.draw(shapes, fonts: .empty(canvasSide: height))
        return canvas
    }

    /// The shapes `Occlusion` leaves: how many it dropped and how many it clipped.
    func culled(_ shapes: [Shape], width: Int? = nil, height: Int? = nil) -> (shapes: [Shape], dropped: Int, clipped: Int) {
        var culled = shapes
        var occlusion = Occlusion()
        occlusion.hideCovered(in: &culled, width: width ?? self.width, height: height ?? self.height)
        let clipped = culled.filter { if case .partlyHiddenRoundedRect = $0 { return true } else { return false } }.count
        return (culled, shapes.count - culled.count, clipped)
    }

    /// Where covering shapes have no anti-aliased sides, leaving out what they cover changes no pixel.
    @Test(arguments: 1...12 as ClosedRange<UInt64>)
    func wholePixelEdgesGiveThePlainPaintersPixels(seed: UInt64) {
        let shapes = stacked(seed: seed, count: 300, wholeEdges: true)
        let result = culled(shapes)
        #expect(result.dropped + result.clipped > 50, "the stacks hide something: \(result.dropped) dropped, \(result.clipped) clipped")
        let plain = drawn(shapes), fast = drawn(result.shapes)
        let differing = plain.pixels.indices.filter { plain.pixels[$0] != fast.pixels[$0] }
        #expect(differing.isEmpty, "\(differing.count) pixels differ, the first at \(differing.first.map { ($0 % width, $0 / width) }.debugDescription)")
    }

    /// With sub-pixel edges too: a covering shape hides only the pixels it covers wholly, not
    /// its anti-aliased sides, top, bottom or corners, so every pixel is still the plain painter's.
    @Test(arguments: 1...12 as ClosedRange<UInt64>)
    func subPixelEdgesGiveThePlainPaintersPixels(seed: UInt64) {
        let shapes = stacked(seed: seed, count: 300, wholeEdges: false)
        let result = culled(shapes)
        #expect(result.clipped > 50, "the stacks hide something: \(result.dropped) dropped, \(result.clipped) clipped")
        let plain = drawn(shapes), fast = drawn(result.shapes)
        let differing = plain.pixels.indices.filter { plain.pixels[$0] != fast.pixels[$0] }
        #expect(differing.isEmpty, "\(differing.count) pixels differ, the first at \(differing.first.map { ($0 % width, $0 / width) }.debugDescription)")
    }

    /// The falling notes of a dense song: a later note on a key hides the rows of earlier ones it
    /// covers, so the keyboard draws each note's visible part only.
    /// 4000 notes of 0.2 s on two octaves within 4 s: about 2000 on screen at once.
    func denseSong(notes count: Int = 4000) -> Song {
        var random = SeededNumbers(state: 7)
        let notes = (0..<count).map { _ -> Note in
            let start = Double.random(in: 0..<4, using: &random)
            return Note(startSeconds: start, endSeconds: start + 0.2, pitch: UInt8.random(in: 48...72, using: &random), velocity: 100, channel: 0, track: 0)
        }.sorted { $0.startSeconds < $1.startSeconds }
        return Song(
            format: 0, division: .ticksPerQuarter(96), endTick: 768, durationSeconds: 4.2,
            tracks: [TrackSummary(name: nil, noteCount: notes.count, channels: [0], programs: [])],
            notes: notes, tempoChanges: [], timeSignatures: [], keySignatures: [], synthEvents: [], warnings: [])
    }

    @Test func aDenseKeyboardFrameHidesMostOfItsNotes() {
        var settings = RenderSettings.forTesting
        settings.style = .keyboard
        var shapes: [Shape] = []
        Scene(song: denseSong(), settings: settings).makeShapes(at: 2, into: &shapes)
        let result = culled(shapes, width: settings.width, height: settings.height)
        let notesDrawn = shapes.filter { if case .roundedRect = $0 { return true } else { return false } }.count
        #expect(notesDrawn > 1000)
        #expect(result.clipped + result.dropped > notesDrawn / 2, "most notes are covered in part by a later one")
    }

    /// A dense frame puts the whole backdrop back and draws everything again: frames drawn one
    /// after another in one workspace are the frames drawn each on its own.
    @Test(arguments: ["keyboard", "roll"])
    func denseFramesInSequenceAreTheFramesDrawnAlone(style: String) {
        var settings = RenderSettings.forTesting
        settings.style = style == "roll" ? .roll : .keyboard
        let renderer = FrameRenderer(scene: Scene(song: denseSong(notes: 8000), settings: settings), fonts: .empty(canvasSide: settings.textSide))
        var sequence = renderer.makeWorkspace()
        var dense = 0
        for frame in stride(from: 30, to: 90, by: 3) {
            if FrameRenderer.isDense(sequence.drawnRegions, canvas: sequence.canvas) { dense += 1 }
            renderer.render(frame: frame, in: &sequence)
            var alone = renderer.makeWorkspace()
            renderer.render(frame: frame, in: &alone)
            #expect(sequence.canvas.pixels == alone.canvas.pixels, "frame \(frame)")
        }
        #expect(dense > 10, "the frames count as dense")
    }
}

@Suite(.timeLimit(.minutes(30))) struct GlowBudgetTests {
    func glow(_ x: Float, _ alpha: Float) -> Shape { .glow(center: Point(x, 10), radius: 8, hole: 0, RGBA(1, 1, 1, alpha)) }

    func limited(_ shapes: [Shape]) -> [Shape] {
        var budget = GlowBudget()
        var shapes = shapes
        budget.limit(&shapes)
        return shapes
    }

    let filler = (0..<Occlusion.fewestShapes).map { Shape.rect(Rect(x: Float($0), y: 50, width: 1, height: 1), RGBA(1, 0, 0)) }

    @Test func glowsWithinTheBudgetAreAllKept() {
        let shapes = filler + (1...GlowBudget.perCentre).map { glow(20, Float($0) / 10) } + [glow(40, 0.5)]
        #expect(limited(shapes) == shapes)
    }

    @Test func beyondTheBudgetTheLastDrawnAreKeptInOrder() {
        let many = (1...7).map { glow(20, Float($0) / 10) }
        let other = glow(40, 0.5)
        let shapes = filler + [many[0], other] + many.dropFirst()
        let kept = limited(shapes)
        #expect(kept == filler + [other] + many.suffix(GlowBudget.perCentre))
    }

    /// A dense keyboard draws a key's glows as one (`GlowBudget.Stack`): one alone is itself;
    /// three are at their centre as the three drawn in turn, and no brighter anywhere.
    @Test func stackedGlowsDrawnAsOneAreTheStackAtTheCentre() {
        var single = GlowBudget.Stack()
        single.add(RGBA(0.3, 0.6, 0.9, 0.45))
        #expect(single.color == RGBA(0.3, 0.6, 0.9, 0.45))
        let colors = [RGBA(1, 0.2, 0.1, 0.6), RGBA(0.1, 0.9, 0.3, 0.35), RGBA(0.2, 0.4, 1, 0.7)]
        var stack = GlowBudget.Stack()
        var stacked = Canvas(width: 64, height: 64, color: RGBA(0.1, 0.1, 0.2))
        for color in colors {
            stack.add(color)
            stacked.fillGlow(center: Point(32, 32), radius: 24, color)
        }
        var one = Canvas(width: 64, height: 64, color: RGBA(0.1, 0.1, 0.2))
        one.fillGlow(center: Point(32, 32), radius: 24, stack.color)
        func channels(_ pixel: UInt32) -> [Int] { [0, 8, 16].map { Int((pixel >> $0) & 0xFF) } }
        let centre = zip(channels(stacked[31, 31]), channels(one[31, 31])).map { abs($0 - $1) }
        #expect(centre.allSatisfy { $0 <= 2 }, "centre differs by \(centre)")
        var brighter = 0, most = 0
        for y in 0..<64 {
            for x in 0..<64 {
                let sum = channels(one[x, y]).reduce(0, +), stackedSum = channels(stacked[x, y]).reduce(0, +)
                if sum > stackedSum + 3 { brighter += 1 }
                most = max(most, stackedSum - sum)
            }
        }
        #expect(brighter == 0)
        // Away from the centre the one glow is fainter: by at most 40 levels over three
        // channels for this strong a stack (37 when written).
        #expect(most > 0 && most <= 40, "fainter by \(most)")
    }
}

@Suite(.timeLimit(.minutes(30))) struct EdgeSpansTests {
    /// More keys than the table was made for: it grows, and every key keeps its own spans.
    @Test func keysBeyondTheExpectedCountKeepTheirOwnSpans() {
        var table = EdgeSpans()
        table.removeAll(expecting: 4)
        let keys = (0..<1000).map { Occlusion.Edges(Float($0), Float($0) + 12.5, 3) }
        for (number, key) in keys.enumerated() {
            let index = table.spans(for: key)
            table.add(number..<number + 1, at: index)
        }
        for (number, key) in keys.enumerated() {
            let index = table.existingSpans(for: key)
            #expect(index == table.spans(for: key))
            #expect(index.map { Array(table.spans(at: $0)) } == [number..<number + 1])
        }
        #expect(table.existingSpans(for: Occlusion.Edges(-1, 5, 3)) == nil)
        // A new frame: nothing is left, and a key reused starts empty.
        table.removeAll(expecting: 10)
        #expect(table.existingSpans(for: keys[5]) == nil)
        let reused = table.spans(for: keys[5])
        #expect(table.spans(at: reused).isEmpty)
    }
}

@Suite(.timeLimit(.minutes(30))) struct EdgeSpansMergeTests {
    /// Spans added in any order to several keys at once (their runs outgrow their room and move
    /// past each other in the pool) are, for each key, the rows a plain set of its added rows
    /// holds, as disjoint sorted spans that neither overlap nor touch, and `widest(at:within:)` is
    /// the longest run of those rows in the range.
    @Test func spansAreTheAddedRowsMergedWhereTheyOverlapOrTouch() {
        var numbers = SeededNumbers(state: 19)
        var table = EdgeSpans()
        for round in 0..<400 {
            table.removeAll(expecting: 4)
            let keys = (0..<4).map { Occlusion.Edges(Float($0), 10, 0) }
            var rows = [Set<Int>](repeating: [], count: keys.count)
            for _ in 0..<(round % 13) {
                let key = Int(numbers.below(UInt64(keys.count)))
                let start = Int(numbers.below(90)), span = start..<start + Int(numbers.below(12))
                table.add(span, at: table.spans(for: keys[key]))
                rows[key].formUnion(span)
            }
            for (key, edges) in keys.enumerated() {
                let index = table.spans(for: edges)
                let spans = Array(table.spans(at: index))
                #expect(spans.flatMap { Array($0) } == rows[key].sorted(), "round \(round), key \(key)")
                #expect(zip(spans, spans.dropFirst()).allSatisfy { $0.upperBound < $1.lowerBound }, "round \(round), key \(key)")
                let start = Int(numbers.below(100)), range = start..<start + Int(numbers.below(20))
                var longest: Range<Int>? = nil
                var run = range.lowerBound
                while run < range.upperBound {
                    guard rows[key].contains(run) else {
                        run += 1
                        continue
                    }
                    var end = run
                    while end < range.upperBound && rows[key].contains(end) { end += 1 }
                    if end - run > (longest?.count ?? 0) { longest = run..<end }
                    run = end
                }
                #expect(table.widest(at: index, within: range) == longest, "round \(round): \(spans) within \(range)")
            }
        }
    }
}
