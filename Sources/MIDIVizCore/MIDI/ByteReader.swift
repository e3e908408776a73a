/// A bounds-checked cursor over bytes: every read either succeeds inside `end` or returns nil.
struct ByteReader {
    let bytes: [UInt8]
    var offset: Int
    let end: Int

    init(_ bytes: [UInt8], from offset: Int, to end: Int) {
        self.bytes = bytes
        self.offset = offset
        self.end = min(end, bytes.count)
    }

    var remaining: Int { end - offset }
    var isAtEnd: Bool { offset >= end }

    func peek() -> UInt8? { offset < end ? bytes[offset] : nil }

    mutating func readByte() -> UInt8? {
        guard offset < end else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func readBytes(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, count <= remaining else { return nil }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    /// A variable-length quantity of at most four bytes (the SMF limit, 0x0FFFFFFF).
    enum VLQResult { case value(Int), endOfData, tooLong }

    mutating func readVLQ() -> VLQResult {
        var value = 0
        for _ in 0..<4 {
            guard let byte = readByte() else { return .endOfData }
            value = (value << 7) | Int(byte & 0x7F)
            if byte & 0x80 == 0 { return .value(value) }
        }
        return .tooLong
    }

    func bigEndianUInt32(at position: Int) -> UInt32? {
        guard position >= 0, position + 4 <= bytes.count else { return nil }
        return bytes[position..<position + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    func littleEndianUInt32(at position: Int) -> UInt32? {
        guard position >= 0, position + 4 <= bytes.count else { return nil }
        return bytes[position..<position + 4].reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }
}
