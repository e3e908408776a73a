/// Keeps the glows of a frame from growing with the song's density: of the glows with one
/// centre and radius (a key struck again and again, the roll's notes crossing the playhead on
/// one row), only the last `perCentre` drawn are kept. The newest glows are drawn last and are
/// the strongest; those under them add little to pixels already lit. A song that strikes a key
/// at most `perCentre` times while its glow lasts draws every glow, as before. `KeyboardLayout`
/// makes only the glows this keeps where it knows this will limit the frame: a change to the
/// rule here (`perCentre`, `Occlusion.fewestShapes`) is a change there.
package struct GlowBudget: Sendable {
    package static let perCentre = 3

    private struct Centre: Hashable {
        let x: UInt32, y: UInt32, radius: UInt32
    }

    private var counts: [Centre: Int] = [:]
    /// The glows left out, by index.
    private var dropped: [Bool] = []

    package init() {}

    /// Removes from `shapes` every glow beyond the budget of its centre.
    package mutating func limit(_ shapes: inout [Shape]) {
        guard shapes.count >= Occlusion.fewestShapes else { return }
        counts.removeAll(keepingCapacity: true)
        var over = false
        for index in shapes.indices.reversed() {
            guard case .glow(let center, let radius, _, _) = shapes[index] else { continue }
            let key = Centre(x: center.x.bitPattern, y: center.y.bitPattern, radius: radius.bitPattern)
            let count = counts[key, default: 0] + 1
            counts[key] = count
            if count > Self.perCentre { over = true }
        }
        guard over else { return }
        // Counted down from the first drawn: a glow is kept while fewer than the budget remain after it.
        dropped.removeAll(keepingCapacity: true)
        for index in shapes.indices {
            guard case .glow(let center, let radius, _, _) = shapes[index] else {
                dropped.append(false)
                continue
            }
            let key = Centre(x: center.x.bitPattern, y: center.y.bitPattern, radius: radius.bitPattern)
            let remaining = counts[key, default: 0]
            counts[key] = remaining - 1
            dropped.append(remaining > Self.perCentre)
        }
        shapes.removeShapes { dropped[$0] }
    }

    /// Glows of one centre and radius drawn as one: its colour is theirs laid over each other
    /// in order, as at their centre, where each is at its own alpha. Away from it the one is a
    /// little fainter than the stack (its alpha falls off once, not once for each). One glow
    /// alone is itself.
    package struct Stack: Sendable {
        /// The colours laid so far, premultiplied, and how many.
        private var premultiplied = SIMD4<Float>(repeating: 0)
        private var first: RGBA?
        private var count = 0

        package init() {}

        package mutating func add(_ color: RGBA) {
            if count == 0 { first = color }
            count += 1
            let alpha = color.a
            premultiplied = SIMD4(color.r * alpha, color.g * alpha, color.b * alpha, alpha) + premultiplied * (1 - alpha)
        }

        package var color: RGBA {
            if count == 1, let first { return first }
            let alpha = premultiplied[3]
            guard alpha > 0 else { return RGBA(0, 0, 0, 0) }
            return RGBA(premultiplied[0] / alpha, premultiplied[1] / alpha, premultiplied[2] / alpha, alpha)
        }
    }
}
