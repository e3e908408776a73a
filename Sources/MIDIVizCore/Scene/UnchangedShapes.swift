/// The shapes a frame draws exactly as the workspace's previous frame did, with nothing else
/// drawn or put back near them in either frame: their pixels are right already, so they are
/// neither put back, drawn again nor converted again. Typically the title and the legend, a held
/// chord's name, a lit key. Shapes are matched by value, in the same order among themselves; a
/// shape is near another when they share a tile of `ChangedTiles`, which errs on the safe side.
struct UnchangedShapes: Sendable {
    /// Per shape of the new frame: whether it stays as the previous frame drew it.
    private(set) var keptNew: [Bool] = []
    /// Per shape of the previous frame: whether it stays (and is not put back).
    private(set) var keptPrevious: [Bool] = []
    private var moving: ChangedTiles
    private var indexOfPrevious: [Shape: Int] = [:]
    private var pairs: [(new: Int, previous: Int)] = []

    init(width: Int, height: Int) {
        moving = ChangedTiles(width: width, height: height)
    }

    mutating func find(previous: [Shape], previousRegions: [Rect?], new: [Shape], newRegions: [Rect?]) {
        keptPrevious.removeAll(keepingCapacity: true)
        keptPrevious.append(contentsOf: repeatElement(false, count: previous.count))
        keptNew.removeAll(keepingCapacity: true)
        keptNew.append(contentsOf: repeatElement(false, count: new.count))
        guard !previous.isEmpty, !new.isEmpty else { return }

        // Pairs of equal shapes, in order; a shape the previous frame drew twice pairs with none.
        indexOfPrevious.removeAll(keepingCapacity: true)
        for (index, shape) in previous.enumerated() where indexOfPrevious.updateValue(index, forKey: shape) != nil {
            indexOfPrevious[shape] = -1
        }
        pairs.removeAll(keepingCapacity: true)
        var lastPrevious = -1
        for (index, shape) in new.enumerated() {
            guard let match = indexOfPrevious[shape], match > lastPrevious else { continue }
            pairs.append((index, match))
            lastPrevious = match
            keptNew[index] = true
            keptPrevious[match] = true
        }
        guard !pairs.isEmpty else { return }

        // Everything else moves. A pair near anything moving moves too, and may move others.
        moving.removeAll()
        for (index, region) in previousRegions.enumerated() where !keptPrevious[index] { mark(region) }
        for (index, region) in newRegions.enumerated() where !keptNew[index] { mark(region) }
        var settled = false
        while !settled {
            settled = true
            for pair in pairs where keptNew[pair.new] {
                let region = newRegions[pair.new]
                if let region, !moving.touches(region) { continue }
                keptNew[pair.new] = false
                keptPrevious[pair.previous] = false
                mark(region)
                settled = false
            }
        }
    }

    private mutating func mark(_ region: Rect?) {
        if let region { moving.mark(region) } else { moving.markEverything() }
    }
}
