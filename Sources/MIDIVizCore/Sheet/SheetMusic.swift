import Algorithms

/// Engraved music as one endless system, drawn into coverage tiles as the playhead reaches them,
/// and where each moment of the song is on it. Made before any frame (by `SheetEngraver` in
/// MIDIVizIO) and then only read: a frame crops it under a fixed playhead.
///
/// Memory: one byte a pixel for the few tiles in `tiles`' cache (at 1080p, 324 rows by 4096
/// columns, 1.3 MB a tile, 4 tiles), whatever the piece's length; the whole strip of
/// `bach_847.mid` (3:10) would be about 29 000 columns.
public struct SheetMusic: Sendable, Equatable {
    /// Where a moment of the music is: `quarter` quarter notes after the score's start (as
    /// played: repeats unfolded) is at column `x` of the strip.
    package struct Anchor: Sendable, Equatable {
        package var quarter: Double
        package var x: Double
        /// The reading jumps here (a repeat, an ending): from this column on, wherever it is, not
        /// from the anchor before (the bar line ending the pass before, at the same quarter).
        package var startsPass: Bool
        /// The music ends here (the last bar line played): the page stays where it is after.
        package var endsMusic: Bool

        package init(quarter: Double, x: Double, startsPass: Bool = false, endsMusic: Bool = false) {
            self.quarter = quarter
            self.x = x
            self.startsPass = startsPass
            self.endsMusic = endsMusic
        }
    }

    /// A notehead as played (a repeated bar's heads once per pass): its centre in the strip,
    /// the quarters its note starts and ends at, its half width, and its spelling as engraved
    /// when known.
    package struct Head: Sendable, Equatable {
        package var quarter: Double
        package var x: Double
        package var y: Double
        /// Where the note as written ends (a tied note's first head: where the tie begins).
        package var endQuarter: Double
        package var halfWidth: Double
        package var written: Spelling?

        package init(quarter: Double, x: Double, y: Double, endQuarter: Double? = nil, halfWidth: Double = 0, written: Spelling? = nil) {
            (self.quarter, self.x, self.y, self.written) = (quarter, x, y, written)
            self.endQuarter = endQuarter ?? quarter
            self.halfWidth = halfWidth
        }
    }

    /// A note's letter (0 C ... 6 B) and alteration in semitones, as a score writes it.
    package struct Spelling: Sendable, Hashable {
        package var step: Int
        package var alter: Int

        package init(step: Int, alter: Int) { (self.step, self.alter) = (step, alter) }

        /// The pitch class it sounds, 0 (C) to 11.
        package var pitchClass: Int { ((WrittenNote.stepSemitones[step] + alter) % 12 + 12) % 12 }
    }

    /// The columns of one tile.
    package static let tileColumns = 4096

    /// The strip's width in columns: its tiles'.
    package var width: Int { tiles.width }
    package let height: Int
    /// Coverage, 0 (paper) to 255 (ink): tile `i` holds columns `i * tiles.tileColumns` on, row
    /// by row, drawn when first needed.
    package let tiles: SheetTiles
    /// Note onsets by increasing quarter, their columns increasing within each pass.
    package let anchors: [Anchor]
    /// Half the width of a quarter notehead, in pixels.
    package let noteheadHalfWidth: Double
    /// The noteheads as played, tied-on heads included (each for its own written length), in
    /// time order: where `--labels` writes names, and what is lit while its note sounds.
    package let heads: [Head]
    /// The longest a head's note lasts, in quarters.
    private let longestHead: Double
    /// Where the heads lit change (each head's start and end), increasing: between two, the
    /// same heads are lit.
    private let litChanges: [Double]
    /// A digest of the engraving (its SVG and scale): shapes compare strips by it, not by pixels.
    package let fingerprint: UInt64

    /// - Parameter tiles: the strip's tiles, its width theirs.
    package init(height: Int, tiles: SheetTiles, anchors: [Anchor], noteheadHalfWidth: Double, fingerprint: UInt64, heads: [Head] = []) {
        self.heads = heads.enumerated().sorted { ($0.element.quarter, $0.offset) < ($1.element.quarter, $1.offset) }.map(\.element)
        longestHead = heads.map { $0.endQuarter - $0.quarter }.max() ?? 0
        litChanges = Array(Set(heads.flatMap { [$0.quarter, $0.endQuarter] })).sorted()
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
    /// and after the last at the pace of the nearest two (or 100 columns a quarter), but after
    /// the end of the music where it ends; at a pass's start, a jump.
    package func x(atQuarter quarter: Double) -> Double {
        guard let first = anchors.first, let last = anchors.last else { return quarter * 100 }
        func pace(_ a: Anchor, _ b: Anchor) -> Double { b.quarter > a.quarter ? (b.x - a.x) / (b.quarter - a.quarter) : 100 }
        if anchors.count == 1 { return first.x + (quarter - first.quarter) * 100 }
        if quarter <= first.quarter { return first.x + (quarter - first.quarter) * pace(first, anchors[1]) }
        if quarter >= last.quarter { return last.endsMusic ? last.x : last.x + (quarter - last.quarter) * pace(anchors[anchors.count - 2], last) }
        // The last anchor at or before `quarter`.
        var low = 0, high = anchors.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if anchors[middle].quarter <= quarter { low = middle } else { high = middle }
        }
        let a = anchors[low], b = anchors[high]
        return a.x + (quarter - a.quarter) / (b.quarter - a.quarter) * (b.x - a.x)
    }

    /// The stretch of time at `quarter` in which the same heads are lit: 0 before the first
    /// head, then one more at each head's start or end (a number a frame's shape can hold).
    package func litStretch(atQuarter quarter: Double) -> Int { litChanges.partitioningIndex { $0 > quarter } }

    /// The indices in `heads` of the notes sounding in stretch `stretch` (`litStretch(atQuarter:)`).
    package func headsSounding(inStretch stretch: Int) -> [Int] {
        guard stretch > 0, stretch <= litChanges.count else { return [] }
        return headsSounding(atQuarter: litChanges[stretch - 1])
    }

    /// The indices in `heads` of the notes sounding at `quarter`: started, not yet ended.
    package func headsSounding(atQuarter quarter: Double) -> [Int] {
        // The first head starting after `quarter`; those before it that can still sound.
        var sounding: [Int] = []
        var index = heads.partitioningIndex { $0.quarter > quarter } - 1
        while index >= 0, heads[index].quarter >= quarter - longestHead {
            if heads[index].endQuarter > quarter { sounding.append(index) }
            index -= 1
        }
        return sounding.reversed()
    }

    /// The coverage at column `x`, row `y` (0 outside the strip). One tile look-up a pixel: for
    /// tests; frames take their tiles once (`Canvas.draw(_:music:)`).
    package func coverage(x: Int, y: Int) -> UInt8 {
        guard x >= 0, x < width, y >= 0, y < height else { return 0 }
        let tile = x / tiles.tileColumns
        return tiles.tile(tile)[y * tiles.columns(ofTile: tile) + x - tile * tiles.tileColumns]
    }
}
