/// The bytes of one MIDI message, status first, in 8 bytes: up to six inline (every channel
/// message, tempo and key meta events), longer ones (time signatures, SysEx, text) in a shared
/// array. A song of a million notes holds two million of these: inline, they cost no allocation.
package struct MessageBytes: RandomAccessCollection, Hashable, Sendable, ExpressibleByArrayLiteral, CustomStringConvertible {
    private final class LongBytes: @unchecked Sendable {  // copied before a write when shared
        var bytes: [UInt8]
        init(_ bytes: [UInt8]) { self.bytes = bytes }
    }

    /// Inline: bytes 0-3, bytes 4-5 and the count; the enum's tag fits the class pointer's
    /// spare bits, so the whole value is one word.
    private enum Storage {
        case inline(UInt32, UInt16, count: UInt8)
        case long(LongBytes)
    }

    private var storage: Storage

    private static let inlineCapacity = 6

    package init<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        var packed: UInt64 = 0
        var count = 0
        for byte in bytes {
            guard count < Self.inlineCapacity else {
                storage = .long(LongBytes(Array(bytes)))
                return
            }
            packed |= UInt64(byte) << (8 * UInt64(count))
            count += 1
        }
        storage = Self.inline(packed, count: count)
    }

    /// The bytes a C library holds (the generic initializer, called from another module, is
    /// not specialized: this one is four times faster for a million-note file).
    package init(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count <= Self.inlineCapacity else {
            storage = .long(LongBytes(Array(bytes)))
            return
        }
        var packed: UInt64 = 0
        for (index, byte) in bytes.enumerated() { packed |= UInt64(byte) << (8 * UInt64(index)) }
        storage = Self.inline(packed, count: bytes.count)
    }

    /// A channel message: its status and one or two data bytes.
    init(status: UInt8, data: UInt8, _ second: UInt8?) {
        var packed = UInt64(status) | UInt64(data) << 8
        if let second { packed |= UInt64(second) << 16 }
        storage = Self.inline(packed, count: second == nil ? 2 : 3)
    }

    package init(arrayLiteral bytes: UInt8...) { self.init(bytes) }

    /// No bytes yet.
    package init() { storage = .inline(0, 0, count: 0) }

    private static func inline(_ packed: UInt64, count: Int) -> Storage {
        .inline(UInt32(truncatingIfNeeded: packed), UInt16(truncatingIfNeeded: packed >> 32), count: UInt8(count))
    }

    package mutating func append(_ byte: UInt8) {
        switch storage {
        case .inline(let low, let high, let count) where Int(count) < Self.inlineCapacity:
            let packed = UInt64(low) | UInt64(high) << 32 | UInt64(byte) << (8 * UInt64(count))
            storage = Self.inline(packed, count: Int(count) + 1)
        case .inline:
            storage = .long(LongBytes(Array(self) + [byte]))
        case .long(var long):
            storage = .inline(0, 0, count: 0)  // let `long` be the only reference
            if !isKnownUniquelyReferenced(&long) { long = LongBytes(long.bytes) }
            long.bytes.append(byte)
            storage = .long(long)
        }
    }

    package var startIndex: Int { 0 }
    package var endIndex: Int {
        switch storage {
        case .inline(_, _, let count): Int(count)
        case .long(let long): long.bytes.count
        }
    }

    package subscript(position: Int) -> UInt8 {
        switch storage {
        case .inline(let low, let high, let count):
            precondition(position >= 0 && position < Int(count), "index out of range")
            let packed = UInt64(low) | UInt64(high) << 32
            return UInt8(truncatingIfNeeded: packed >> (8 * UInt64(position)))
        case .long(let long):
            return long.bytes[position]
        }
    }

    package static func == (left: MessageBytes, right: MessageBytes) -> Bool { left.elementsEqual(right) }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for byte in self { hasher.combine(byte) }
    }

    package var description: String { Array(self).description }
}
