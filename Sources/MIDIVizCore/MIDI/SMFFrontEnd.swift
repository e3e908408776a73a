/// Walks the chunk and event structure of a Standard MIDI File in Swift, before any C code sees
/// it, and rewrites it as canonical bytes (`ValidatedSMF`). Safe repairs are made with a warning
/// (missing End-of-Track, unknown chunks, a wrong track count, running status after a SysEx,
/// stray system bytes, a file cut short, malformed meta events); everything else is refused with
/// an `SMFFormatError` that names the offset.
package enum SMFFrontEnd {
    /// Files larger than this are refused before they are parsed.
    package static let maximumFileBytes = 64 << 20
    /// libsmf keeps ticks in a C `int`.
    package static let maximumTick = Int(Int32.max)
    /// Meta events whose data is longer than this are shortened or dropped (libsmf reads a
    /// meta length as one byte).
    static let maximumMetaBytes = 127
    /// The division written into the canonical header for SMPTE files, which libsmf refuses;
    /// seconds are then computed from the real SMPTE division, never from libsmf's.
    static let placeholderTicksPerQuarter: UInt16 = 960
    /// The header counts tracks in 16 bits.
    package static let maximumTracks = Int(UInt16.max)
    /// The largest delta time a four-byte variable-length quantity holds.
    static let maximumDelta = 0x0FFF_FFFF

    package static func validate(_ fileBytes: [UInt8]) throws(SMFFormatError) -> ValidatedSMF {
        var warnings = LoadWarnings()
        guard fileBytes.count <= maximumFileBytes else {
            throw .notMIDI("\(fileBytes.count) bytes, more than the \(maximumFileBytes >> 20) MiB a MIDI file can plausibly be")
        }
        let bytes = try unwrapRIFF(fileBytes, warnings: &warnings)
        guard !bytes.isEmpty else { throw .notMIDI("the file is empty") }
        guard bytes.count >= 8, Array(bytes[0..<4]) == Array("MThd".utf8) else {
            throw .notMIDI("no MThd header at the start")
        }
        let reader = ByteReader(bytes, from: 0, to: bytes.count)
        guard let headerLength = reader.bigEndianUInt32(at: 4).map(Int.init), headerLength >= 6,
            bytes.count >= 8 + 6
        else { throw .corrupt("MThd header is shorter than 6 bytes") }
        let format = Int(bytes[8]) << 8 | Int(bytes[9])
        let declaredTracks = Int(bytes[10]) << 8 | Int(bytes[11])
        let divisionWord = UInt16(bytes[12]) << 8 | UInt16(bytes[13])
        guard format <= 2 else { throw .unsupported("format \(format) (only 0, 1 and 2 exist)") }
        guard let division = Division(word: divisionWord) else {
            throw .corrupt("unusable time division \(hex(divisionWord, digits: 4))")
        }

        var tracks: [[CanonicalEvent]] = []
        var position = 8 + headerLength
        if headerLength > 6 {
            // A header length too long (by any amount, past the end of the file too): read from
            // the first MTrk header after the six bytes when it follows them at once, or when no
            // chunk lies where the length points. Otherwise the extra bytes are the header's.
            let first =
                holdsTrackHeader(bytes, at: 14) || !holdsChunkHeader(bytes, at: position)
                ? firstTrackHeader(bytes, from: 14, stoppingAtFileHeader: false) : nil
            if let first, first < position {
                warnings.add(
                    "MThd header declares \(headerLength) bytes, but an MTrk chunk begins "
                        + (first == 14 ? "right after its 6, at offset 14" : "at offset \(first), \(first - 14) bytes after its 6") + "; read from there")
                position = first
            } else {
                warnings.add("MThd header has \(headerLength - 6) extra bytes; ignored")
            }
        }
        if position > bytes.count { throw .corrupt("MThd header length \(headerLength) runs past the end of the file") }
        // Where the last chunk's data began: a track header found after a chunk that overran
        // it (up to 7 bytes back) must lie beyond that; at first, the end of the header's six.
        var lastDataStart = 8 + 6
        /// The next track header when the bytes at `position` are no chunk: from a few bytes
        /// back (a length one too long ends inside the next header) on.
        func nextTrackHeader() -> Int? {
            firstTrackHeader(bytes, from: max(lastDataStart, position - 7), stoppingAtFileHeader: !tracks.isEmpty)
        }
        // Whether the reading skipped stray bytes: a track found after them that cannot be read
        // ends the reading rather than refusing the file.
        var skipped = false
        chunks: while position < bytes.count {
            guard position + 8 <= bytes.count else {
                warnings.add("\(bytes.count - position) trailing bytes after the last chunk ignored")
                break
            }
            let id = Array(bytes[position..<position + 4])
            let declaredLength = Int(reader.bigEndianUInt32(at: position + 4)!)
            let dataStart = position + 8
            let declaredEnd = dataStart + declaredLength
            defer { lastDataStart = dataStart }
            let isFileHeader = id == Array("MThd".utf8)
            if isFileHeader && !tracks.isEmpty {
                // Two files joined: the second has its own division and tempo map.
                warnings.add("a second MIDI file begins at offset \(position) (an MThd header); it and what follows are ignored")
                break chunks
            }
            if id == Array("MTrk".utf8) {
                guard tracks.count < maximumTracks else {
                    throw .unsupported("more than \(maximumTracks) tracks (MTrk chunks); a MIDI file holds at most that many")
                }
                let isCut = declaredEnd > bytes.count
                let track = tracks.count
                var parser = TrackParser(
                    bytes: bytes, track: track, start: dataStart, end: min(declaredEnd, bytes.count), isCut: isCut)
                var trackWarnings = LoadWarnings()
                defer { warnings.append(trackWarnings) }
                // A chunk length too short: an event runs past it, or the track stops there
                // without an End-of-Track and no chunk follows. Read on to the End-of-Track.
                var events: [CanonicalEvent] = []
                var readOn: ReadOn? = nil
                do {
                    events = try parser.parse(warnings: &trackWarnings)
                    if !isCut, parser.endOfTrackOffset == nil, !holdsChunkHeader(bytes, at: declaredEnd) {
                        readOn = Self.readOn(bytes, track: track, start: dataStart, declaredEnd: declaredEnd)
                    }
                } catch {
                    readOn = isCut ? nil : Self.readOn(bytes, track: track, start: dataStart, declaredEnd: declaredEnd)
                    guard readOn != nil else {
                        guard skipped else { throw error }
                        trackWarnings = LoadWarnings()
                        // Before any track, "MTrk" in stray bytes: the next header may be the real one.
                        if tracks.isEmpty {
                            guard let next = firstTrackHeader(bytes, from: position + 4, stoppingAtFileHeader: false) else { throw error }
                            warnings.add("the MTrk chunk at offset \(position) cannot be read (\(error.reason)); skipped to the MTrk header at offset \(next)")
                            position = next
                            continue chunks
                        }
                        warnings.add("the MTrk chunk at offset \(position) cannot be read (\(error.reason)); it and what follows are ignored")
                        break chunks
                    }
                }
                if let readOn {
                    tracks.append(readOn.events)
                    trackWarnings = readOn.warnings(declaredLength: declaredLength)
                    position = readOn.next
                    continue chunks
                }
                tracks.append(events)
                if let endOfTrack = parser.endOfTrackOffset, parser.bytesAfterEndOfTrack > 0 {
                    // A chunk length too long swallows the chunks after it: when the next track's
                    // header follows the End-of-Track and none lies where the length points, the
                    // next track is read from there.
                    if holdsTrackHeader(bytes, at: endOfTrack) && !holdsTrackHeader(bytes, at: declaredEnd) {
                        trackWarnings.add(
                            "track \(track) declares \(declaredLength) bytes, but an MTrk chunk begins right after its End-of-Track, at offset \(endOfTrack); read from there"
                        )
                        position = endOfTrack
                        continue chunks
                    }
                    trackWarnings.add("track \(track): \(parser.bytesAfterEndOfTrack) bytes after End-of-Track ignored")
                }
                if isCut {
                    warnings.add(
                        "file is truncated: track \(track) declares \(declaredLength) bytes, only \(bytes.count - dataStart) present; read what is there"
                    )
                    break chunks
                }
            } else if !isFileHeader, holdsChunkName(bytes, at: position), declaredEnd <= bytes.count || nextTrackHeader() == nil {
                let name = String(decoding: id, as: UTF8.self)
                warnings.add("unknown chunk '\(name)' at offset \(position) skipped")
                if declaredEnd > bytes.count { break chunks }
            } else {
                // Stray bytes between chunks (or before the first), or a length that ran a few
                // bytes too far (or a name whose length runs past the end of the file): the
                // tracks after them are read from the next MTrk header.
                guard let next = nextTrackHeader() else {
                    guard !tracks.isEmpty else { throw .corrupt("bytes at offset \(position) are not a chunk header") }
                    warnings.add("\(bytes.count - position) bytes at offset \(position) are not a chunk; ignored")
                    break chunks
                }
                let header = holdsTrackHeader(bytes, at: next) ? "MTrk" : "MThd"
                warnings.add(
                    next > position
                        ? "\(next - position == 1 ? "1 byte" : "\(next - position) bytes") at offset \(position) \(next - position == 1 ? "is" : "are") not a chunk; skipped to the \(header) header at offset \(next)"
                        : "no chunk begins at offset \(position); read on from the \(header) header at offset \(next)")
                position = next
                skipped = true
                continue chunks
            }
            position = declaredEnd
        }
        guard !tracks.isEmpty else { throw .corrupt("no MTrk chunk in the file") }
        if declaredTracks != tracks.count {
            warnings.add("header declares \(declaredTracks) tracks, the file has \(tracks.count)")
        }
        if format == 0 && tracks.count > 1 {
            warnings.add("format 0 file with \(tracks.count) tracks; all tracks played together")
        }
        if format == 2 && tracks.count > 1 {
            tracks = try playOneAfterAnother(tracks)
            warnings.add("format 2: the \(tracks.count) tracks are played one after another")
        }
        let canonical = writeCanonical(tracks: tracks, division: division)
        return ValidatedSMF(
            format: format, declaredTrackCount: declaredTracks, trackCount: tracks.count,
            division: division, canonicalBytes: canonical, warnings: warnings.messages)
    }

    /// Whether an MTrk chunk header lies at `offset`.
    static func holdsTrackHeader(_ bytes: [UInt8], at offset: Int) -> Bool {
        offset >= 0 && offset + 8 <= bytes.count && bytes[offset..<offset + 4].elementsEqual("MTrk".utf8)
    }

    /// Where the first MTrk header from `offset` on begins, or (when `stoppingAtFileHeader`)
    /// the first MThd header (a second file joined on, whose reading ends the song's) when that
    /// comes first; nil when neither.
    static func firstTrackHeader(_ bytes: [UInt8], from offset: Int, stoppingAtFileHeader: Bool = true) -> Int? {
        var offset = max(0, offset)
        while offset + 8 <= bytes.count {
            if holdsTrackHeader(bytes, at: offset) || (stoppingAtFileHeader && bytes[offset..<offset + 4].elementsEqual("MThd".utf8)) { return offset }
            offset += 1
        }
        return nil
    }

    /// Whether a chunk header lies at `offset`: an MTrk, or another whose name is printable
    /// (skipped as unknown) and whose length fits in the file (running-status data can look
    /// like a name).
    static func holdsChunkHeader(_ bytes: [UInt8], at offset: Int) -> Bool {
        if holdsTrackHeader(bytes, at: offset) { return true }
        guard holdsChunkName(bytes, at: offset) else { return false }
        let length = bytes[offset + 4..<offset + 8].reduce(0) { $0 << 8 | Int($1) }
        return offset + 8 + length <= bytes.count
    }

    /// Whether a chunk header's 8 bytes lie at `offset` with a printable name.
    static func holdsChunkName(_ bytes: [UInt8], at offset: Int) -> Bool {
        offset >= 0 && offset + 8 <= bytes.count && bytes[offset..<offset + 4].allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }

    /// A track read on past its chunk's declared end to its End-of-Track.
    struct ReadOn {
        let track: Int
        let events: [CanonicalEvent]
        /// Where its End-of-Track ends, and where the next chunk begins (or the file ends).
        let endOfTrack: Int, next: Int
        let parsed: LoadWarnings

        /// The track's own warnings, and what was repaired.
        func warnings(declaredLength: Int) -> LoadWarnings {
            var warnings = parsed
            warnings.add(
                "track \(track) declares \(declaredLength) bytes, but its events run on past them; read on to its End-of-Track, which ends at offset \(endOfTrack)"
            )
            if next > endOfTrack { warnings.add("track \(track): \(next - endOfTrack) bytes after End-of-Track ignored") }
            return warnings
        }
    }

    /// Track `track`, from `start`, read on past `declaredEnd` up to the next MTrk header (or
    /// the end of the file): nil when it does not end with an End-of-Track there, or has an
    /// error of its own.
    static func readOn(_ bytes: [UInt8], track: Int, start: Int, declaredEnd: Int) -> ReadOn? {
        guard declaredEnd < bytes.count else { return nil }
        let next = firstTrackHeader(bytes, from: start) ?? bytes.count
        // A track header within the declared length: the length is not what is wrong.
        guard next >= declaredEnd else { return nil }
        var parser = TrackParser(bytes: bytes, track: track, start: start, end: next, isCut: false)
        var warnings = LoadWarnings()
        guard let events = try? parser.parse(warnings: &warnings), let endOfTrack = parser.endOfTrackOffset else { return nil }
        return ReadOn(track: track, events: events, endOfTrack: endOfTrack, next: next, parsed: warnings)
    }

    /// A RIFF RMID file wraps an SMF in its `data` chunk.
    static func unwrapRIFF(_ bytes: [UInt8], warnings: inout LoadWarnings) throws(SMFFormatError) -> [UInt8] {
        guard bytes.count >= 12, Array(bytes[0..<4]) == Array("RIFF".utf8) else { return bytes }
        guard Array(bytes[8..<12]) == Array("RMID".utf8) else {
            throw .notMIDI("a RIFF file that is not RMID")
        }
        let reader = ByteReader(bytes, from: 0, to: bytes.count)
        var position = 12
        while position + 8 <= bytes.count {
            let length = Int(reader.littleEndianUInt32(at: position + 4)!)
            if Array(bytes[position..<position + 4]) == Array("data".utf8) {
                let end = min(position + 8 + length, bytes.count)
                warnings.add("RIFF RMID wrapper unwrapped")
                return Array(bytes[(position + 8)..<end])
            }
            position += 8 + length + (length & 1)
        }
        throw .notMIDI("RIFF RMID file without a data chunk")
    }

    /// Format 2 holds independent patterns: each track starts where the previous one ended.
    static func playOneAfterAnother(_ tracks: [[CanonicalEvent]]) throws(SMFFormatError) -> [[CanonicalEvent]] {
        var offset = 0
        var result: [[CanonicalEvent]] = []
        for events in tracks {
            let shifted = events.map { CanonicalEvent(tick: $0.tick + offset, bytes: $0.bytes) }
            offset += events.last?.tick ?? 0
            guard offset <= maximumTick else {
                throw .corrupt("format 2 tracks add up to more than \(maximumTick) ticks")
            }
            result.append(shifted)
        }
        return result
    }

    static func writeCanonical(tracks: [[CanonicalEvent]], division: Division) -> [UInt8] {
        var out: [UInt8] = Array("MThd".utf8)
        appendBigEndian32(6, to: &out)
        let divisionWord: UInt16
        switch division {
        case .ticksPerQuarter(let ticks): divisionWord = UInt16(ticks)
        case .smpte: divisionWord = placeholderTicksPerQuarter
        }
        for value in [UInt16(1), UInt16(tracks.count), divisionWord] {
            out.append(UInt8(value >> 8)); out.append(UInt8(value & 0xFF))
        }
        for events in tracks {
            out.append(contentsOf: Array("MTrk".utf8))
            let lengthAt = out.count
            appendBigEndian32(0, to: &out)  // the length, written when known
            var previousTick = 0
            for event in events {
                var delta = event.tick - previousTick
                while delta > maximumDelta {  // only format-2 shifting makes such gaps
                    appendVLQ(maximumDelta, to: &out)
                    out.append(contentsOf: [0xFF, 0x01, 0x00])  // an empty text event as filler
                    delta -= maximumDelta
                }
                appendVLQ(delta, to: &out)
                for byte in event.bytes { out.append(byte) }
                previousTick = event.tick
            }
            let length = out.count - lengthAt - 4
            for (offset, shift) in [24, 16, 8, 0].enumerated() { out[lengthAt + offset] = UInt8((length >> shift) & 0xFF) }
        }
        return out
    }

    static func appendBigEndian32(_ value: Int, to out: inout [UInt8]) {
        for shift in stride(from: 24, through: 0, by: -8) { out.append(UInt8((value >> shift) & 0xFF)) }
    }

    static func appendVLQ(_ value: Int, to out: inout [UInt8]) {
        var shift = 0
        while value >> (shift + 7) > 0 { shift += 7 }
        while shift > 0 {
            out.append(UInt8((value >> shift) & 0x7F) | 0x80)
            shift -= 7
        }
        out.append(UInt8(value & 0x7F))
    }
}

/// One event of a canonical track: absolute tick and complete message bytes.
struct CanonicalEvent: Sendable {
    var tick: Int
    var bytes: MessageBytes
}
