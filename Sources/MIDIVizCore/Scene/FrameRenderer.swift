/// Draws frames of a scene. The parts that never move are drawn once into a backdrop; a frame
/// starts from it and draws the moving shapes over it. Immutable and shareable: each worker
/// brings its own `FrameWorkspace`.
public struct FrameRenderer: Sendable {
    public let scene: Scene
    public let fonts: TextFonts
    private let backdrop: Backdrop

    public init(scene: Scene, fonts: TextFonts) {
        self.scene = scene
        self.fonts = fonts
        var backdrop = Canvas(width: scene.settings.width, height: scene.settings.height)
        var shapes: [Shape] = []
        scene.makeBackdropShapes(into: &shapes)
        backdrop.draw(shapes, fonts: fonts)
        self.backdrop = Backdrop(backdrop)
    }

    public func makeWorkspace() -> FrameWorkspace {
        FrameWorkspace(canvas: backdrop.canvas)
    }

    /// Draws frame `frameIndex` (0-based) into the workspace's canvas.
    public func render(frame frameIndex: Int, in workspace: inout FrameWorkspace) {
        render(at: scene.settings.seconds(ofFrame: frameIndex), in: &workspace)
    }

    /// Draws the scene at any time, e.g. a poster frame.
    public func render(at seconds: Double, in workspace: inout FrameWorkspace) {
        // Put the backdrop back where the previous frame drew, not over the whole canvas. A
        // note's shapes follow its glow and lie inside it: one copy covers them all.
        var restored: Rect? = nil
        for shape in workspace.shapes {
            guard let region = shape.bounds(fonts: fonts) else {
                backdrop.restoreAll(in: &workspace.canvas)
                break
            }
            if let restored, restored.contains(region) { continue }
            backdrop.restore(region, in: &workspace.canvas)
            restored = region
        }
        scene.makeShapes(at: seconds, into: &workspace.shapes)
        workspace.canvas.draw(workspace.shapes, fonts: fonts)
    }
}

/// One worker's canvas and shape buffer, reused for every frame it draws. The canvas holds the
/// last frame drawn and `shapes` what was drawn over the backdrop in it.
public struct FrameWorkspace: Sendable {
    public internal(set) var canvas: Canvas
    var shapes: [Shape] = []

    /// How many shapes the last frame drew over the backdrop.
    public var shapeCount: Int { shapes.count }

    init(canvas: Canvas) {
        self.canvas = canvas
        shapes.reserveCapacity(1024)
    }
}
