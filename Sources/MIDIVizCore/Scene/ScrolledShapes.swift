/// What a frame of a scrolling style must draw when the frame before it, moved by whole pixels
/// in its `ScrollArea` (left, or down), is already most of it. A shape of the new frame is kept
/// when the previous frame drew the same shape, moved (`Shape.shifted(by:)`) inside the area or
/// in the same place outside it, in the same order among the kept ones. Every other shape, new
/// or previous (where its moved pixels now lie), marks the tiles it touches as dirty, as does
/// the strip the move uncovers. Outside the dirty tiles every pixel is then the moved pixel of
/// the previous frame: the same shapes over it, in the same order, over a backdrop that is the
/// same all along the motion in the area (one colour a row, or a transparent layer). In the
/// dirty tiles the frame is drawn anew.
struct ScrolledShapes: Sendable {
    /// The tiles to draw anew.
    private(set) var dirty: ChangedTiles
    /// The previous frame's shapes, by a cheap hash of where the new frame would draw them.
    private var table = ShapeTable()
    /// Where each previous shape lay.
    private var placements: [Placement] = []
    private enum Placement { case inside, beside, across }
    private var keptPrevious: [Bool] = []
    private(set) var keptNew: [Bool] = []

    init(width: Int, height: Int) {
        dirty = ChangedTiles(width: width, height: height)
    }

    /// Finds the dirty tiles of a frame whose shapes are `new` (in `newRegions`) after one of
    /// `previous` shapes (in `previousRegions`), moved `shift` pixels along `area`. `pairing`:
    /// for a frame whose 4:2:0 planes move instead of its canvas, every tile's columns pair up
    /// as the planes' chroma does (`ScrollArea.tileOrigin`, `ScrollArea.oddEdge`).
    mutating func find(
        previous: [Shape], previousRegions: [Rect?], new: [Shape], newRegions: [Rect?], area: ScrollArea, shift: Int, pairing: Bool = false
    ) {
        // Tiles start at the left edge of an area moving left: what changes beside it marks
        // none of its tiles (paired: but the first, across an odd edge).
        let origin = pairing ? area.tileOrigin : area.motion == .left ? area.columns.lowerBound : 0
        if dirty.columnOrigin != origin { dirty = ChangedTiles(width: dirty.width, height: dirty.height, columnOrigin: origin) }
        dirty.removeAll()
        if pairing, shift != 0, let edge = area.oddEdge { dirty.mark(edge) }
        let inside = area.rect
        let offset = area.offset(shift)
        /// Where a region lies: wholly in the area, wholly beside it, or across its edge (nil).
        func isInside(_ region: Rect?) -> Bool? {
            guard let region else { return nil }
            if inside.contains(region) { return true }
            if region.maxX <= inside.minX || region.minX >= inside.maxX || region.maxY <= inside.minY || region.minY >= inside.maxY { return false }
            return nil
        }
        placements.removeAll(keepingCapacity: true)
        keptPrevious.removeAll(keepingCapacity: true)
        keptPrevious.append(contentsOf: repeatElement(false, count: previous.count))
        keptNew.removeAll(keepingCapacity: true)
        keptNew.append(contentsOf: repeatElement(false, count: new.count))
        table.removeAll(expecting: previous.count)
        for index in previous.indices {
            let placement = isInside(previousRegions[index]).map { $0 ? Placement.inside : .beside } ?? .across
            placements.append(placement)
            switch placement {
            case .inside: table.insert(previous[index], shiftedBy: offset, at: index)
            case .beside: table.insert(previous[index], shiftedBy: Shape.Offset(dx: 0, dy: 0), at: index)
            case .across: break
            }
        }
        /// Whether previous shape `index` is `shape` moved, inside the area (or beside it, not moved).
        func matches(_ index: Int, _ shape: Shape, _ placement: Placement) -> Bool {
            switch placements[index] {
            case .inside: return placement == .inside && previous[index].isShape(shape, shiftedBy: offset)
            case .beside: return placement == .beside && previous[index] == shape
            case .across: return false
            }
        }
        // Most shapes come in the same order as before, one after another: the one after the
        // last kept is tried first, the table for the others (the first after a gap).
        var lastPrevious = -1
        for index in new.indices {
            guard let inside = isInside(newRegions[index]) else { continue }
            let shape = new[index]
            let placement = inside ? Placement.inside : .beside
            let next = lastPrevious + 1
            let match =
                next < previous.count && matches(next, shape, placement)
                ? next : table.firstIndex(hashedLike: shape, after: lastPrevious) { matches($0, shape, placement) }
            guard let match else { continue }
            keptNew[index] = true
            keptPrevious[match] = true
            lastPrevious = match
        }
        // The strip the move uncovers (or, moving back, covers from the other end).
        if let strip = area.uncovered(by: shift) { dirty.mark(strip) }
        let keptPrevious = keptPrevious, keptNew = keptNew
        Self.markChanged(
            in: &dirty, previousRegions: previousRegions, where: { !keptPrevious[$0] }, newRegions: newRegions, where: { !keptNew[$0] }, area: area,
            shift: shift)
    }

    /// Marks as dirty, besides what `find` marked, where shapes of the previous frame drew
    /// (`previousRegions`, where they have moved to) and where shapes of the new one draw
    /// (`newRegions`): shapes known to have changed without being compared.
    mutating func markChanged(previousRegions: [Rect?], newRegions: [Rect?], area: ScrollArea, shift: Int) {
        Self.markChanged(
            in: &dirty, previousRegions: previousRegions, where: { _ in true }, newRegions: newRegions, where: { _ in true }, area: area, shift: shift)
    }

    private static func markChanged(
        in dirty: inout ChangedTiles, previousRegions: [Rect?], where previousChanged: (Int) -> Bool, newRegions: [Rect?],
        where newChanged: (Int) -> Bool, area: ScrollArea, shift: Int
    ) {
        let inside = area.rect
        let offset = area.offset(shift)
        for (index, region) in previousRegions.enumerated() where previousChanged(index) {
            guard let region else {
                dirty.markEverything()
                return
            }
            // Its pixels: inside the area where they have moved to (what took their place is
            // the moved frame's), elsewhere where it drew, and across the area's edge both.
            let isInside = inside.contains(region)
            let isBeside =
                !isInside && (region.maxX <= inside.minX || region.minX >= inside.maxX || region.maxY <= inside.minY || region.minY >= inside.maxY)
            if !isInside { dirty.mark(region) }
            if !isBeside {
                dirty.mark(Rect(x: region.minX + Float(offset.dx), y: region.minY + Float(offset.dy), width: region.width, height: region.height))
            }
        }
        for (index, region) in newRegions.enumerated() where newChanged(index) {
            guard let region else {
                dirty.markEverything()
                return
            }
            dirty.mark(region)
        }
    }
}

/// Shapes by a cheap hash of their kind and place, for `ScrolledShapes`: an open-addressing table
/// of indices into shapes the caller keeps, kept from frame to frame (a `Dictionary` would hash
/// every field of every shape with SipHash, and hold copies of them).
struct ShapeTable: Sendable {
    /// For each slot, the index of a shape, or −1.
    private var slots = IndexSlots()

    mutating func removeAll(expecting count: Int) { slots.removeAll(expecting: count) }

    /// Adds the shape at `index`, as if moved by `offset` (its place, hashed as the moved
    /// shape's would be, whether or not it can move).
    mutating func insert(_ shape: Shape, shiftedBy offset: Shape.Offset, at index: Int) {
        slots.insert(index, hash: Self.hash(shape, shiftedBy: offset))
    }

    /// The first index after `lower` among the shapes hashed like `shape` that `matches`.
    func firstIndex(hashedLike shape: Shape, after lower: Int, where matches: (Int) -> Bool) -> Int? {
        guard !slots.isEmpty else { return nil }
        var slot = slots.first(for: Self.hash(shape, shiftedBy: Shape.Offset(dx: 0, dy: 0)))
        var found: Int? = nil
        while true {
            let index = slots[slot]
            if index < 0 { return found }
            if index > lower, index < (found ?? Int.max), matches(index) { found = index }
            slot = slots.next(after: slot)
        }
    }

    private static func hash(_ shape: Shape, shiftedBy offset: Shape.Offset) -> Int {
        let dx = Float(offset.dx), dy = Float(offset.dy)
        let (kind, x, y): (UInt64, Float, Float)
        switch shape {
        case .background: (kind, x, y) = (1, 0, 0)
        case .rect(let rect, _): (kind, x, y) = (2, rect.minX + dx, (rect.minY + dy) + rect.width)
        case .roundedRect(let rect, _, _, _): (kind, x, y) = (3, rect.minX + dx, (rect.minY + dy) + rect.width)
        case .partlyHiddenRoundedRect(let rect, _, _, _, _): (kind, x, y) = (4, rect.minX + dx, (rect.minY + dy) + rect.width)
        case .circle(let center, _, _): (kind, x, y) = (5, center.x + dx, center.y + dy)
        case .glow(let center, _, _, _): (kind, x, y) = (6, center.x + dx, center.y + dy)
        case .ring(let center, _, _, _): (kind, x, y) = (7, center.x + dx, center.y + dy)
        case .line(let from, let to, _, _): (kind, x, y) = (8, from.x + dx, (from.y + dy) + (to.y + dy))
        case .text(_, _, let center, _, _): (kind, x, y) = (9, center.x + dx, center.y + dy)
        case .lyricLine(_, _, let center): (kind, x, y) = (10, center.x + dx, center.y + dy)
        case .sheet: (kind, x, y) = (11, 0, 0)
        }
        return mix(kind, x, y)
    }

    private static func mix(_ kind: UInt64, _ x: Float, _ y: Float) -> Int {
        // MurmurHash3's finalizer: coordinates on a grid have few low bits set, and every bit
        // of them must reach the low bits that pick a slot.
        var value = UInt64(x.bitPattern) | UInt64(y.bitPattern) << 32
        value ^= kind &* 0x9E37_79B9_7F4A_7C15
        value ^= value >> 33
        value &*= 0xFF51_AFD7_ED55_8CCD
        value ^= value >> 33
        value &*= 0xC4CE_B9FE_1A85_EC53
        value ^= value >> 33
        return Int(truncatingIfNeeded: value)
    }
}
