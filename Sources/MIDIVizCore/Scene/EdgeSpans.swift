/// `Occlusion`'s covered spans by shared edges, for one frame: an open-addressing table with a
/// cheap hash, kept from frame to frame with its spans' storage. A dense frame has a key for
/// nearly every note (the keyboard's notes share their sides, but each has its own top and
/// bottom): a `Dictionary` of arrays hashed each key with SipHash and allocated its spans anew
/// each frame.
struct EdgeSpans: Sendable {
    private var keys: [Occlusion.Edges] = []
    /// For each slot of the table, the index of its spans, or −1.
    private var slots = IndexSlots()
    private var spans: [CoveredSpans] = []
    /// Spans in use this frame: the first `used` of `spans`, their keys the first of `keys`.
    private var used = 0

    /// Forgets every key, ready for about `count` of them.
    mutating func removeAll(expecting count: Int) {
        used = 0
        keys.removeAll(keepingCapacity: true)
        slots.removeAll(expecting: count)
    }

    subscript(index: Int) -> CoveredSpans {
        get { spans[index] }
        _modify { yield &spans[index] }
    }

    /// The index of the spans of `key`, if it has any.
    func existingSpans(for key: Occlusion.Edges) -> Int? {
        guard !slots.isEmpty else { return nil }
        let found = find(key)
        return found.index
    }

    /// The index of the spans of `key`, empty ones made if there were none.
    mutating func spans(for key: Occlusion.Edges) -> Int {
        if 2 * (used + 1) > slots.count { grow() }
        let found = find(key)
        if let index = found.index { return index }
        slots[found.slot] = used
        keys.append(key)
        if used < spans.count { spans[used].removeAll() } else { spans.append(CoveredSpans()) }
        used += 1
        return used - 1
    }

    /// The index of `key`'s spans, or the empty slot where it would go.
    private func find(_ key: Occlusion.Edges) -> (index: Int?, slot: Int) {
        var slot = slots.first(for: Self.hash(key))
        while true {
            let index = slots[slot]
            if index < 0 { return (nil, slot) }
            if keys[index] == key { return (index, slot) }
            slot = slots.next(after: slot)
        }
    }

    private mutating func grow() {
        slots.removeAllAndGrow()
        for (index, key) in keys.enumerated() { slots.insert(index, hash: Self.hash(key)) }
    }

    private static func hash(_ key: Occlusion.Edges) -> Int {
        var value = (UInt64(key.low) | UInt64(key.high) << 32) &* 0x9E37_79B9_7F4A_7C15
        value ^= UInt64(key.radius) &* 0xC2B2_AE3D_27D4_EB4F
        value ^= value >> 29
        return Int(truncatingIfNeeded: value)
    }
}
