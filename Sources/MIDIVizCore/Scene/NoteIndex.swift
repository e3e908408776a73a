import Algorithms

/// Finds the notes visible at a time without scanning the song. The notes' visible spans
/// [from, until] are sorted by `from`; a tree over blocks of them keeps the latest `until` of
/// each subtree. A query takes the spans that have begun (a binary search) and descends only
/// into subtrees holding one still visible: its cost follows the notes on screen (times the
/// tree's depth), its memory the number of notes, however long each note lasts.
package struct NoteIndex: Sendable {
    /// Spans scanned one by one at the tree's leaves.
    static let blockSize = 16
    /// Note indices, in order of `from` (then of index).
    private let order: [Int32]
    private let froms: [Double]
    private let untils: [Double]
    /// `tree[1]` is the root; node n has children 2n and 2n + 1; leaf `leafCount + b` covers block b.
    private let latestUntil: [Double]
    private let leafCount: Int

    /// - Parameters:
    ///   - visibleFrom: the time a note comes into view (its start, or earlier in styles that
    ///     show what is coming).
    ///   - visibleUntil: the time a note stops being visible (its end plus a fade).
    package init(notes: [Note], visibleFrom: (Note) -> Double = { $0.startSeconds }, visibleUntil: (Note) -> Double) {
        self.init(count: notes.count, visibleFrom: { visibleFrom(notes[$0]) }, visibleUntil: { visibleUntil(notes[$0]) })
    }

    /// The same, for notes `0..<count` by their index.
    package init(count: Int, visibleFrom: (Int) -> Double, visibleUntil: (Int) -> Double) {
        precondition(count < Int(Int32.max), "too many notes to index")
        var spans: [(from: Double, until: Double, index: Int32)] = []
        spans.reserveCapacity(count)
        var isSorted = true
        for index in 0..<count {
            let from = visibleFrom(index)
            spans.append((from, max(from, visibleUntil(index)), Int32(index)))
            if index > 0 && from < spans[index - 1].from { isSorted = false }
        }
        if !isSorted { spans.sort { ($0.from, $0.index) < ($1.from, $1.index) } }
        order = spans.map(\.index)
        froms = spans.map(\.from)
        untils = spans.map(\.until)
        let blocks = (spans.count + Self.blockSize - 1) / Self.blockSize
        var leaves = 1
        while leaves < blocks { leaves *= 2 }
        var tree = [Double](repeating: -.infinity, count: 2 * leaves)
        for block in 0..<blocks {
            tree[leaves + block] = untils[(block * Self.blockSize)..<min(spans.count, (block + 1) * Self.blockSize)].max()!
        }
        for node in stride(from: leaves - 1, through: 1, by: -1) { tree[node] = max(tree[2 * node], tree[2 * node + 1]) }
        latestUntil = tree
        leafCount = leaves
    }

    /// Calls `body` with the index of each note visible at `seconds`, in the order they came into
    /// view (song order, where all notes come into view alike).
    package func forEachVisible(at seconds: Double, _ body: (Int) -> Void) {
        forEachPosition(begunAfter: -.infinity, begunBy: seconds, lastingUntil: seconds) { body(Int(order[$0])) }
    }

    /// The indices `forEachVisible` visits, in its order. A loop over them spares a caller's
    /// closure from copying the values it captures for each note (tens of thousands a frame).
    package func visible(at seconds: Double) -> [Int] {
        var indices: [Int] = []
        forEachVisible(at: seconds) { indices.append($0) }
        return indices
    }

    /// A part of the notes: those whose span has begun after `begunAfter` and by `begunBy`
    /// (`begunAfter < from <= begunBy`) and lasts until `lastingUntil` or later. The notes
    /// visible at a moment are the part whose last two times are that moment.
    package struct Part: Sendable, Hashable {
        package var begunAfter: Double
        package var begunBy: Double
        package var lastingUntil: Double

        package init(begunAfter: Double = -.infinity, begunBy: Double, lastingUntil: Double) {
            self.begunAfter = begunAfter
            self.begunBy = begunBy
            self.lastingUntil = lastingUntil
        }
    }

    /// The indices of the notes in any of `parts`, each once, in the order they came into view.
    package func indices(inAnyOf parts: [Part]) -> [Int] {
        var lists: [[Int32]] = []
        for part in parts {
            var positions: [Int32] = []
            forEachPosition(begunAfter: part.begunAfter, begunBy: part.begunBy, lastingUntil: part.lastingUntil) { positions.append(Int32($0)) }
            lists.append(positions)
        }
        // Each list rises: merged pairwise, without repeats.
        var merged = lists.first ?? []
        for list in lists.dropFirst() {
            var both: [Int32] = []
            both.reserveCapacity(merged.count + list.count)
            var (i, j) = (0, 0)
            while i < merged.count || j < list.count {
                if j == list.count || (i < merged.count && merged[i] < list[j]) {
                    both.append(merged[i])
                    i += 1
                } else {
                    if i < merged.count && merged[i] == list[j] { i += 1 }
                    both.append(list[j])
                    j += 1
                }
            }
            merged = both
        }
        return merged.map { Int(order[Int($0)]) }
    }

    /// Calls `body` with the position (in `order`) of each span that has begun after
    /// `begunAfter` and by `begunBy` and lasts until `lastingUntil` or later, rising.
    private func forEachPosition(begunAfter: Double, begunBy: Double, lastingUntil: Double, _ body: (Int) -> Void) {
        guard begunBy.isFinite, lastingUntil.isFinite, !begunAfter.isNaN, !order.isEmpty else { return }
        // The spans begun in time: froms[first..<begun].
        let begun = froms.partitioningIndex { $0 > begunBy }
        let first = begunAfter == -.infinity ? 0 : froms.partitioningIndex { $0 > begunAfter }
        guard begun > first else { return }
        // The subtrees still to visit, the next on top: node n covers `blocks` blocks from
        // `firstBlock`, left to right. A loop, not a recursion, so that `body` is inlined
        // where it is known (`visible`).
        var pending: [(node: Int, firstBlock: Int, blocks: Int)] = [(1, 0, leafCount)]
        pending.reserveCapacity(2 * leafCount.bitWidth)
        while let (node, firstBlock, blocks) = pending.popLast() {
            guard firstBlock * Self.blockSize < begun, (firstBlock + blocks) * Self.blockSize > first, latestUntil[node] >= lastingUntil else {
                continue
            }
            if blocks == 1 {
                for position in max(first, firstBlock * Self.blockSize)..<min(begun, (firstBlock + 1) * Self.blockSize)
                where untils[position] >= lastingUntil {
                    body(position)
                }
                continue
            }
            let half = blocks / 2
            pending.append((2 * node + 1, firstBlock + half, half))
            pending.append((2 * node, firstBlock, half))
        }
    }
}
