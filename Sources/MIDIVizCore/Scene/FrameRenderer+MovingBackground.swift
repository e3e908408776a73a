extension FrameRenderer {
    /// Draws the scene at `seconds` over `background` (a frame of `--background-video`: opaque
    /// pixels, the canvas's size) instead of the still backdrop: the background, then the
    /// style's still shapes (keys, grid; not the gradient), then the moving ones. The whole
    /// canvas changes.
    package func render(at seconds: Double, over background: [UInt32], in workspace: inout FrameWorkspace) {
        precondition(background.count == workspace.canvas.pixels.count, "a background frame of the canvas's size")
        workspace.canvas.pixels = background
        workspace.canvasLags = false
        workspace.moved = nil
        workspace.laidRows.removeAll(keepingCapacity: true)
        scene.makeBackdropShapes(into: &workspace.nextShapes)
        for shape in workspace.nextShapes {
            if case .background = shape { continue }
            workspace.canvas.draw(shape, fonts: fonts)
        }
        scene.makeShapes(at: seconds, into: &workspace.nextShapes)
        // The same glows and the same covered notes left out as over a still backdrop. A dense
        // keyboard's notes are drawn here as an ordinary song's are, not on a layer: clipped at
        // the notes' area, drums under them (a video's frames are drawn whole anyway).
        workspace.glowBudget.limit(&workspace.nextShapes)
        workspace.occlusion.hideCovered(in: &workspace.nextShapes, width: workspace.canvas.width, height: workspace.canvas.height)
        workspace.canvas.draw(workspace.nextShapes, fonts: fonts)
        // Nothing drawn before is left to restore: a later frame without a background redraws all.
        workspace.shapes.removeAll(keepingCapacity: true)
        workspace.drawnRegions = [nil]
        workspace.shapes.append(.background(top: RGBA(0, 0, 0), bottom: RGBA(0, 0, 0)))
        workspace.changed.removeAll()
        workspace.changed.markEverything()
        workspace.previousSeconds = nil
    }
}
