/// The bytes of one MIDI message, status first: up to eight kept inline (every channel message,
/// and the tempo, meter and key meta events), longer ones (SysEx, text) in an array. A song of a
/// million notes holds two million of these: inline, they cost no allocation each.
public struct MessageBytes: RandomAccessCollection, Hashable, Sendable, ExpressibleByArrayLiteral, CustomStringConvertible {
    private var inline: UInt64 = 0
    private var long: [UInt8]?
    private var inlineCount: UInt8 = 0

    public init<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        var count = 0
        for byte in bytes {
            guard count < 8 else {
                long = Array(bytes)
                inline = 0
                inlineCount = 0
                return
            }
            inline |= UInt64(byte) << (8 * UInt64(count))
            count += 1
        }
        inlineCount = UInt8(count)
    }

    public init(arrayLiteral bytes: UInt8...) { self.init(bytes) }

    /// No bytes yet.
    public init() {}

    public mutating func append(_ byte: UInt8) {
        if long != nil {
            long!.append(byte)
        } else if inlineCount < 8 {
            inline |= UInt64(byte) << (8 * UInt64(inlineCount))
            inlineCount += 1
        } else {
            long = Array(self) + [byte]
            inline = 0
            inlineCount = 0
        }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { long?.count ?? Int(inlineCount) }

    public subscript(position: Int) -> UInt8 {
        if let long { return long[position] }
        precondition(position >= 0 && position < Int(inlineCount), "index out of range")
        return UInt8(truncatingIfNeeded: inline >> (8 * UInt64(position)))
    }

    public var description: String { Array(self).description }
}
