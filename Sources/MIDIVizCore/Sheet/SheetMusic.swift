/// Engraved music as one endless system, rasterized once into coverage tiles, and where each
/// moment of the song is on it. Made before any frame (by `SheetEngraver` in MIDIVizIO) and
/// then only read: a frame crops it under a fixed playhead.
///
/// Memory: one byte a pixel, `height` × `width` in all (`bach_847.mid`, 3:10, at 1080p: 324 rows
/// by about 29 000 columns, 9.4 MB); `SheetEngraver` refuses more than 1 GB.
public struct SheetMusic: Sendable, Equatable {
    /// Where a moment of the music is: `quarter` quarter notes after the score's start (as
    /// played: repeats unfolded) is at column `x` of the strip.
    package struct Anchor: Sendable, Equatable {
        package var quarter: Double
        package var x: Double
        /// The reading jumps here (a repeat, an ending): from this column on, wherever it is, not
        /// from the anchor before (the bar line ending the pass before, at the same quarter).
        package var startsPass: Bool

        package init(quarter: Double, x: Double, startsPass: Bool = false) {
            self.quarter = quarter
            self.x = x
            self.startsPass = startsPass
        }
    }

    /// The columns of one tile.
    package static let tileColumns = 4096

    package let width: Int
    package let height: Int
    /// Coverage, 0 (paper) to 255 (ink): tile `i` holds columns `i * tileColumns` on, row by row.
    package let tiles: [[UInt8]]
    /// Note onsets by increasing quarter, their columns increasing within each pass.
    package let anchors: [Anchor]
    /// Half the width of a notehead, in pixels: how far around the playhead ink is lit.
    package let noteheadHalfWidth: Double
    /// A digest of the engraving (its SVG and scale): shapes compare strips by it, not by pixels.
    package let fingerprint: UInt64

    package init(width: Int, height: Int, tiles: [[UInt8]], anchors: [Anchor], noteheadHalfWidth: Double, fingerprint: UInt64) {
        self.width = width
        self.height = height
        self.tiles = tiles
        self.anchors = Self.increasing(anchors)
        self.noteheadHalfWidth = noteheadHalfWidth
        self.fingerprint = fingerprint
    }

    public static func == (lhs: SheetMusic, rhs: SheetMusic) -> Bool {
        lhs.fingerprint == rhs.fingerprint && lhs.width == rhs.width && lhs.height == rhs.height && lhs.anchors == rhs.anchors
    }

    /// The anchors sorted by quarter (a pass's end before the next pass's start), keeping only
    /// those further right than every one before in their pass.
    static func increasing(_ anchors: [Anchor]) -> [Anchor] {
        var kept: [Anchor] = []
        let sorted = anchors.sorted { ($0.quarter, $0.startsPass ? 1 : 0) < ($1.quarter, $1.startsPass ? 1 : 0) }
        for anchor in sorted where anchor.quarter.isFinite && anchor.x.isFinite {
            if let last = kept.last {
                if anchor.startsPass ? anchor.quarter < last.quarter : anchor.quarter <= last.quarter || anchor.x <= last.x { continue }
            }
            kept.append(anchor)
        }
        return kept
    }

    /// The column of the strip at `quarter`: between two onsets in proportion, before the first
    /// and after the last at the pace of the nearest two (or 100 columns a quarter); at a pass's
    /// start, a jump.
    package func x(atQuarter quarter: Double) -> Double {
        guard let first = anchors.first, let last = anchors.last else { return quarter * 100 }
        func pace(_ a: Anchor, _ b: Anchor) -> Double { b.quarter > a.quarter ? (b.x - a.x) / (b.quarter - a.quarter) : 100 }
        if anchors.count == 1 { return first.x + (quarter - first.quarter) * 100 }
        if quarter <= first.quarter { return first.x + (quarter - first.quarter) * pace(first, anchors[1]) }
        if quarter >= last.quarter { return last.x + (quarter - last.quarter) * pace(anchors[anchors.count - 2], last) }
        // The last anchor at or before `quarter`.
        var low = 0, high = anchors.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if anchors[middle].quarter <= quarter { low = middle } else { high = middle }
        }
        let a = anchors[low], b = anchors[high]
        return a.x + (quarter - a.quarter) / (b.quarter - a.quarter) * (b.x - a.x)
    }

    /// The coverage at column `x`, row `y` (0 outside the strip).
    package func coverage(x: Int, y: Int) -> UInt8 {
        guard x >= 0, x < width, y >= 0, y < height else { return 0 }
        let tile = x / Self.tileColumns
        let columns = min(Self.tileColumns, width - tile * Self.tileColumns)
        return tiles[tile][y * columns + x - tile * Self.tileColumns]
    }
}
