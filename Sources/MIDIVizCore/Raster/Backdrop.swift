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
        precondition(target.width == canvas.width && target.height == canvas.height, "canvas sizes differ")
        let width = canvas.width
        let x0 = max(0, Int(region.minX.rounded(.down))), x1 = min(width, Int(region.maxX.rounded(.up)))
        let y0 = max(0, Int(region.minY.rounded(.down))), y1 = min(canvas.height, Int(region.maxY.rounded(.up)))
        guard x1 > x0, y1 > y0 else { return }
        target.pixels.withUnsafeMutableBufferPointer { target in
            canvas.pixels.withUnsafeBufferPointer { source in
                evenRuns.withUnsafeBufferPointer { runs in
                    for y in y0..<y1 {
                        let to = target.baseAddress!.advanced(by: y * width), from = source.baseAddress!.advanced(by: y * width)
                        // Between the runs copied, in them filled.
                        var x = x0
                        for run in runs[evenRunRows[y]..<evenRunRows[y + 1]] {
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

    /// Makes `target` this backdrop with `layer` laid over its rows `rows`
    /// (`Canvas.compose(_:over:in:)`), each row's runs of one colour taken from the runs instead
    /// of read: a third less memory read per frame.
    func compose(_ layer: Canvas, in rows: Range<Int>, into target: inout Canvas) {
        target.compose(layer, over: canvas, in: rows) { y in evenRuns(ofRow: y) }
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
