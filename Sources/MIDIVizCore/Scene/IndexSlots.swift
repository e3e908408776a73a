/// The slots of an open-addressing table with linear probing, kept at most half full: each holds
/// an index into what the table's owner keeps, or −1. `EdgeSpans` and `ShapeTable` hash their
/// keys cheaply and keep their slots from frame to frame.
struct IndexSlots: Sendable {
    private var slots: [Int32] = []

    var isEmpty: Bool { slots.isEmpty }
    var count: Int { slots.count }

    /// Empties every slot, with room for `indices` of them (twice as many slots, at least 64).
    mutating func removeAll(expecting indices: Int) {
        var capacity = max(64, slots.count)
        while capacity < 2 * indices { capacity *= 2 }
        if capacity != slots.count {
            slots = Array(repeating: -1, count: capacity)
        } else {
            slots.withUnsafeMutableBufferPointer { $0.update(repeating: -1) }
        }
    }

    /// Empties every slot and doubles them (at least 64): the owner puts its indices back.
    mutating func removeAllAndGrow() {
        slots = Array(repeating: -1, count: max(64, 2 * slots.count))
    }

    /// The first slot to look in for `hash`.
    func first(for hash: Int) -> Int { hash & (slots.count - 1) }

    /// The slot after `slot`, round the table.
    func next(after slot: Int) -> Int { (slot + 1) & (slots.count - 1) }

    /// The index in `slot`, or −1.
    subscript(slot: Int) -> Int {
        get { Int(slots[slot]) }
        set { slots[slot] = Int32(newValue) }
    }

    /// Puts `index` in the first empty slot from `hash`'s.
    mutating func insert(_ index: Int, hash: Int) {
        var slot = first(for: hash)
        while self[slot] >= 0 { slot = next(after: slot) }
        self[slot] = index
    }
}
