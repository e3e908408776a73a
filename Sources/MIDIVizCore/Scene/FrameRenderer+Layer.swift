/// Frames whose moving shapes lie on a layer of their own (`ScrollArea.Motion.down`: the
/// keyboard's falling notes in a dense song). The shapes that fall (`Scene.makeLayeredShapes`)
/// are drawn whole on a transparent layer as wide as the frame, in their order; it moves down
/// with the music from frame to frame, and only where the style says its falling shapes changed
/// (`Scene.makeLayerChanges`: notes that came or went, started or stopped sounding) is it drawn
/// anew, with only the notes lying there made. Every frame is then the backdrop, the layer's
/// shown rows over it, and the other shapes (keys, glows, sparks, text) over that, in their
/// order. A frame drawn alone draws the whole layer: the same pixels. The layer is twice the
/// frame's height, and the frame shows it from a row that moves up as the notes fall: its
/// pixels are moved only when that row would leave it (once in about a frame's height of
/// falling), not every frame.
extension FrameRenderer {
    func renderLayered(at seconds: Double, in area: ScrollArea, workspace: inout FrameWorkspace) {
        let width = workspace.canvas.width, height = workspace.canvas.height
        // Taken out of the workspace while drawn on, so that their pixels are not copied.
        let hadLayer = workspace.layer != nil
        var layer = workspace.layer ?? .transparent(width: width, height: 2 * height)
        workspace.layer = nil
        // Moving down only: the layer's rows below those that show never show again, so they
        // are left as they come (a frame back in time is drawn whole).
        let earlier = hadLayer ? workspace.previousSeconds : nil
        let shift = earlier.flatMap { area.shift(from: $0, to: seconds) }.flatMap { $0 >= 0 ? $0 : nil }
        var moved = false
        if let earlier, let shift, findLayerChanges(from: earlier, to: seconds, shift: shift, in: area, workspace: &workspace) {
            let dirty = workspace.layerDirty
            let bands = dirty.markedBands
            // The notes lying in no band of dirty tiles are not made. (Those in such a band touch
            // a dirty tile nearly all: testing each tile turns away 3 % more at 1M notes, and
            // costs more than it saves.)
            var bandsAbove = [0]
            for marked in bands { bandsAbove.append(bandsAbove.last! + (marked ? 1 : 0)) }
            let lying = NotesDrawn.lying(tiles: dirty) { region, _ in
                // The rows of pixels `region` touches, within the bands.
                let top = max(0, Int(region.minY.rounded(.down)))
                let bottom = min(bands.count * ChangedTiles.tileHeight, Int(region.maxY.rounded(.up)))
                guard bottom > top else { return false }
                return bandsAbove[(bottom - 1) / ChangedTiles.tileHeight + 1] > bandsAbove[top / ChangedTiles.tileHeight]
            }
            scene.makeLayeredShapes(
                at: seconds, notes: lying, visible: &workspace.visible, layer: &workspace.layerShapes, over: &workspace.overShapes)
            hideCoveredOnLayer(&workspace)
            workspace.layerTop = Self.layerTop(of: &layer, showingFrom: workspace.layerTop, height: height, rowsShown: area.shownRows.upperBound, down: shift)
            redraw(
                dirty, of: &layer, down: workspace.layerTop, shapes: workspace.layerShapes, regions: workspace.layerRegions,
                scratch: &workspace.scratch, blank: .transparent(width: width, height: height)
            ) { scratch, columns, rows in scratch.clear(columns: columns, rows: rows) }
            workspace.movedLastFrame = true
            workspace.scrolledDirtyFraction = dirty.changedFraction
            moved = true
        }
        if !moved {
            scene.makeLayeredShapes(at: seconds, visible: &workspace.visible, layer: &workspace.layerShapes, over: &workspace.overShapes)
            hideCoveredOnLayer(&workspace)
            workspace.layerTop = 0
            layer.clear(columns: 0..<layer.width, rows: area.rows.clamped(to: 0..<height))
            layer.draw(workspace.layerShapes, fonts: fonts)
        }
        workspace.glowBudget.limit(&workspace.overShapes)
        findLaidRows(in: area, workspace: &workspace)
        backdrop.compose(layer, from: workspace.layerTop, in: area.shownRows, leaving: workspace.laidRows, into: &workspace.canvas)
        workspace.canvasLags = !workspace.laidRows.isEmpty
        workspace.layer = layer
        workspace.canvas.draw(workspace.overShapes, fonts: fonts)
        workspace.changed.removeAll()
        workspace.changed.markEverything()
        // What the frame drew on the layer.
        swap(&workspace.shapes, &workspace.layerShapes)
        swap(&workspace.drawnRegions, &workspace.layerRegions)
    }

    /// The layer's row at the frame's top once its pixels have moved down `shift` rows (≥ 0),
    /// from `top`: `shift` rows higher. When that would leave the layer, its rows that show
    /// (the frame's first `rowsShown`) are first moved to the frame's height from its top.
    static func layerTop(of layer: inout Canvas, showingFrom top: Int, height: Int, rowsShown: Int, down shift: Int) -> Int {
        guard top - shift < 0 else { return top - shift }
        let bottom = layer.height - height
        layer.moveRows(top..<(bottom + rowsShown), down: bottom - top)
        return bottom - shift
    }

    /// Marks in `workspace.layerDirty` what the frame at `seconds` draws anew on the layer
    /// drawn at `earlier`, moved down `shift` pixels: the strip the move uncovers and where
    /// the falling shapes changed, in the rows that show or will. False when the style cannot
    /// tell, or so much changed that drawing the layer whole is cheaper.
    private func findLayerChanges(from earlier: Double, to seconds: Double, shift: Int, in area: ScrollArea, workspace: inout FrameWorkspace)
        -> Bool
    {
        guard scene.makeLayerChanges(from: earlier, to: seconds, shift: shift, visible: &workspace.visible, into: &workspace.layerShapes) else {
            return false
        }
        workspace.layerDirty.removeAll()
        if let strip = area.uncovered(by: shift) { workspace.layerDirty.mark(strip) }
        for shape in workspace.layerShapes {
            if let region = shape.bounds(fonts: fonts) { workspace.layerDirty.mark(region) } else { workspace.layerDirty.markEverything() }
        }
        workspace.layerDirty.unmarkRows(from: area.shownRows.upperBound)
        return !Self.isMostlyDirty(workspace.layerDirty)
    }

    /// The shown rows a frame whose canvas need not be whole (`FrameWorkspace.keepsCanvasWhole`)
    /// leaves to the yuv420p planes (`FrameWorkspace.laidRows`): those no shape over the layer
    /// touches, in whole pairs of rows (a 4:2:0 chroma sample's), so that they are converted
    /// straight from the layer and the backdrop without the frame being written and read back
    /// (most of a dense keyboard's frame: its falling notes).
    private func findLaidRows(in area: ScrollArea, workspace: inout FrameWorkspace) {
        workspace.laidRows.removeAll(keepingCapacity: true)
        guard !workspace.keepsCanvasWhole else { return }
        let shown = area.shownRows.clamped(to: 0..<workspace.canvas.height)
        var taken: [Range<Int>] = []
        for shape in workspace.overShapes {
            guard let region = shape.bounds(fonts: fonts) else { return }
            let top = max(shown.lowerBound, Int(region.minY.rounded(.down))), bottom = min(shown.upperBound, Int(region.maxY.rounded(.up)))
            if bottom > top { taken.append((top & ~1)..<((bottom + 1) & ~1)) }
        }
        taken.sort { $0.lowerBound < $1.lowerBound }
        var row = (shown.lowerBound + 1) & ~1
        let end = shown.upperBound & ~1
        for rows in taken + [end..<end] {
            if min(rows.lowerBound, end) > row { workspace.laidRows.append(row..<min(rows.lowerBound, end)) }
            row = max(row, rows.upperBound)
            if row >= end { break }
        }
    }

    /// Leaves out of `workspace.layerShapes` what later notes cover, and finds where each of
    /// the rest draws.
    private func hideCoveredOnLayer(_ workspace: inout FrameWorkspace) {
        let width = workspace.canvas.width, height = workspace.canvas.height
        // Notes above the frame hide what they will hide once in it.
        workspace.occlusion.hideCovered(in: &workspace.layerShapes, width: width, height: height, rowsAbove: height)
        workspace.layerRegions.removeAll(keepingCapacity: true)
        for shape in workspace.layerShapes { workspace.layerRegions.append(shape.bounds(fonts: fonts)) }
    }
}
