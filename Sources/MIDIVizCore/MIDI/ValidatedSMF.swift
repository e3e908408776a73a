/// A Standard MIDI File that passed `SMFFrontEnd`: its header facts, and canonical bytes that
/// libsmf can load safely (format 1, every event with its own status byte, meta events of at
/// most 127 bytes, an End-of-Track on every track, nothing after it).
package struct ValidatedSMF: Sendable {
    /// The format number the file declares (0, 1 or 2).
    package var format: Int
    /// The track count the header declares, which may differ from the MTrk chunks found.
    package var declaredTrackCount: Int
    /// The number of MTrk chunks found; track indices are 0-based positions among them.
    package var trackCount: Int
    package var division: Division
    /// The file rewritten as a well-formed format-1 SMF.
    package var canonicalBytes: [UInt8]
    /// What was repaired or skipped, one line each.
    package var warnings: [String]
}

extension ValidatedSMF {
    /// Each track of `canonicalBytes` as a file of its own: the header, counting one track, and
    /// that track's chunk. Made one at a time, as they are read.
    package var trackFiles: LazyMapSequence<[Range<Int>], [UInt8]> {
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
