/// Frames whose moving shapes lie on a layer of their own (`ScrollArea.Motion.down`: the
/// keyboard's falling notes in a dense song). The shapes that fall (`Scene.makeLayeredShapes`)
/// are drawn whole on a transparent layer the size of the frame, in their order; it moves down
/// with the music from frame to frame and only what changed is drawn on it anew
/// (`ScrolledShapes`). Every frame is then the backdrop, the layer's shown rows over it, and the
/// other shapes (keys, glows, sparks, text) over that, in their order. A frame drawn alone
/// draws the whole layer: the same pixels.
extension FrameRenderer {
    func renderLayered(at seconds: Double, in area: ScrollArea, workspace: inout FrameWorkspace) {
        scene.makeLayeredShapes(at: seconds, layer: &workspace.layerShapes, over: &workspace.overShapes)
        workspace.glowBudget.limit(&workspace.overShapes)
        let width = workspace.canvas.width, height = workspace.canvas.height
        // Notes above the frame hide what they will hide once in it.
        workspace.occlusion.hideCovered(in: &workspace.layerShapes, width: width, height: height, rowsAbove: height)
        workspace.layerRegions.removeAll(keepingCapacity: true)
        for shape in workspace.layerShapes { workspace.layerRegions.append(shape.bounds(fonts: fonts)) }
        // Taken out of the workspace while drawn on, so that their pixels are not copied.
        let hadLayer = workspace.layer != nil
        var layer = workspace.layer ?? .transparent(width: width, height: height)
        workspace.layer = nil
        // Moving down only: the layer's rows below those that show never show again, so they
        // are left as they come (a frame back in time is drawn whole).
        let shift = hadLayer ? workspace.previousSeconds.flatMap { area.shift(from: $0, to: seconds) }.flatMap { $0 >= 0 ? $0 : nil } : nil
        if let shift {
            workspace.scrolled.find(
                previous: workspace.shapes, previousRegions: workspace.drawnRegions, new: workspace.layerShapes,
                newRegions: workspace.layerRegions, area: area, shift: shift)
            workspace.scrolled.leaveRows(from: area.shownRows.upperBound)
        }
        if let shift, !Self.isMostlyDirty(workspace.scrolled.dirty) {
            workspace.movedLastFrame = true
            layer.moveRows(area.rows.clamped(to: 0..<layer.height), down: shift)
            redraw(
                workspace.scrolled.dirty, of: &layer, shapes: workspace.layerShapes, regions: workspace.layerRegions,
                scratch: &workspace.scratch, blank: .transparent(width: width, height: height)
            ) { scratch, columns, rows in scratch.clear(columns: columns, rows: rows) }
        } else {
            layer.clear(columns: 0..<layer.width, rows: area.rows.clamped(to: 0..<layer.height))
            layer.draw(workspace.layerShapes, fonts: fonts)
        }
        backdrop.compose(layer, in: area.shownRows, into: &workspace.canvas)
        workspace.layer = layer
        workspace.canvas.draw(workspace.overShapes, fonts: fonts)
        workspace.changed.removeAll()
        workspace.changed.markEverything()
        // What the next frame compares with: the layer's shapes.
        swap(&workspace.shapes, &workspace.layerShapes)
        swap(&workspace.drawnRegions, &workspace.layerRegions)
    }
}
