/// Rows of a frame that are a layer laid over a backdrop (premultiplied "over", as
/// `Canvas.compose` lays it), for a consumer to make without the composed rows being written:
/// the yuv420p planes of a dense keyboard's falling notes (`FrameWorkspace.laidRows`).
package struct LaidLayer: Sendable {
    /// In order, apart, each starting and ending at an even row.
    package let rows: [Range<Int>]
    /// The layer (as wide as the frame), whose row `layerTop + y` lies over the frame's row `y`.
    package let layer: Canvas
    package let layerTop: Int
    /// The frame's backdrop.
    package let backdrop: Canvas
}
