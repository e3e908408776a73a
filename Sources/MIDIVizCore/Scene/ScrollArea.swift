/// The part of a frame where everything moves with the music, at whole pixels a frame: the
/// roll's notes area (moving left) or the keyboard's (moving down). The frame before, moved,
/// is most of the next one (`ScrolledShapes`).
package struct ScrollArea: Sendable, Hashable {
    /// Which way things move as time goes on.
    package enum Motion: Sendable, Hashable {
        /// Left, over a backdrop that is the same all along each row of the area: the frame
        /// itself moves.
        case left
        /// Down: the area's shapes are drawn on a transparent layer that moves, laid over the
        /// backdrop (whatever it holds) in every frame.
        case down
    }

    /// The columns and rows that move.
    package let columns: Range<Int>
    package let rows: Range<Int>
    package let motion: Motion
    /// How fast: a moment `seconds` later is this many pixels further along.
    package let pixelsPerSecond: Double
    /// The rows of a layer that show (the rest of the frame is the backdrop's); `rows` for a
    /// frame that moves itself.
    package let shownRows: Range<Int>

    /// Columns moving left, in every row of a frame `height` pixels high.
    package init(columns: Range<Int>, height: Int, pixelsPerSecond: Double) {
        self.columns = columns
        rows = 0..<height
        shownRows = rows
        motion = .left
        self.pixelsPerSecond = pixelsPerSecond
    }

    /// A layer as wide as the frame moving down, whose rows `shownRows` show.
    package init(showing shownRows: Range<Int>, width: Int, height: Int, pixelsPerSecond: Double) {
        columns = 0..<width
        rows = 0..<height
        self.shownRows = shownRows
        motion = .down
        self.pixelsPerSecond = pixelsPerSecond
    }

    /// The first column of the tiles of an area moving left, for a frame whose 4:2:0 planes
    /// move rather than its canvas: its left edge, or the column before it when that edge is
    /// odd, so that every pair of columns sharing a chroma sample lies in one column of tiles.
    var tileOrigin: Int { motion == .left ? columns.lowerBound & ~1 : 0 }

    /// An area moving left whose left edge is odd: the two columns across that edge, which
    /// share a 4:2:0 chroma sample while only the right one moves. A frame whose planes move
    /// draws them anew (`ScrolledShapes`), so that the chroma there is the frame's.
    var oddEdge: Rect? {
        guard motion == .left, columns.lowerBound % 2 != 0 else { return nil }
        return Rect(x: Float(columns.lowerBound - 1), y: Float(rows.lowerBound), width: 2, height: Float(rows.count))
    }

    /// The columns of an area moving left that move as whole pairs of a 4:2:0 frame: from the
    /// first even column in it to the last even column after it.
    var pairedColumns: Range<Int> {
        let lower = (columns.lowerBound + 1) & ~1
        return lower..<max(lower, columns.upperBound & ~1)
    }

    /// How much a speed may change so that things move whole or half pixels a frame: 10 %.
    static let mostSnapped = 0.1

    /// `perFrame` pixels a frame made whole by `rule` (else half a pixel, a whole one every second
    /// frame) when that changes it by at most `mostSnapped`; nil when neither does.
    static func wholeOrHalfPixels(_ perFrame: Double, _ rule: FloatingPointRoundingRule) -> Double? {
        guard perFrame > 0 else { return nil }
        for steps in [1.0, 2.0] {
            let snapped = (perFrame * steps).rounded(rule) / steps
            if snapped > 0, abs(snapped - perFrame) <= mostSnapped * perFrame { return snapped }
        }
        return nil
    }

    /// The pixels along the motion.
    private var length: Int { motion == .left ? columns.count : rows.count }

    /// How many whole pixels things move from a frame at `earlier` to one at `later`; nil when
    /// that is not whole (a frame between frames) or is more than half the area's length (most
    /// of the frame would be new: drawing it whole is cheaper).
    package func shift(from earlier: Double, to later: Double) -> Int? {
        let pixels = (later - earlier) * pixelsPerSecond
        let whole = pixels.rounded()
        guard abs(pixels - whole) < 1e-6, abs(whole) <= Double(length / 2) else { return nil }
        return Int(whole)
    }

    /// Where a shift moves a shape: `shift` pixels left, or down.
    func offset(_ shift: Int) -> Shape.Offset {
        motion == .left ? Shape.Offset(dx: -shift, dy: 0) : Shape.Offset(dx: 0, dy: shift)
    }

    /// Where a shape must lie to move with the area: in it, or for a layer anywhere within
    /// the frame's size around it (a note above the frame comes into it; one that has sunk
    /// into the keys lies below the rows that show).
    var rect: Rect {
        switch motion {
        case .left: Rect(x: Float(columns.lowerBound), y: Float(rows.lowerBound), width: Float(columns.count), height: Float(rows.count))
        case .down: Rect(x: -Float(columns.count), y: -Float(rows.count), width: 3 * Float(columns.count), height: 3 * Float(rows.count))
        }
    }

    /// The strip a move of `shift` uncovers: at the right (moving left) or the top (down);
    /// at the other end for a move back.
    func uncovered(by shift: Int) -> Rect? {
        guard shift != 0 else { return nil }
        let count = Float(min(abs(shift), length))
        switch motion {
        case .left:
            let x = shift > 0 ? Float(columns.upperBound) - count : Float(columns.lowerBound)
            return Rect(x: x, y: Float(rows.lowerBound), width: count, height: Float(rows.count))
        case .down:
            let y = shift > 0 ? Float(rows.lowerBound) : Float(rows.upperBound) - count
            return Rect(x: Float(columns.lowerBound), y: y, width: Float(columns.count), height: count)
        }
    }
}
