/// The columns of a frame where everything moves with the music, at whole pixels a frame (the
/// roll's notes area): the frame before, moved sideways, is most of the next one
/// (`ScrolledShapes`).
package struct ScrollArea: Sendable, Hashable {
    /// The columns that move; every row of the frame.
    package let columns: Range<Int>
    /// How fast: a moment `seconds` later is this many pixels further left.
    package let pixelsPerSecond: Double

    /// How many whole pixels things move left from a frame at `earlier` to one at `later`;
    /// nil when that is not whole (a frame between frames) or is more than half the area's
    /// width (most of the frame would be new: drawing it whole is cheaper).
    package func shift(from earlier: Double, to later: Double) -> Int? {
        let pixels = (later - earlier) * pixelsPerSecond
        let whole = pixels.rounded()
        guard abs(pixels - whole) < 1e-6, abs(whole) <= Double(columns.count / 2) else { return nil }
        return Int(whole)
    }
}
