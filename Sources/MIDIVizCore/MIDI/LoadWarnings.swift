/// Warnings gathered while loading, in order of first appearance; repeats are counted, not listed.
public struct LoadWarnings: Sendable {
    private var order: [String] = []
    private var counts: [String: Int] = [:]

    public init() {}

    public mutating func add(_ message: String) {
        if counts[message] == nil { order.append(message) }
        counts[message, default: 0] += 1
    }

    public var messages: [String] {
        order.map { message in
            let count = counts[message] ?? 1
            return count > 1 ? "\(message) (\(count) times)" : message
        }
    }
}
