import Testing

@testable import MIDIVizCore

/// Scrolled frames: shapes moved by whole pixels draw the same pixels moved, `ScrolledShapes`
/// keeps exactly the shapes the previous frame drew moved, and frames drawn over the previous
/// one moved are the frames drawn alone.
@Suite(.timeLimit(.minutes(30))) struct ScrolledShapesTests {
    /// A canvas whose rows are each one colour (as the roll's notes area is).
    func striped(width: Int = 240, height: Int = 48) -> Canvas {
        var canvas = Canvas(width: width, height: height)
        canvas.fillVerticalGradient(top: RGBA(0.1, 0.1, 0.3), bottom: RGBA(0.3, 0.05, 0.1))
        return canvas
    }

    /// A random shape of the kinds notes and grid lines are, on the 1/256-pixel grid.
    func randomShape(_ random: inout SeededNumbers) -> Shape {
        func onGrid(_ low: Float, _ high: Float) -> Float { Shape.onGrid(Double(low + (high - low) * random.unit())) }
        let color = RGBA(random.unit(), random.unit(), random.unit(), 0.3 + 0.7 * random.unit())
        let other = RGBA(random.unit(), random.unit(), random.unit(), color.a)
        let rect = Rect(x: onGrid(60, 120), y: onGrid(2, 30), width: onGrid(0.5, 60), height: onGrid(0.5, 14))
        // At most half the width and height, on the grid (as the roll's are): a larger radius
        // is clamped to a half-width or half-height, which may be off it (then never shifted).
        let radius = (min(6, rect.width / 2, rect.height / 2) * 256 * random.unit()).rounded(.down) / 256
        switch random.below(4) {
        case 0: return .rect(rect, color)
        case 1:
            let x = onGrid(60, 120)
            return .line(from: Point(x, rect.minY), to: Point(x, rect.maxY), lineWidth: [1, 1.5, 2][Int(random.below(3))], color)
        case 2:
            let rows = Int(rect.minY) + 1, columns = Int(rect.minX) + 2
            let hidden = PixelBox(rows: rows..<max(rows, Int(rect.maxY)), columns: columns..<max(columns, Int(rect.maxX) + 1))
            return .partlyHiddenRoundedRect(rect, radius: radius, top: color, bottom: other, hidden: hidden)
        default:
            return .roundedRect(rect, radius: radius, top: color, bottom: other)
        }
    }

    /// Random shapes, every fourth with a thin note's radius (half its height or width, off
    /// the grid), each moved by `offset(n)` for n in `-most...most`, draw on `canvas()` the
    /// pixels they drew before, moved.
    func expectMovedShapesDrawTheSamePixels(seed: UInt64, most: Int, canvas: () -> Canvas, offset: (Int) -> Shape.Offset) throws {
        var random = SeededNumbers(state: seed)
        for index in 0..<40 {
            var shape = randomShape(&random)
            if index % 4 == 0, case .roundedRect(let rect, _, let top, let bottom) = shape { shape = .roundedRect(rect, radius: 20, top: top, bottom: bottom) }
            let move = offset(Int(random.below(UInt64(2 * most + 1))) - most)
            let moved = try #require(shape.shifted(by: move), "\(shape)")
            var here = canvas(), there = canvas()
            here.draw(shape, fonts: .empty(canvasSide: 48))
            there.draw(moved, fonts: .empty(canvasSide: 48))
            for y in 0..<here.height where (0..<there.height).contains(y + move.dy) {
                for x in 0..<here.width where (0..<there.width).contains(x + move.dx) {
                    guard here[x, y] == there[x + move.dx, y + move.dy] else {
                        Issue.record("\(shape) moved by \(move): pixel (\(x), \(y)) differs")
                        return
                    }
                }
            }
        }
    }

    @Test(arguments: 1...6 as ClosedRange<UInt64>)
    func aShapeMovedByWholePixelsDrawsTheSamePixelsMoved(seed: UInt64) throws {
        try expectMovedShapesDrawTheSamePixels(seed: seed, most: 50, canvas: { striped() }, offset: { Shape.Offset(dx: $0, dy: 0) })
    }

    /// Down, as the keyboard's notes move, on a transparent layer (a column of the backdrop is
    /// not one colour, so a layer is what moves).
    @Test(arguments: 1...4 as ClosedRange<UInt64>)
    func aShapeMovedDownByWholePixelsDrawsTheSamePixelsMoved(seed: UInt64) throws {
        try expectMovedShapesDrawTheSamePixels(
            seed: seed, most: 20, canvas: { Canvas.transparent(width: 240, height: 48) }, offset: { Shape.Offset(dx: 0, dy: $0) })
    }

    /// `isShape(_:shiftedBy:)`, which spares making the moved shape, answers as comparing with
    /// `shifted(by:)` does: for the shape moved, and for it moved with one thing changed (its
    /// place, colour, radius or hidden box), or for another shape.
    @Test func isShapeShiftedAnswersAsShiftedDoes() {
        var random = SeededNumbers(state: 23)
        func changed(_ shape: Shape) -> Shape {
            let step: Float = [1.0 / 256, 1, -2][Int(random.below(3))]
            switch (shape, random.below(4)) {
            case (.roundedRect(let rect, let radius, let top, let bottom), 0):
                return .roundedRect(Rect(x: rect.minX, y: rect.minY + step, width: rect.width, height: rect.height), radius: radius, top: top, bottom: bottom)
            case (.roundedRect(let rect, let radius, let top, _), 1): return .roundedRect(rect, radius: radius, top: top, bottom: RGBA(0, 0, 0))
            case (.roundedRect(let rect, let radius, let top, let bottom), _): return .roundedRect(rect, radius: radius + step, top: top, bottom: bottom)
            case (.partlyHiddenRoundedRect(let rect, let radius, let top, let bottom, let hidden), 0):
                return .partlyHiddenRoundedRect(
                    Rect(x: rect.minX + step, y: rect.minY, width: rect.width, height: rect.height), radius: radius, top: top, bottom: bottom, hidden: hidden)
            case (.partlyHiddenRoundedRect(let rect, let radius, let top, let bottom, let hidden), 1):
                return .partlyHiddenRoundedRect(rect, radius: radius, top: bottom, bottom: top, hidden: hidden)
            case (.partlyHiddenRoundedRect(let rect, let radius, let top, let bottom, let hidden), 2):
                let taller = PixelBox(rows: hidden.rows.lowerBound..<hidden.rows.upperBound + 1, columns: hidden.columns)
                return .partlyHiddenRoundedRect(rect, radius: radius, top: top, bottom: bottom, hidden: taller)
            case (.partlyHiddenRoundedRect(let rect, let radius, let top, let bottom, let hidden), _):
                let wider = PixelBox(rows: hidden.rows, columns: hidden.columns.lowerBound..<hidden.columns.upperBound + 1)
                return .partlyHiddenRoundedRect(rect, radius: radius, top: top, bottom: bottom, hidden: wider)
            default: return randomShape(&random)
            }
        }
        var agreed = (same: 0, different: 0)
        for _ in 0..<2000 {
            let shape = randomShape(&random)
            let offset = random.below(2) == 0 ? Shape.Offset(dx: Int(random.below(41)) - 20, dy: 0) : Shape.Offset(dx: 0, dy: Int(random.below(41)) - 20)
            guard let moved = shape.shifted(by: offset) else {
                #expect(!shape.isShape(shape, shiftedBy: offset))
                continue
            }
            for candidate in [moved, changed(moved), randomShape(&random)] {
                let same = shape.isShape(candidate, shiftedBy: offset)
                #expect(same == (moved == candidate), "\(shape) by \(offset) against \(candidate)")
                if same { agreed.same += 1 } else { agreed.different += 1 }
            }
        }
        #expect(agreed.same > 1000 && agreed.different > 1000, "\(agreed)")
    }

    @Test func shapesOffTheGridOrNotMovableStayUnmoved() {
        let color = RGBA(1, 1, 1)
        #expect(Shape.roundedRect(Rect(x: 10.3, y: 0, width: 8, height: 8), radius: 2, top: color, bottom: color).shifted(by: 4) == nil)
        #expect(Shape.roundedRect(Rect(x: 10.5, y: 0, width: 8, height: 8), radius: 2.1, top: color, bottom: color).shifted(by: 4) == nil)
        #expect(Shape.roundedRect(Rect(x: 10.5, y: 0, width: 8, height: 8), radius: 2, top: color, bottom: color).shifted(by: 4) != nil)
        #expect(Shape.glow(center: Point(10, 10), radius: 5, hole: 0, color).shifted(by: 4) == nil)
        #expect(Shape.text(.number(3), .small, center: Point(10, 10), color).shifted(by: 4) == nil)
    }

    let area = ScrollArea(columns: 40..<240, height: 48, pixelsPerSecond: 60)

    func found(_ previous: [Shape], _ new: [Shape], shift: Int) -> ScrolledShapes {
        let fonts = TextFonts.empty(canvasSide: 48)
        var scrolled = ScrolledShapes(width: 240, height: 48)
        scrolled.find(
            previous: previous, previousRegions: previous.map { $0.bounds(fonts: fonts) }, new: new,
            newRegions: new.map { $0.bounds(fonts: fonts) }, area: area, shift: shift)
        return scrolled
    }

    func note(_ x: Float, _ color: RGBA = RGBA(1, 0.5, 0)) -> Shape {
        .roundedRect(Rect(x: x, y: 10, width: 20, height: 8), radius: 2, top: color, bottom: color)
    }

    let playhead = Shape.rect(Rect(x: 100, y: 0, width: 2, height: 48), RGBA(1, 1, 1, 0.5))
    let key = Shape.rect(Rect(x: 2, y: 10, width: 30, height: 8), RGBA(1, 1, 1))

    @Test func shapesMovedWithTheMusicStayWhereTheyWereMoved() {
        let scrolled = found([note(200), key, playhead], [note(196), key, playhead], shift: 4)
        #expect(scrolled.keptNew == [true, true, false], "the note moved, the key stayed; the playhead stood still over moving pixels")
        // The playhead is drawn again where it is and where its old pixels went; the note's
        // tiles are left alone, and so is the key beside the area.
        #expect(scrolled.dirty.touches(Rect(x: 100, y: 20, width: 1, height: 1)))
        #expect(scrolled.dirty.touches(Rect(x: 97, y: 20, width: 1, height: 1)))
        #expect(!scrolled.dirty.touches(Rect(x: 200, y: 12, width: 8, height: 4)))
        #expect(!scrolled.dirty.touches(Rect(x: 8, y: 12, width: 8, height: 4)))
        // The strip the move uncovered at the area's end.
        #expect(scrolled.dirty.touches(Rect(x: 237, y: 40, width: 1, height: 1)))
    }

    /// Moving down (the keyboard's layer): a note moved down is kept, as is a shape below the
    /// rows that show, and the rows the move uncovers at the top are drawn anew.
    @Test func shapesMovedDownStayAndTheTopRowsAreDrawnAgain() {
        let fonts = TextFonts.empty(canvasSide: 48)
        let down = ScrollArea(showing: 8..<40, width: 240, height: 48, pixelsPerSecond: 60)
        let color = RGBA(1, 0.5, 0)
        func fallingNote(_ y: Float) -> Shape { .roundedRect(Rect(x: 100, y: y, width: 20, height: 8), radius: 2, top: color, bottom: color) }
        func below(_ y: Float) -> Shape { .rect(Rect(x: 2, y: y, width: 30, height: 2), RGBA(1, 1, 1)) }
        var scrolled = ScrolledShapes(width: 240, height: 48)
        let previous = [fallingNote(12), below(41)], new = [fallingNote(16), below(45)]
        scrolled.find(
            previous: previous, previousRegions: previous.map { $0.bounds(fonts: fonts) }, new: new,
            newRegions: new.map { $0.bounds(fonts: fonts) }, area: down, shift: 4)
        #expect(scrolled.keptNew == [true, true])
        #expect(scrolled.dirty.touches(Rect(x: 200, y: 2, width: 1, height: 1)), "the uncovered rows at the layer's top")
        #expect(!scrolled.dirty.touches(Rect(x: 200, y: 24, width: 1, height: 1)))
        #expect(!scrolled.dirty.touches(Rect(x: 104, y: 18, width: 8, height: 4)))
        // Moved by another amount: drawn again, where it is and where its old pixels went.
        scrolled.find(
            previous: previous, previousRegions: previous.map { $0.bounds(fonts: fonts) }, new: [fallingNote(15), below(45)],
            newRegions: [fallingNote(15), below(45)].map { $0.bounds(fonts: fonts) }, area: down, shift: 4)
        #expect(scrolled.keptNew == [false, true])
        #expect(scrolled.dirty.touches(Rect(x: 104, y: 25, width: 1, height: 1)))
    }

    @Test func aShapeThatChangesOrCrossesTheAreasEdgeIsDrawnAgain() {
        // Lit as it crosses: both where it went and where it is.
        let lit = found([note(200)], [note(196, RGBA(1, 1, 1))], shift: 4)
        #expect(lit.keptNew == [false])
        #expect(lit.dirty.touches(Rect(x: 210, y: 12, width: 1, height: 1)))
        // Moved by another amount.
        #expect(found([note(200)], [note(195)], shift: 4).keptNew == [false])
        // Across the edge of the area (clipped by the layout in truth): never kept.
        #expect(found([note(40)], [note(36)], shift: 4).keptNew == [false])
        // Gone from the new frame: its pixels, moved into the tile on the left, are put back.
        let gone = found([.rect(Rect(x: 130, y: 20, width: 2, height: 4), RGBA(1, 1, 1))], [], shift: 8)
        #expect(gone.dirty.touches(Rect(x: 123, y: 21, width: 1, height: 1)))
        // In another order, overlapping: only one of the two can keep its place in the order.
        #expect(found([note(150), note(160)], [note(156), note(146)], shift: 4).keptNew.filter { $0 }.count == 1)
    }

    /// A dense song scrolling past: 4000 notes of 0.2 s over two octaves within 4 s.
    func denseSong() -> Song {
        var random = SeededNumbers(state: 11)
        let notes = (0..<4000).map { _ -> Note in
            let start = Double.random(in: 0..<4, using: &random)
            return Note(
                startSeconds: start, endSeconds: start + 0.2, pitch: UInt8.random(in: 48...72, using: &random),
                velocity: UInt8.random(in: 30...127, using: &random), channel: 0, track: 0)
        }.sorted { $0.startSeconds < $1.startSeconds }
        return Song(
            format: 0, division: .ticksPerQuarter(96), endTick: 768, durationSeconds: 4.2,
            tracks: [TrackSummary(name: nil, noteCount: notes.count, channels: [0], programs: [])],
            notes: notes, tempoChanges: [], timeSignatures: [], keySignatures: [], synthEvents: [], warnings: [])
    }

    /// Frames one, two or three apart (as workers take them), a jump back and a jump ahead:
    /// each is the frame drawn alone, and most of the small steps draw little of it anew and
    /// make fewer shapes. The keyboard's notes are on a layer (a dense song).
    @Test(arguments: [(RenderSettings.Style.roll, false), (.roll, true), (.keyboard, false), (.keyboard, true)])
    func scrolledFramesAreTheFramesDrawnAlone(style: RenderSettings.Style, effects: Bool) {
        var settings = RenderSettings.forTesting
        settings.style = style
        settings.effects = effects
        settings.grid = true
        // A title band: the notes' area starts below the top of the frame. The keyboard's
        // notes then fall 192 pixels: in 3.2 s, 2 pixels a frame.
        settings.title = "Dense"
        if style == .keyboard { settings.window = 3.2 }
        let renderer = FrameRenderer(scene: Scene(song: denseSong(), settings: settings), fonts: .empty(canvasSide: settings.textSide))
        var sequence = renderer.makeWorkspace()
        let frames = Array(40..<60) + Array(stride(from: 60, to: 80, by: 2)) + Array(stride(from: 80, to: 100, by: 3)) + [50, 51, 120, 122]
        var littleAnew = 0, fewer = 0
        for frame in frames {
            renderer.render(frame: frame, in: &sequence)
            var alone = renderer.makeWorkspace()
            renderer.render(frame: frame, in: &alone)
            #expect(sequence.canvas.pixels == alone.canvas.pixels, "frame \(frame)")
            if sequence.movedLastFrame && sequence.scrolledDirtyFraction < 0.5 {
                littleAnew += 1
                // The notes lying where nothing is drawn anew are not made (`NotesDrawn.lying`).
                if sequence.shapeCount < alone.shapeCount { fewer += 1 }
            }
        }
        #expect(littleAnew > frames.count / 2, "\(littleAnew) of \(frames.count) frames moved and drew less than half anew")
        #expect(fewer == littleAnew, "\(fewer) of \(littleAnew) frames drawn mostly moved made fewer shapes than drawn alone")
    }

    /// A dense roll with drums, a pedal held and let up, sparks and track colours, with note
    /// names and without: frames drawn over the one before moved, making only the notes that
    /// changed and those lying where the frame is drawn anew (`FrameRenderer.renderMoving`), are
    /// the frames drawn alone, and most of them make fewer shapes (at this small size a third of
    /// the frame is drawn anew). Without names, the notes sliding under the keys draw nothing
    /// anew: the notes' first column of tiles is dirty in under half its bands in moved frames
    /// (where what the pedal holds is cut at the keys: 44 %), where a note gone under the keys
    /// made it dirty too (59 %). Without names and the pedal the frame goes through only the
    /// notes a move can change (`RollLayout.movingCandidates`), long notes and drum hits among
    /// them.
    @Test(arguments: [(false, true, true), (true, true, true), (false, false, true), (true, false, false), (false, false, false)])
    func aDenseRollMakesOnlyWhatChangedAndDrawsTheFramesDrawnAlone(effects: Bool, names: Bool, pedal held: Bool) {
        var random = SeededNumbers(state: 29)
        let dense = denseSong()
        let drums = (0..<300).map { _ -> Note in
            let start = Double.random(in: 0..<4, using: &random)
            return Note(startSeconds: start, endSeconds: start + 0.1, pitch: UInt8.random(in: 35...50, using: &random), velocity: 100, channel: 9, track: 1)
        }
        // Long notes too: crossing the playhead for seconds, one longer than the window.
        let long = (0..<8).map { (step: Int) -> Note in
            let start = Double(step) * 0.5, length = 1.5 + Double(step)
            return Note(startSeconds: start, endSeconds: start + length, pitch: UInt8(50 + 2 * step), velocity: 80, channel: 0, track: 0)
        }
        let notes = (dense.notes + drums + long).sorted { $0.startSeconds < $1.startSeconds }
        let pedal = held ? [(0.5, 127), (1.4, 0), (2.0, 127), (3.1, 0)].map { TimedMessage(seconds: $0.0, bytes: [0xB0, 64, UInt8($0.1)]) } : []
        let song = Song(
            format: 1, division: .ticksPerQuarter(96), endTick: 768, durationSeconds: 4.2,
            tracks: [
                TrackSummary(name: nil, noteCount: dense.notes.count + long.count, channels: [0], programs: []),
                TrackSummary(name: nil, noteCount: drums.count, channels: [9], programs: []),
            ],
            notes: notes, tempoChanges: [], timeSignatures: [], keySignatures: [], synthEvents: pedal, warnings: [])
        var settings = RenderSettings.forTesting
        (settings.style, settings.effects, settings.grid, settings.colorBy) = (.roll, effects, true, .track)
        settings.labels = names ? .names : .off
        let scene = Scene(song: song, settings: settings)
        let renderer = FrameRenderer(scene: scene, fonts: .empty(canvasSide: settings.textSide))
        var sequence = renderer.makeWorkspace()
        let frames = Array(20..<70) + Array(stride(from: 70, to: 110, by: 2)) + [60, 61, 130, 131]
        var fewer = 0
        var (bands, dirtyBands) = (0, 0)
        for frame in frames {
            renderer.render(frame: frame, in: &sequence)
            var alone = renderer.makeWorkspace()
            renderer.render(frame: frame, in: &alone)
            #expect(sequence.canvas.pixels == alone.canvas.pixels, "frame \(frame)")
            if sequence.shapesArePartial && sequence.shapeCount < alone.shapeCount { fewer += 1 }
            if sequence.shapesArePartial, let area = scene.scrollArea {
                for band in 0..<(settings.height / ChangedTiles.tileHeight) {
                    bands += 1
                    let pixel = Rect(x: Float(area.columns.lowerBound), y: Float(band * ChangedTiles.tileHeight), width: 1, height: 1)
                    if sequence.scrolled.dirty.touches(pixel) { dirtyBands += 1 }
                }
            }
        }
        #expect(fewer > frames.count / 2, "\(fewer) of \(frames.count) frames made fewer shapes than drawn alone")
        if !names { #expect(dirtyBands * 2 < bands, "the notes' first tiles dirty in \(dirtyBands) of \(bands) bands") }
    }

    /// A roll frame drawn over the one before goes through only some notes
    /// (`RollLayout.movingCandidates`): every note a move changes (`isMoved`, or come into
    /// view) is among them, and every note that left the view. A dense song with notes held for
    /// minutes (their bars' left ends beyond the grid's reach, or a bar too long for it coming
    /// in), at 30 and 60 fps, frames one to three apart; with drums (their hits flash at the
    /// playhead, come in and leave as the bars do) and without.
    @Test(arguments: [(30, false), (60, false), (30, true), (60, true)])
    func theNotesAMoveChangesAreAllGoneThrough(fps: Int, withDrums: Bool) throws {
        var random = SeededNumbers(state: 37)
        let dense = denseSong().notes.map { note in
            var note = note
            (note.startSeconds, note.endSeconds) = (note.startSeconds + 296, note.endSeconds + 296)
            return note
        }
        let drums = (0..<(withDrums ? 300 : 0)).map { _ -> Note in
            let start = 296 + Double.random(in: 0..<4, using: &random)
            return Note(startSeconds: start, endSeconds: start + 0.1, pitch: UInt8.random(in: 35...50, using: &random), velocity: 100, channel: 9, track: 1)
        }
        let held =
            (0..<6).map { Note(startSeconds: Double($0), endSeconds: 297 + Double($0), pitch: UInt8(50 + $0), velocity: 90, channel: 0, track: 0) }
            + [Note(startSeconds: 299.5, endSeconds: 700, pitch: 60, velocity: 90, channel: 0, track: 0)]
        let notes = (dense + drums + held).sorted { $0.startSeconds < $1.startSeconds }
        let song = Song(
            format: 1, division: .ticksPerQuarter(96), endTick: 768, durationSeconds: 710,
            tracks: [
                TrackSummary(name: nil, noteCount: dense.count + held.count, channels: [0], programs: []),
                TrackSummary(name: nil, noteCount: drums.count, channels: [9], programs: []),
            ],
            notes: notes, tempoChanges: [], timeSignatures: [], keySignatures: [], synthEvents: [], warnings: [])
        var settings = RenderSettings.forTesting
        settings.style = .roll
        settings.frameRate = try #require(FrameRate(numerator: fps, denominator: 1))
        let scene = Scene(song: song, settings: settings)
        let layout = RollLayout(scene: scene)
        let area = try #require(scene.scrollArea)
        let span = RollLayout.visibleSpan(settings: settings)
        var visible = VisibleNotes()
        var checked = 0, fewer = 0
        // The dense notes come in from 290 s; the held ones stop from 297 s.
        for frame in stride(from: 289 * fps, to: 301 * fps, by: 1) {
            for step in 1...3 {
                let earlier = settings.seconds(ofFrame: frame), seconds = settings.seconds(ofFrame: frame + step)
                let shift = try #require(area.shift(from: earlier, to: seconds))
                let candidates = layout.movingCandidates(from: earlier, to: seconds, shift: shift, visible: &visible)
                let now = Set(candidates.now), before = Set(candidates.before)
                if now.count < scene.index.visible(at: seconds).count { fewer += 1 }
                for index in scene.index.visible(at: seconds) {
                    let note = notes[index]
                    guard span(note, note.endSeconds).from > earlier || !layout.isMoved(note, until: note.endSeconds, from: earlier, to: seconds, shift: shift)
                    else { continue }
                    checked += 1
                    #expect(now.contains(index), "frame \(frame) + \(step): \(note)")
                }
                for index in scene.index.visible(at: earlier) where span(notes[index], notes[index].endSeconds).until < seconds {
                    #expect(before.contains(index), "frame \(frame) + \(step): \(notes[index]) left")
                }
            }
        }
        #expect(checked > 1000, "\(checked) notes changed")
        #expect(fewer > 30 * fps, "\(fewer) of \(36 * fps) frames went through fewer notes than are visible")
    }

    /// Notes move by whole pixels a frame (or half pixels: whole ones every second frame) when
    /// that changes `--window` by at most 10 %; a long window on a small frame is kept as asked.
    @Test(arguments: [
        (1920, 1080, 60, 8.0), (1280, 720, 30, 8), (3840, 2160, 60, 8), (480, 270, 30, 8), (1080, 1920, 24, 3), (1920, 1080, 60, 60),
        (480, 270, 30, 60),
    ])
    func rollNotesMoveWholePixelsAFrame(width: Int, height: Int, fps: Int, window: Double) throws {
        var settings = RenderSettings.forTesting
        (settings.width, settings.height, settings.frameRate, settings.style, settings.window) = (width, height, FrameRate(fps), .roll, window)
        let perFrame = RollLayout.pixelsPerFrame(settings: settings)
        let onScreen = RollLayout.onScreenSeconds(settings: settings)
        let area = try #require(Scene(song: denseSong(), settings: settings).scrollArea)
        let oneFrame = area.shift(from: settings.seconds(ofFrame: 100), to: settings.seconds(ofFrame: 101))
        let twoFrames = area.shift(from: settings.seconds(ofFrame: 100), to: settings.seconds(ofFrame: 102))
        if width == 480, window == 60 {
            #expect(abs(onScreen - 60) < 1e-9, "a quarter of a pixel a frame: half a pixel would be 100 % off")
            #expect(oneFrame == nil && twoFrames == nil)
            return
        }
        #expect(abs(onScreen - window) <= 0.1 * window + 1e-9)
        #expect((perFrame * 2).rounded() == perFrame * 2, "whole or half pixels: \(perFrame)")
        #expect(twoFrames == Int(2 * perFrame))
        #expect(oneFrame == (perFrame.rounded() == perFrame ? Int(perFrame) : nil))
        #expect(area.shift(from: 1.0, to: 1.0 + 0.5 / area.pixelsPerSecond) == nil, "half a pixel is not whole pixels")
    }

    /// A roll with no room for notes (24 pixels wide: all keyboard) and one turned upright by
    /// `--direction` keep the window asked (the lead-in is worked out from the frame's width,
    /// the upright layout from the notes area's height): both draw, and the first frame of the
    /// upright one shows no note yet.
    @Test func aRollWithNoRoomOrTurnedUprightKeepsItsWindow() throws {
        var settings = RenderSettings.forTesting
        (settings.style, settings.width, settings.height) = (.roll, 24, 24)
        #expect(RollLayout.onScreenSeconds(settings: settings) == settings.windowSeconds)
        #expect(settings.leadInSeconds.isFinite)
        var renderer = FrameRenderer(scene: Scene(song: denseSong(), settings: settings), fonts: .empty(canvasSide: settings.textSide))
        var workspace = renderer.makeWorkspace()
        renderer.render(at: 1, in: &workspace)

        (settings.width, settings.height, settings.frameRate, settings.window) = (1280, 720, FrameRate(30), 7)
        for direction in [RenderSettings.Direction.up, .down] {
            settings.direction = direction
            #expect(RollLayout.onScreenSeconds(settings: settings) == 7)
            let scene = Scene(song: denseSong(), settings: settings)
            #expect(scene.scrollArea == nil)
            renderer = FrameRenderer(scene: scene, fonts: .empty(canvasSide: settings.textSide))
            workspace = renderer.makeWorkspace()
            renderer.render(at: -settings.leadInSeconds, in: &workspace)
            var empty = renderer.makeWorkspace()
            renderer.render(at: -100, in: &empty)
            #expect(workspace.canvas.pixels == empty.canvas.pixels, "\(direction): no note on the first frame")
        }
    }

    /// The keyboard's notes fall whole or half pixels a frame in a dense song, at most 10 %
    /// faster than `--window` asks and never slower; in other songs exactly as asked.
    @Test(arguments: [(1920, 1080, 60), (1280, 720, 30), (3840, 2160, 60), (480, 270, 30), (1080, 1920, 24)])
    func denseKeyboardNotesFallWholePixelsAFrame(width: Int, height: Int, fps: Int) throws {
        var settings = RenderSettings.forTesting
        (settings.width, settings.height, settings.frameRate, settings.style) = (width, height, FrameRate(fps), .keyboard)
        let dense = KeyboardLayout(scene: Scene(song: denseSong(), settings: settings))
        let asked = (dense.keysTop - dense.notesTop) / Float(settings.windowSeconds)
        #expect(dense.movesOnLayer)
        let perFrame = Double(dense.pixelsPerSecond) / Double(fps)
        #expect((perFrame * 2).rounded() == perFrame * 2, "\(perFrame) pixels a frame")
        #expect(dense.pixelsPerSecond >= asked && dense.pixelsPerSecond <= asked * 1.1 + 1e-3)
        let area = try #require(dense.scrollArea)
        #expect(area.motion == .down && area.shownRows == Int(dense.notesTop)..<Int(dense.keysTop) && area.rows == 0..<height)
        var sparse = denseSong()
        sparse.notes = Array(sparse.notes.prefix(100))
        let plain = KeyboardLayout(scene: Scene(song: sparse, settings: settings))
        #expect(!plain.movesOnLayer && plain.scrollArea == nil)
        #expect(plain.pixelsPerSecond == asked)
        // Turned by `--direction`: no layer, so no rounding either.
        settings.direction = .up
        let turned = KeyboardLayout(scene: Scene(song: denseSong(), settings: settings))
        #expect(!turned.movesOnLayer && turned.scrollArea == nil)
    }

    /// A frame is drawn over the layer moved only when every note moved by exactly the layer's
    /// pixels: at whole rates always, at 29.97 fps (where the speed is not a whole number of
    /// 256ths of a pixel a frame) not on the frames where the notes' places drift a 256th off.
    @Test(arguments: [FrameRate(30), FrameRate(numerator: 30000, denominator: 1001)!])
    func theLayerMovesOnlyWhereItsNotesMoveAsMuch(rate: FrameRate) throws {
        var settings = RenderSettings.forTesting
        (settings.width, settings.height, settings.frameRate, settings.style) = (1920, 1080, rate, .keyboard)
        let scene = Scene(song: denseSong(), settings: settings)
        let layout = KeyboardLayout(scene: scene)
        let area = try #require(scene.scrollArea)
        var note = scene.song.notes[0]
        var moved = 0, refused = 0
        var changes: [Shape] = []
        for frame in stride(from: 0, to: 12000, by: 2) {
            let earlier = settings.seconds(ofFrame: frame), later = settings.seconds(ofFrame: frame + 2)
            let shift = try #require(area.shift(from: earlier, to: later))
            changes.removeAll()
            var visible = VisibleNotes()
            let told = layout.appendLayerChanges(from: earlier, to: later, shift: shift, visible: &visible, to: &changes)
            // A note on its way down: a second and a half to go.
            (note.startSeconds, note.endSeconds) = (later + 1.5, later + 1.7)
            let notesMove = layout.noteRect(note, now: later).minY - layout.noteRect(note, now: earlier).minY
            if told {
                moved += 1
                #expect(notesMove == Float(shift), "frame \(frame): the notes moved \(notesMove), the layer \(shift)")
            } else {
                refused += 1
            }
        }
        #expect(moved > 5900)
        if rate.denominator == 1 { #expect(refused == 0) }
    }
}
