import Testing

@testable import MIDIVizCore

@Suite(.timeLimit(.minutes(30))) struct UnchangedShapesTests {
    let fonts = TextFonts.empty(canvasSide: 270)

    /// `find` on two frames, returning which new and which previous shapes stay.
    func kept(_ previous: [Shape], _ new: [Shape]) -> (new: [Bool], previous: [Bool]) {
        var unchanged = UnchangedShapes(width: 480, height: 270)
        unchanged.find(
            previous: previous, previousRegions: previous.map { $0.bounds(fonts: fonts) },
            new: new, newRegions: new.map { $0.bounds(fonts: fonts) })
        return (unchanged.keptNew, unchanged.keptPrevious)
    }

    func box(_ x: Float, _ y: Float = 20, width: Float = 40, _ color: RGBA = RGBA(1, 1, 1)) -> Shape {
        .rect(Rect(x: x, y: y, width: width, height: 20), color)
    }

    let title = Shape.rect(Rect(x: 300, y: 10, width: 150, height: 20), RGBA(0.9, 0.9, 0.9))

    @Test func aShapeDrawnAgainFarFromWhatMovesStays() {
        let result = kept([box(10), title], [box(14), title])
        #expect(result.new == [false, true] && result.previous == [false, true])
    }

    @Test func aShapeWithSomethingMovingNearItIsDrawnAgain() {
        // The moving box comes under the title in the new frame, or leaves it.
        #expect(kept([box(10), title], [box(290), title]).new == [false, false])
        #expect(kept([box(290), title], [box(10), title]).previous == [false, false])
        // A shape that changes colour where it is moves too.
        #expect(kept([box(310, 25), title], [box(310, 25, RGBA(1, 0, 0)), title]).new == [false, false])
    }

    @Test func drawingAgainSpreadsToTheShapesItTouches() {
        // Two still shapes overlapping; the moving one touches only the first.
        let first = box(100), second = box(130)
        let result = kept([box(40), first, second], [box(62), first, second])
        #expect(result.new == [false, false, false] && result.previous == [false, false, false])
        // Far from both, both stay.
        #expect(kept([box(0), first, second], [box(4), first, second]).new == [false, true, true])
    }

    @Test func repeatedOrReorderedShapesAreDrawnAgain() {
        let a = box(100), b = box(120)
        #expect(kept([a, a, title], [a, a, title]).new == [false, false, true], "a shape drawn twice pairs with none")
        // Overlapping shapes in the other order: each pixel's result could differ.
        #expect(kept([a, b], [b, a]).new == [false, false])
        // Apart, the order does not matter to any pixel, but only one pairing keeps the order.
        #expect(kept([a, title], [title, a]).new.filter { $0 }.count == 1)
    }

    @Test func aShapeOverTheWholeCanvasLeavesNothingStill() {
        let background = Shape.background(top: RGBA(0, 0, 0), bottom: RGBA(0, 0, 0.2))
        #expect(kept([background, title], [background, title]).new == [false, false])
        #expect(kept([box(0), title], [background, box(0), title]).new == [false, false, false])
    }

    @Test func theFirstFrameHasNothingToKeep() {
        #expect(kept([], [title]).new == [false])
        #expect(kept([title], []).previous == [false])
    }
}
