/// `Occlusion`'s covered spans by shared edges, for one frame: an open-addressing table with a
/// cheap hash, kept from frame to frame with its spans' storage. A dense frame has a key for
/// nearly every note (the keyboard's notes share their sides, but each has its own top and
/// bottom): a `Dictionary` of arrays hashed each key with SipHash and allocated its spans anew
/// each frame. Every key's spans lie in one pool, a run each, moved to the pool's end when it
/// outgrows its room: an array per key was a heap object of its own, read cold (a cache miss)
/// each time a frame reused it.
struct EdgeSpans: Sendable {
    private var keys: [Occlusion.Edges] = []
    /// For each slot of the table, the index of its spans, or −1.
    private var slots = IndexSlots()
    /// Each key's run of `pool`: disjoint spans, lowest first, that neither overlap nor touch.
    private var runs: [Run] = []
    private var pool: [Range<Int>] = []
    /// Keys in use this frame: the first `used` of `runs` and of `keys`.
    private var used = 0

    private struct Run {
        var start = 0, count = 0, room = 0
    }

    /// Forgets every key, ready for about `count` of them.
    mutating func removeAll(expecting count: Int) {
        used = 0
        keys.removeAll(keepingCapacity: true)
        slots.removeAll(expecting: count)
        pool.removeAll(keepingCapacity: true)
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
        if used < runs.count { runs[used] = Run() } else { runs.append(Run()) }
        used += 1
        return used - 1
    }

    /// The spans at `index`, lowest first.
    func spans(at index: Int) -> ArraySlice<Range<Int>> {
        let run = runs[index]
        return pool[run.start..<run.start + run.count]
    }

    /// Adds `span` to the spans at `index`, merged with those it overlaps or touches.
    mutating func add(_ span: Range<Int>, at index: Int) {
        guard !span.isEmpty else { return }
        var run = runs[index]
        let (lower, upper, merged) = pool.withUnsafeBufferPointer { pool in
            let end = run.start + run.count
            var lower = run.start
            while lower < end && pool[lower].upperBound < span.lowerBound { lower += 1 }
            var upper = lower, merged = span
            while upper < end && pool[upper].lowerBound <= merged.upperBound {
                merged = min(pool[upper].lowerBound, merged.lowerBound)..<max(pool[upper].upperBound, merged.upperBound)
                upper += 1
            }
            return (lower - run.start, upper - run.start, merged)
        }
        if upper == lower && run.count == run.room {
            // No room for one more: the run moves to the pool's end, with twice the room.
            let start = pool.count, room = max(2, 2 * run.room)
            pool.append(contentsOf: repeatElement(0..<0, count: room))
            pool.withUnsafeMutableBufferPointer { pool in
                for offset in 0..<run.count { pool[start + offset] = pool[run.start + offset] }
            }
            run.start = start
            run.room = room
        }
        pool.withUnsafeMutableBufferPointer { pool in
            let spans = pool.baseAddress! + run.start
            if upper == lower {
                // Put in, the spans above it one up.
                (spans + lower + 1).update(from: spans + lower, count: run.count - lower)
            } else {
                // In place of those it merges, the spans above them down.
                (spans + lower + 1).update(from: spans + upper, count: run.count - upper)
            }
            spans[lower] = merged
        }
        run.count += 1 - (upper - lower)
        runs[index] = run
    }

    /// The covered span at `index` overlapping `range` the most, clipped to it (nil: none overlaps).
    func widest(at index: Int, within range: Range<Int>) -> Range<Int>? {
        let run = runs[index]
        return pool.withUnsafeBufferPointer { pool in
            var best: Range<Int>? = nil
            for position in run.start..<run.start + run.count {
                let span = pool[position]
                if span.lowerBound >= range.upperBound { break }
                let overlap = span.clamped(to: range)
                if overlap.count > (best?.count ?? 0) { best = overlap }
            }
            return best
        }
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
