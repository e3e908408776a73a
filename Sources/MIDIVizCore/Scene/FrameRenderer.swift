/// Draws frames of a scene. The parts that never move are drawn once into a backdrop; a frame
/// starts from it and draws the moving shapes over it. Immutable and shareable: each worker
/// brings its own `FrameWorkspace`.
package struct FrameRenderer: Sendable {
    package let scene: Scene
    package let fonts: TextFonts
    let backdrop: Backdrop
    /// Where frames move by whole pixels (nil: they are drawn as they come): the scene's, when
    /// it moves down (on a layer of its own) or the backdrop is the same all along each row of it.
    private let scrollArea: ScrollArea?

    package init(scene: Scene, fonts: TextFonts) {
        self.scene = scene
        var fonts = fonts
        fonts.store = scene.store
        self.fonts = fonts
        let settings = scene.settings
        var backdrop: Canvas
        if let image = settings.backgroundImage, image.width == settings.width, image.height == settings.height {
            backdrop = Canvas(width: image.width, height: image.height, pixels: image.pixels)
        } else if settings.transparent {
            backdrop = .transparent(width: settings.width, height: settings.height)
        } else {
            backdrop = Canvas(width: settings.width, height: settings.height)
        }
        var shapes: [Shape] = []
        scene.makeBackdropShapes(into: &shapes)
        backdrop.draw(shapes, fonts: fonts)
        let still = Backdrop(backdrop)
        self.backdrop = still
        if let area = scene.scrollArea, area.motion == .down || still.isEvenAlongRows(in: area.columns) { scrollArea = area } else { scrollArea = nil }
    }

    /// The rows of the last frame drawn in `workspace` that its canvas does not hold, with the
    /// layer and backdrop they are made of; nil when it holds them all.
    package func laidLayer(of workspace: FrameWorkspace) -> LaidLayer? {
        guard !workspace.laidRows.isEmpty, let layer = workspace.layer else { return nil }
        return LaidLayer(rows: workspace.laidRows, layer: layer, layerTop: workspace.layerTop, backdrop: backdrop.canvas)
    }

    package func makeWorkspace() -> FrameWorkspace {
        FrameWorkspace(canvas: backdrop.canvas)
    }

    /// Draws frame `frameIndex` (0-based) into the workspace's canvas (see
    /// `FrameWorkspace.keepsCanvasWhole`).
    package func render(frame frameIndex: Int, in workspace: inout FrameWorkspace) {
        render(at: scene.settings.seconds(ofFrame: frameIndex), in: &workspace)
    }

    /// Draws the scene at any time, e.g. a poster frame. `workspace.changed` then holds what
    /// differs from the workspace's previous frame (with `workspace.moved`: besides the
    /// columns moved).
    package func render(at seconds: Double, in workspace: inout FrameWorkspace) {
        defer { workspace.previousSeconds = seconds }
        workspace.movedLastFrame = false
        workspace.moved = nil
        workspace.laidRows.removeAll(keepingCapacity: true)
        if let scrollArea, scrollArea.motion == .down {
            renderLayered(at: seconds, in: scrollArea, workspace: &workspace)
            return
        }
        if let scrollArea, scrollArea.motion == .left {
            if renderMoving(at: seconds, in: scrollArea, workspace: &workspace) { return }
            let notes = scene.makeMovingShapes(at: seconds, notes: .all, visible: &workspace.visible, into: &workspace.nextShapes)
            workspace.keepShapesBesideNotes(notes, fonts: fonts)
        } else {
            scene.makeShapes(at: seconds, into: &workspace.nextShapes)
        }
        workspace.glowBudget.limit(&workspace.nextShapes)
        // A scrolling frame (the roll) is mostly the one before it, moved: there what later notes
        // cover changes at the playhead as notes start and stop, and each note whose covered part
        // changed would be drawn anew, so finding it costs more than it saves.
        if scrollArea == nil {
            workspace.occlusion.hideCovered(in: &workspace.nextShapes, width: workspace.canvas.width, height: workspace.canvas.height)
        }
        workspace.nextRegions.removeAll(keepingCapacity: true)
        for shape in workspace.nextShapes { workspace.nextRegions.append(shape.bounds(fonts: fonts)) }
        // After a frame drawn only where it changed (`renderMoving`), what the canvas holds is
        // not all in `shapes`; after one that left the canvas behind, the canvas is not the
        // frame: drawn whole, unless it moves along again without the canvas.
        let shift = scrollArea.flatMap { area in workspace.previousSeconds.flatMap { area.shift(from: $0, to: seconds) } }
        if workspace.shapesArePartial || (workspace.canvasLags && !(scrollArea.map { movesWithoutCanvas(shift, in: $0, workspace) } ?? false)) {
            workspace.shapesArePartial = false
            drawWhole(&workspace)
            swap(&workspace.shapes, &workspace.nextShapes)
            swap(&workspace.drawnRegions, &workspace.nextRegions)
            return
        }
        if let scrollArea, let shift {
            renderScrolled(by: shift, in: scrollArea, workspace: &workspace)
            return
        }
        // A dense frame (many shapes over much more than the canvas) puts the whole backdrop
        // back in one copy and draws everything again: cheaper than a copy per shape and a
        // search for shapes that stay.
        let redrawsAll = Self.isDense(workspace.drawnRegions, canvas: workspace.canvas)
        workspace.unchanged.find(
            previous: redrawsAll ? [] : workspace.shapes, previousRegions: workspace.drawnRegions,
            new: workspace.nextShapes, newRegions: workspace.nextRegions)
        workspace.changed.removeAll()
        if redrawsAll {
            backdrop.restoreAll(in: &workspace.canvas)
            for region in workspace.drawnRegions {
                if let region { workspace.changed.mark(region) } else { workspace.changed.markEverything() }
            }
        } else {
            // Put the backdrop back where the previous frame drew, not over the whole canvas, and
            // not under what stays.
            workspace.restoring.removeAll(keepingCapacity: true)
            workspace.keeping.removeAll(keepingCapacity: true)
            for (index, region) in workspace.drawnRegions.enumerated() {
                if workspace.unchanged.keptPrevious[index] {
                    workspace.keeping.append(region)
                    continue
                }
                guard let region else {
                    backdrop.restoreAll(in: &workspace.canvas)
                    workspace.changed.markEverything()
                    workspace.restoring.removeAll(keepingCapacity: true)
                    break
                }
                workspace.changed.mark(region)
                workspace.restoring.append(region)
            }
            backdrop.restore(workspace.restoring, sparing: workspace.keeping, in: &workspace.canvas)
        }
        for index in workspace.nextShapes.indices where !workspace.unchanged.keptNew[index] {
            if let region = workspace.nextRegions[index] { workspace.changed.mark(region) } else { workspace.changed.markEverything() }
            workspace.canvas.draw(workspace.nextShapes[index], fonts: fonts)
        }
        swap(&workspace.shapes, &workspace.nextShapes)
        swap(&workspace.drawnRegions, &workspace.nextRegions)
    }
}

extension FrameRenderer {
    /// Draws the shapes in `workspace.nextShapes` (their regions in `nextRegions`) over the
    /// previous frame moved `shift` pixels left in `area`: only the tiles `ScrolledShapes`
    /// finds dirty are drawn, on a scratch canvas (`redraw`), and copied.
    private func renderScrolled(by shift: Int, in area: ScrollArea, workspace: inout FrameWorkspace) {
        workspace.scrolled.find(
            previous: workspace.shapes, previousRegions: workspace.drawnRegions, new: workspace.nextShapes,
            newRegions: workspace.nextRegions, area: area, shift: shift, pairing: movesWithoutCanvas(shift, in: area, workspace))
        let dirty = workspace.scrolled.dirty
        // Mostly dirty (a jump of seconds, or everything changing): drawn whole, at once.
        if Self.isMostlyDirty(dirty) {
            drawWhole(&workspace)
        } else {
            drawMoved(dirty, by: shift, in: area, workspace: &workspace)
        }
        swap(&workspace.shapes, &workspace.nextShapes)
        swap(&workspace.drawnRegions, &workspace.nextRegions)
    }

    /// Puts the whole backdrop back and draws every one of `workspace.nextShapes` over it;
    /// `workspace.changed` gets everything.
    private func drawWhole(_ workspace: inout FrameWorkspace) {
        workspace.canvasLags = false
        backdrop.restoreAll(in: &workspace.canvas)
        workspace.canvas.draw(workspace.nextShapes, fonts: fonts)
        workspace.changed.removeAll()
        workspace.changed.markEverything()
    }

    /// Moves the area's columns `shift` pixels left and draws the tiles `dirty` anew with
    /// `workspace.nextShapes` (`redraw`); `workspace.changed` gets those tiles and the area.
    /// When the frame moves without the canvas (`movesWithoutCanvas`), the canvas is not moved:
    /// `workspace.changed` gets only the tiles, and `workspace.moved` the move.
    private func drawMoved(_ dirty: ChangedTiles, by shift: Int, in area: ScrollArea, workspace: inout FrameWorkspace) {
        workspace.movedLastFrame = true
        workspace.scrolledDirtyFraction = dirty.changedFraction
        let withoutCanvas = movesWithoutCanvas(shift, in: area, workspace)
        if !withoutCanvas {
            precondition(!workspace.canvasLags, "a lagging canvas moved")
            workspace.canvas.moveColumns(area.columns, left: shift)
        }
        redraw(
            dirty, of: &workspace.canvas, shapes: workspace.nextShapes, regions: workspace.nextRegions, scratch: &workspace.scratch,
            blank: backdrop.canvas
        ) { scratch, columns, rows in
            let tiles = Rect(x: Float(columns.lowerBound), y: Float(rows.lowerBound), width: Float(columns.count), height: Float(rows.count))
            backdrop.restore(tiles, in: &scratch)
        }
        if withoutCanvas {
            // The tiles start at an even column, so each of their chroma samples lies in them.
            workspace.changed = dirty
            workspace.moved = ColumnMove(columns: area.pairedColumns, left: shift)
            workspace.canvasLags = true
            return
        }
        workspace.changed.removeAll()
        dirty.forEachRectangle { x0, y0, x1, y1 in
            workspace.changed.mark(Rect(x: Float(x0), y: Float(y0), width: Float(x1 - x0), height: Float(y1 - y0)))
        }
        if shift != 0 {
            workspace.changed.mark(
                Rect(x: Float(area.columns.lowerBound), y: 0, width: Float(area.columns.count), height: Float(workspace.canvas.height)))
        }
    }

    /// Whether a frame moved `shift` pixels along `area` leaves the canvas as it is but where it
    /// draws anew (`FrameWorkspace.keepsCanvasWhole`): moving left by whole chroma samples of a
    /// frame of even width.
    func movesWithoutCanvas(_ shift: Int?, in area: ScrollArea, _ workspace: FrameWorkspace) -> Bool {
        guard let shift, !workspace.keepsCanvasWhole, area.motion == .left else { return false }
        return shift % 2 == 0 && workspace.canvas.width % 2 == 0 && area.columns.upperBound % 2 == 0
    }

    /// Draws a frame of a style moving left over the previous one moved, making only the
    /// shapes of the notes that changed (`Scene.makeMovingChanges`) and of those lying in the
    /// tiles that must be drawn anew, with the shapes beside the notes (bar lines, playhead,
    /// keys, overlays) compared with the previous frame's. The pixels are those of
    /// `renderScrolled`: the notes left out draw nothing in the dirty tiles, and the glows
    /// `GlowBudget` sees are the same (every note with a glow is live at the playhead, and
    /// made). False, with the canvas as it was, when this cannot be done: the previous frame's
    /// shapes beside the notes are not known, the style cannot tell what changed, most of the
    /// frame is new, or so few shapes are made that `GlowBudget` might see fewer than it must.
    private func renderMoving(at seconds: Double, in area: ScrollArea, workspace: inout FrameWorkspace) -> Bool {
        guard workspace.knowsShapesBesideNotes, let previous = workspace.previousSeconds, let shift = area.shift(from: previous, to: seconds),
            !workspace.canvasLags || movesWithoutCanvas(shift, in: area, workspace),
            scene.makeMovingChanges(
                from: previous, to: seconds, shift: shift, visible: &workspace.visible, new: &workspace.changedNew, old: &workspace.changedOld),
            let none = scene.makeMovingShapes(at: seconds, notes: .none, visible: &workspace.visible, into: &workspace.nextBeside), none.isEmpty
        else { return false }
        workspace.nextBesideRegions.removeAll(keepingCapacity: true)
        for shape in workspace.nextBeside { workspace.nextBesideRegions.append(shape.bounds(fonts: fonts)) }
        workspace.scrolled.find(
            previous: workspace.beside, previousRegions: workspace.besideRegions, new: workspace.nextBeside,
            newRegions: workspace.nextBesideRegions, area: area, shift: shift, pairing: movesWithoutCanvas(shift, in: area, workspace))
        workspace.scrolled.markChanged(
            previousRegions: workspace.changedOld.map { $0.bounds(fonts: fonts) }, newRegions: workspace.changedNew.map { $0.bounds(fonts: fonts) },
            area: area, shift: shift)
        let dirty = workspace.scrolled.dirty
        guard !Self.isMostlyDirty(dirty) else { return false }
        // The notes touching a dirty tile, and those live at the playhead.
        var markedBefore = [0]
        for marked in dirty.markedColumns { markedBefore.append(markedBefore.last! + (marked ? 1 : 0)) }
        let last = Float(workspace.canvas.width - 1)
        _ = scene.makeMovingShapes(
            at: seconds,
            notes: .lying(tiles: dirty) { region, live in
                guard !live else { return true }
                // The columns first: a cheap test that turns most notes away.
                guard region.maxX >= 0, region.minX <= last, region.minX < region.maxX else { return false }
                let first = dirty.tileColumn(ofPixel: Int(max(0, region.minX))), end = dirty.tileColumn(ofPixel: Int(min(last, region.maxX))) + 1
                return markedBefore[end] > markedBefore[first] && dirty.touches(region)
            }, visible: &workspace.visible, into: &workspace.nextShapes)
        guard workspace.nextShapes.count >= Occlusion.fewestShapes else { return false }
        workspace.glowBudget.limit(&workspace.nextShapes)
        workspace.nextRegions.removeAll(keepingCapacity: true)
        for shape in workspace.nextShapes { workspace.nextRegions.append(shape.bounds(fonts: fonts)) }
        drawMoved(dirty, by: shift, in: area, workspace: &workspace)
        swap(&workspace.shapes, &workspace.nextShapes)
        swap(&workspace.drawnRegions, &workspace.nextRegions)
        workspace.shapesArePartial = true
        swap(&workspace.beside, &workspace.nextBeside)
        swap(&workspace.besideRegions, &workspace.nextBesideRegions)
        return true
    }

    /// Draws the tiles `dirty` of `target` anew: each put back on the scratch canvas by
    /// `putBack` (made from `blank` the first time), every one of `shapes` touching them drawn
    /// there (a note only within the box of the dirty tiles it touches, anything else whole, as
    /// is a shape without a region), and the tiles copied into `target`, `down` rows lower. The
    /// scratch canvas is taken out of the workspace while drawn on, so that its pixels are not
    /// copied.
    func redraw(
        _ dirty: ChangedTiles, of target: inout Canvas, down: Int = 0, shapes: [Shape], regions: [Rect?], scratch: inout Canvas?,
        blank: @autoclosure () -> Canvas, putBack: (_ scratch: inout Canvas, _ columns: Range<Int>, _ rows: Range<Int>) -> Void
    ) {
        var canvas = scratch ?? blank()
        scratch = nil
        dirty.forEachRectangle { x0, y0, x1, y1 in putBack(&canvas, x0..<x1, y0..<y1) }
        // By index: a shape is read (copied out of the array) only when drawn.
        for index in shapes.indices {
            guard let region = regions[index] else {
                canvas.draw(shapes[index], fonts: fonts)
                continue
            }
            // Only the pixels within the dirty tiles it touches are copied: a note is drawn there.
            if let box = dirty.markedBox(touchedBy: region) { canvas.draw(shapes[index], fonts: fonts, within: box) }
        }
        dirty.forEachRectangle { x0, y0, x1, y1 in target.copyPixels(from: canvas, columns: x0..<x1, rows: y0..<y1, down: down) }
        scratch = canvas
    }

    /// The dirty share of the canvas beyond which a scrolled frame is drawn whole: a copy of
    /// the backdrop and every shape drawn once, rather than the dirty tiles on a scratch canvas
    /// (the shapes touching them drawn there) and copied.
    static let mostlyDirty = 0.6

    /// Whether a frame with `dirty` tiles is drawn whole rather than over the one before moved.
    static func isMostlyDirty(_ dirty: ChangedTiles) -> Bool { dirty.isEverything || dirty.changedFraction > mostlyDirty }

    /// Shapes from which a frame may count as dense.
    static let denseShapeCount = 2000

    /// Whether the previous frame drew so many shapes over so much more than the canvas that
    /// putting the whole backdrop back is cheaper than a copy per shape.
    static func isDense(_ regions: [Rect?], canvas: Canvas) -> Bool {
        guard regions.count >= denseShapeCount else { return false }
        let canvasArea = Float(canvas.width * canvas.height)
        var area: Float = 0
        for region in regions {
            guard let region else { return true }
            area += region.width * region.height
            if area > 2 * canvasArea { return true }
        }
        return false
    }
}

/// One worker's canvas and shape buffer, reused for every frame it draws. The canvas holds the
/// last frame drawn (but see `keepsCanvasWhole`) and `shapes` what was drawn over the backdrop
/// in it.
package struct FrameWorkspace: Sendable {
    package internal(set) var canvas: Canvas
    /// Whether the canvas holds the whole of each frame: yes unless set otherwise. No: the
    /// frames go only to a consumer that keeps the previous frame and reads the tiles
    /// `changed` (the yuv420p planes); a frame of the roll moved along then leaves the canvas
    /// as it was but where it drew anew, and `moved` says what of the previous frame that
    /// consumer moves where (a third of the bytes of moving the canvas).
    package var keepsCanvasWhole = true
    /// After a frame that left the canvas behind: the previous frame's columns that move, and
    /// by how much; nil after any other.
    package internal(set) var moved: ColumnMove?
    /// Whether the canvas holds less than the last frame (after a frame with `moved`, or with
    /// `laidRows`).
    var canvasLags = false
    /// Rows of the last frame that the canvas does not hold (a frame on a layer whose canvas
    /// need not be whole): there the frame is the layer laid over the backdrop, for the yuv420p
    /// planes to convert from them (`FrameRenderer.laidLayer(of:)`); empty after any other.
    package internal(set) var laidRows: [Range<Int>] = []
    var shapes: [Shape] = []
    /// Where each of `shapes` drew (nil: anywhere), for the next frame to put the backdrop back.
    var drawnRegions: [Rect?] = []
    /// The next frame's shapes and regions while it is drawn, then swapped with the two above.
    var nextShapes: [Shape] = []
    var nextRegions: [Rect?] = []
    /// Which shapes the next frame can leave as they are.
    var unchanged: UnchangedShapes
    /// What later opaque shapes cover, found anew for each frame.
    var occlusion = Occlusion()
    /// The regions a frame puts the backdrop back over, and those of the shapes it keeps.
    var restoring: [Rect] = []
    var keeping: [Rect?] = []
    var glowBudget = GlowBudget()
    /// The notes visible at the last moments drawn.
    var visible = VisibleNotes()
    /// The moment of the last frame drawn here (nil: none, or not over the still backdrop).
    var previousSeconds: Double?
    /// What a scrolled frame draws anew, and the canvas it draws it on.
    var scrolled: ScrolledShapes
    var scratch: Canvas?
    /// A layered frame's layer (`FrameRenderer+Layer`), twice the frame's height, its row
    /// shown at the frame's top, and its shapes split from the others.
    var layer: Canvas?
    var layerTop = 0
    var layerShapes: [Shape] = []
    var layerRegions: [Rect?] = []
    var overShapes: [Shape] = []
    /// Whether `shapes` holds only what the last frame drew anew (`FrameRenderer.renderMoving`).
    var shapesArePartial = false
    /// A frame moving left: its shapes beside the notes, where they lie, and whether they are
    /// known (a style that cannot tell its notes' shapes from the others).
    var beside: [Shape] = []
    var besideRegions: [Rect?] = []
    var knowsShapesBesideNotes = false
    /// The next frame's, and the notes' shapes that changed: at this frame, and at the one before.
    var nextBeside: [Shape] = []
    var nextBesideRegions: [Rect?] = []
    var changedNew: [Shape] = []
    var changedOld: [Shape] = []

    /// Keeps the shapes beside the notes of `nextShapes`, the notes' shapes lying at `notes`
    /// (nil: not known), for the next frame to compare with.
    mutating func keepShapesBesideNotes(_ notes: Range<Int>?, fonts: TextFonts) {
        beside.removeAll(keepingCapacity: true)
        besideRegions.removeAll(keepingCapacity: true)
        knowsShapesBesideNotes = notes != nil
        guard let notes else { return }
        beside.append(contentsOf: nextShapes[..<notes.lowerBound])
        beside.append(contentsOf: nextShapes[notes.upperBound...])
        for shape in beside { besideRegions.append(shape.bounds(fonts: fonts)) }
    }

    /// The tiles the last frame changed from the frame before it in this workspace (with
    /// `moved`: besides the columns moved).
    package internal(set) var changed: ChangedTiles

    /// How many shapes the last frame made to draw over the backdrop (on a layer: on the layer;
    /// over the layer moved, only those lying where it drew anew).
    package var shapeCount: Int { shapes.count }

    /// What a layered frame draws anew on the layer moved (`FrameRenderer+Layer`).
    var layerDirty: ChangedTiles
    /// The share of the canvas (or of the layer) the last frame drawn over the one before it
    /// moved drew anew (the rest moved), 0...1; a frame drawn whole leaves it as it was.
    package internal(set) var scrolledDirtyFraction = 0.0
    /// Whether the last frame was drawn over the one before it moved.
    package internal(set) var movedLastFrame = false

    init(canvas: Canvas) {
        self.canvas = canvas
        changed = ChangedTiles(width: canvas.width, height: canvas.height)
        unchanged = UnchangedShapes(width: canvas.width, height: canvas.height)
        scrolled = ScrolledShapes(width: canvas.width, height: canvas.height)
        layerDirty = ChangedTiles(width: canvas.width, height: canvas.height)
        shapes.reserveCapacity(1024)
        drawnRegions.reserveCapacity(1024)
        nextShapes.reserveCapacity(1024)
        nextRegions.reserveCapacity(1024)
    }
}
