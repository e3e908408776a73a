/// Builds small Standard MIDI Files byte by byte for tests.
enum SMFBytes {
    /// `MThd` with the given fields, followed by one `MTrk` chunk per body (length computed).
    static func file(format: UInt16 = 1, declaredTracks: UInt16? = nil, division: UInt16 = 96, tracks: [[UInt8]]) -> [UInt8] {
        var out = header(format: format, tracks: declaredTracks ?? UInt16(tracks.count), division: division)
        for body in tracks { out += chunk("MTrk", body) }
        return out
    }

    static func header(format: UInt16, tracks: UInt16, division: UInt16) -> [UInt8] {
        Array("MThd".utf8) + [0, 0, 0, 6] + be16(format) + be16(tracks) + be16(division)
    }

    static func chunk(_ id: String, _ body: [UInt8], declaredLength: Int? = nil) -> [UInt8] {
        Array(id.utf8) + be32(declaredLength ?? body.count) + body
    }

    static func be16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
    static func be32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8((value >> (24 - 8 * $0)) & 0xFF) } }

    static let endOfTrack: [UInt8] = [0x00, 0xFF, 0x2F, 0x00]
    /// Delta 0 note-on C4 velocity 100, delta 96 note-off (a quarter note at 96 ticks per quarter).
    static let quarterNoteC4: [UInt8] = [0x00, 0x90, 60, 100, 0x60, 0x80, 60, 0]
}
