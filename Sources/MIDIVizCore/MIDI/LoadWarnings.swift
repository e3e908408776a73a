/// Warnings gathered while loading, in order of first appearance; repeats are counted, not listed.
package struct LoadWarnings: Sendable {
    private var order: [String] = []
    private var counts: [String: Int] = [:]

    package init() {}

    package mutating func add(_ message: String) {
        if counts[message] == nil { order.append(message) }
        counts[message, default: 0] += 1
    }

    /// Adds `other`'s warnings after these, with their counts.
    package mutating func append(_ other: LoadWarnings) {
        for message in other.order {
            if counts[message] == nil { order.append(message) }
            counts[message, default: 0] += other.counts[message] ?? 1
        }
    }

    package var messages: [String] {
        order.map { message in
            let count = counts[message] ?? 1
            return count > 1 ? "\(message) (\(count) times)" : message
        }
    }
}
