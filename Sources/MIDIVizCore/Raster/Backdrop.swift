/// The picture every frame starts from, and how to put it back over what a frame drew. Each row
/// remembers its stretches of one colour (the notes area of a roll is one colour a row, a
/// keyboard's but for its octave lines): there the pixels are written from that colour instead
/// of read from the backdrop, so putting back a vertical line costs no read of a far-away row.
struct Backdrop: Sendable {
    let canvas: Canvas
    /// Every row's runs of one colour, in whole groups of eight pixels from the row's start: the
    /// rows `evenRunRows[y]..<evenRunRows[y + 1]`, in order.
    private let evenRuns: [Canvas.EvenRun]
    private let evenRunRows: [Int]

    /// Runs shorter than this are not worth their bookkeeping.
    static let shortestRun = 32

    init(_ canvas: Canvas) {
        self.canvas = canvas
        var evenRuns: [Canvas.EvenRun] = []
        var evenRunRows = [0]
        evenRunRows.reserveCapacity(canvas.height + 1)
        for y in 0..<canvas.height {
            let row = canvas.pixels[(y * canvas.width)..<((y + 1) * canvas.width)]
            var start = row.startIndex
            while start < row.endIndex {
                var end = start + 1
                while end < row.endIndex, row[end] == row[start] { end += 1 }
                let first = (start - row.startIndex + 7) & ~7, last = (end - row.startIndex) & ~7
                if last - first >= Self.shortestRun { evenRuns.append(Canvas.EvenRun(columns: first..<last, color: row[start])) }
                start = end
            }
            evenRunRows.append(evenRuns.count)
        }
        self.evenRuns = evenRuns
        self.evenRunRows = evenRunRows
    }

    /// The runs of row `y`.
    private func evenRuns(ofRow y: Int) -> ArraySlice<Canvas.EvenRun> { evenRuns[evenRunRows[y]..<evenRunRows[y + 1]] }

    /// Puts the backdrop back over `region` (clipped) of `target`, a canvas of the same size.
    func restore(_ region: Rect, in target: inout Canvas) {
        guard let box = RowSpans.Box(region, width: canvas.width, height: canvas.height) else { return }
        restore(rows: box.y0..<box.y1, spans: CollectionOfOne(box.x0..<box.x1), in: &target)
    }

    /// Gaps between two regions a row's copy runs across, where nothing is kept: one copy
    /// costs less than two.
    static let bridgedGap = 16

    /// Puts the backdrop back over every one of `regions` (clipped), as `restore(_:in:)` one by
    /// one would, each row in one copy where they overlap or lie at most `bridgedGap` pixels
    /// apart with no part of `kept` between them. What a frame drew lies within its regions,
    /// so elsewhere but in what is kept the canvas already is the backdrop: the same pixels.
    /// A narrow region costs a copy per row, each a few pixels of a far-away row; a frame's
    /// 88 bars, one.
    func restore(_ regions: [Rect], sparing kept: [Rect?], in target: inout Canvas) {
        let (width, height) = (canvas.width, canvas.height)
        let boxes = regions.compactMap { RowSpans.Box($0, width: width, height: height) }
        guard let first = boxes.first else { return }
        // Only what is kept beside the rows and columns put back can lie in a gap bridged.
        let reach = boxes.dropFirst().reduce(first) { RowSpans.Box(x0: min($0.x0, $1.x0), x1: max($0.x1, $1.x1), y0: min($0.y0, $1.y0), y1: max($0.y1, $1.y1)) }
        let keptBoxes = kept.compactMap { region -> RowSpans.Box? in
            guard let region else { return reach }
            guard let box = RowSpans.Box(region, width: width, height: height), box.x0 < reach.x1, box.x1 > reach.x0, box.y0 < reach.y1, box.y1 > reach.y0
            else { return nil }
            return box
        }
        RowSpans.forEachBand(of: boxes, sparing: keptBoxes, bridgedGap: Self.bridgedGap) { rows, spans in
            restore(rows: rows, spans: spans, in: &target)
        }
    }

    /// Puts the backdrop back over `spans` (in order, apart, within the canvas) of each of `rows`.
    private func restore(rows: Range<Int>, spans: some Collection<Range<Int>>, in target: inout Canvas) {
        precondition(target.width == canvas.width && target.height == canvas.height, "canvas sizes differ")
        let width = canvas.width
        target.pixels.withUnsafeMutableBufferPointer { target in
            canvas.pixels.withUnsafeBufferPointer { source in
                evenRuns.withUnsafeBufferPointer { runs in
                    for y in rows {
                        let to = target.baseAddress!.advanced(by: y * width), from = source.baseAddress!.advanced(by: y * width)
                        var first = evenRunRows[y]
                        let end = evenRunRows[y + 1]
                        for span in spans {
                            let (x0, x1) = (span.lowerBound, span.upperBound)
                            // Between the runs copied, in them filled.
                            var x = x0
                            while first < end, runs[first].columns.upperBound <= x0 { first += 1 }
                            for run in runs[first..<end] {
                                guard run.columns.lowerBound < x1 else { break }
                                let fillStart = max(x, run.columns.lowerBound), fillEnd = min(x1, run.columns.upperBound)
                                guard fillEnd > fillStart else { continue }
                                Self.copy(to, from, x..<fillStart)
                                if fillEnd - fillStart <= 8 {
                                    for x in fillStart..<fillEnd { to[x] = run.color }
                                } else {
                                    to.advanced(by: fillStart).update(repeating: run.color, count: fillEnd - fillStart)
                                }
                                x = fillEnd
                            }
                            Self.copy(to, from, x..<x1)
                        }
                    }
                }
            }
        }
    }

    /// Whether every row is one colour across `columns`: what moves there moves over the same
    /// backdrop.
    func isEvenAlongRows(in columns: Range<Int>) -> Bool {
        guard !columns.isEmpty, columns.lowerBound >= 0, columns.upperBound <= canvas.width else { return false }
        for y in 0..<canvas.height {
            let row = y * canvas.width
            let first = canvas.pixels[row + columns.lowerBound]
            for x in columns where canvas.pixels[row + x] != first { return false }
        }
        return true
    }

    /// Makes `target` this backdrop with `layer` (from its row `layerTop`) laid over its rows
    /// `rows` (`Canvas.compose(_:from:over:in:)`), each row's runs of one colour taken from the
    /// runs instead of read: a third less memory read per frame. The rows of `laid` (in order,
    /// apart, within `rows`) are left as they are.
    func compose(_ layer: Canvas, from layerTop: Int = 0, in rows: Range<Int>, leaving laid: [Range<Int>] = [], into target: inout Canvas) {
        target.compose(layer, from: layerTop, over: canvas, in: rows, leaving: laid) { y in evenRuns(ofRow: y) }
    }

    /// Puts the whole backdrop back.
    func restoreAll(in target: inout Canvas) {
        target.copyPixels(from: canvas)
    }

    @inline(__always)
    private static func copy(_ to: UnsafeMutablePointer<UInt32>, _ from: UnsafePointer<UInt32>, _ columns: Range<Int>) {
        guard !columns.isEmpty else { return }
        to.advanced(by: columns.lowerBound).update(from: from.advanced(by: columns.lowerBound), count: columns.count)
    }
}
