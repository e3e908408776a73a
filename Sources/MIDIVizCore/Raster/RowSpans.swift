/// The pixels of many rectangles as bands of rows, each with its spans of columns in order: a
/// pixel lies in a span exactly when it lies in one of the rectangles, or in a gap of at most
/// `bridgedGap` columns between two of them that none of the `kept` rectangles touches. So a
/// row crossed by many narrow rectangles close together (a frame's bars) is one span, not one
/// per rectangle.
struct RowSpans {
    /// A rectangle of whole pixels: columns `x0..<x1`, rows `y0..<y1`.
    struct Box: Equatable {
        var x0: Int, x1: Int, y0: Int, y1: Int

        /// The pixels `rect` touches within a `width` × `height` canvas; nil when none.
        init?(_ rect: Rect, width: Int, height: Int) {
            x0 = max(0, Int(rect.minX.rounded(.down)))
            x1 = min(width, Int(rect.maxX.rounded(.up)))
            y0 = max(0, Int(rect.minY.rounded(.down)))
            y1 = min(height, Int(rect.maxY.rounded(.up)))
            guard x1 > x0, y1 > y0 else { return nil }
        }

        init(x0: Int, x1: Int, y0: Int, y1: Int) {
            (self.x0, self.x1, self.y0, self.y1) = (x0, x1, y0, y1)
        }
    }

    /// Calls `body` for each band of rows with its spans, top to bottom; a band without any is
    /// left out.
    static func forEachBand(
        of boxes: [Box], sparing kept: [Box], bridgedGap: Int, _ body: (_ rows: Range<Int>, _ spans: [Range<Int>]) -> Void
    ) {
        guard !boxes.isEmpty else { return }
        let boxes = boxes.sorted { $0.y0 < $1.y0 }, kept = kept.sorted { $0.y0 < $1.y0 }
        var cuts: [Int] = []
        cuts.reserveCapacity(2 * (boxes.count + kept.count))
        for box in boxes { cuts.append(box.y0); cuts.append(box.y1) }
        for box in kept { cuts.append(box.y0); cuts.append(box.y1) }
        cuts.sort()
        var active: [Box] = [], activeKept: [Box] = [], spans: [Range<Int>] = []
        var nextBox = 0, nextKept = 0
        for (top, bottom) in zip(cuts, cuts.dropFirst()) where bottom > top {
            while nextBox < boxes.count, boxes[nextBox].y0 <= top { active.append(boxes[nextBox]); nextBox += 1 }
            while nextKept < kept.count, kept[nextKept].y0 <= top { activeKept.append(kept[nextKept]); nextKept += 1 }
            active.removeAll { $0.y1 <= top }
            activeKept.removeAll { $0.y1 <= top }
            guard !active.isEmpty else { continue }
            active.sort { $0.x0 < $1.x0 }
            spans.removeAll(keepingCapacity: true)
            var span = active[0].x0..<active[0].x1
            for box in active.dropFirst() {
                let gap = span.upperBound..<max(span.upperBound, box.x0)
                if gap.isEmpty || (gap.count <= bridgedGap && !activeKept.contains { $0.x0 < gap.upperBound && $0.x1 > gap.lowerBound }) {
                    span = span.lowerBound..<max(span.upperBound, box.x1)
                } else {
                    spans.append(span)
                    span = box.x0..<box.x1
                }
            }
            spans.append(span)
            body(top..<bottom, spans)
        }
    }
}
