/// A Standard MIDI File that passed `SMFFrontEnd`: its header facts, and canonical bytes that
/// libsmf can load safely (format 1, every event with its own status byte, meta events of at
/// most 127 bytes, an End-of-Track on every track, nothing after it).
public struct ValidatedSMF: Sendable {
    /// The format number the file declares (0, 1 or 2).
    public var format: Int
    /// The track count the header declares, which may differ from the MTrk chunks found.
    public var declaredTrackCount: Int
    /// The number of MTrk chunks found; track indices are 0-based positions among them.
    public var trackCount: Int
    public var division: Division
    /// The file rewritten as a well-formed format-1 SMF.
    public var canonicalBytes: [UInt8]
    /// What was repaired or skipped, one line each.
    public var warnings: [String]
}

extension ValidatedSMF {
    /// Each track of `canonicalBytes` as a file of its own: the header, counting one track, and
    /// that track's chunk. Made one at a time, as they are read.
    public var trackFiles: LazyMapSequence<[Range<Int>], [UInt8]> {
        let bytes = canonicalBytes
        let header = Array(bytes[0..<10]) + [0, 1] + Array(bytes[12..<14])
        return trackChunks.lazy.map { header + bytes[$0] }
    }

    /// Where each track's MTrk chunk lies in `canonicalBytes`.
    var trackChunks: [Range<Int>] {
        let reader = ByteReader(canonicalBytes, from: 0, to: canonicalBytes.count)
        var chunks: [Range<Int>] = []
        var position = 14
        while let length = reader.bigEndianUInt32(at: position + 4) {
            let end = min(canonicalBytes.count, position + 8 + Int(length))
            chunks.append(position..<end)
            position = end
        }
        return chunks
    }
}
