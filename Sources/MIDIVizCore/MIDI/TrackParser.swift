/// Parses the events of one MTrk chunk into canonical events, repairing what is safe.
struct TrackParser {
    private var reader: ByteReader
    private let track: Int
    /// The chunk was cut by the end of the file: an incomplete last event is dropped, not refused.
    private let isCut: Bool

    init(bytes: [UInt8], track: Int, start: Int, end: Int, isCut: Bool) {
        self.reader = ByteReader(bytes, from: start, to: end)
        self.track = track
        self.isCut = isCut
    }

    private enum Step { case event(CanonicalEvent?), endOfTrack(tick: Int), endOfData }

    /// Where the track's End-of-Track event ends, once `parse` has read one.
    private(set) var endOfTrackOffset: Int?
    /// The chunk's bytes after its End-of-Track event, once `parse` has read one.
    var bytesAfterEndOfTrack: Int { endOfTrackOffset == nil ? 0 : reader.remaining }

    /// Reads the chunk's events; bytes after its End-of-Track are left for the caller to judge
    /// (`bytesAfterEndOfTrack`).
    mutating func parse(warnings: inout LoadWarnings) throws(SMFFormatError) -> [CanonicalEvent] {
        var events: [CanonicalEvent] = []
        var tick = 0
        var runningStatus: UInt8? = nil
        var sysexSinceStatus = false
        while true {
            let eventOffset = reader.offset
            switch try step(
                tick: &tick, runningStatus: &runningStatus, sysexSinceStatus: &sysexSinceStatus,
                warnings: &warnings)
            {
            case .event(let event):
                if let event { events.append(event) }
            case .endOfTrack(let endTick):
                endOfTrackOffset = reader.offset
                events.append(CanonicalEvent(tick: endTick, bytes: [0xFF, 0x2F, 0x00]))
                return events
            case .endOfData:
                // Only a chunk cut by the end of the file can end inside an event.
                if reader.offset > eventOffset {
                    warnings.add("track \(track): incomplete last event at offset \(eventOffset) dropped")
                }
                warnings.add("track \(track): no End-of-Track event; added one")
                let endTick = max(events.last?.tick ?? 0, 0)
                events.append(CanonicalEvent(tick: endTick, bytes: [0xFF, 0x2F, 0x00]))
                return events
            }
        }
    }

    private func overrun(_ what: String, at offset: Int) -> SMFFormatError {
        .corrupt("track \(track): \(what) at offset \(offset) runs past the end of its chunk (chunk length too short?)")
    }

    /// Reads one event. Returns `.endOfData` only when the data ends cleanly between events, or
    /// anywhere in a chunk cut by the end of the file.
    private mutating func step(
        tick: inout Int, runningStatus: inout UInt8?, sysexSinceStatus: inout Bool,
        warnings: inout LoadWarnings
    ) throws(SMFFormatError) -> Step {
        let eventOffset = reader.offset
        if reader.isAtEnd { return .endOfData }
        switch reader.readVLQ() {
        case .value(let delta): tick += delta
        case .tooLong: throw .corrupt("track \(track): delta time at offset \(eventOffset) is longer than 4 bytes")
        case .endOfData:
            if isCut { return .endOfData }
            throw overrun("delta time", at: eventOffset)
        }
        guard tick <= SMFFrontEnd.maximumTick else {
            throw .corrupt("track \(track): event at offset \(eventOffset) lies beyond tick \(SMFFrontEnd.maximumTick)")
        }
        let statusOffset = reader.offset
        guard let first = reader.peek() else {
            if isCut { return .endOfData }
            throw overrun("event", at: eventOffset)
        }
        let status: UInt8
        if first >= 0x80 {
            status = first
            _ = reader.readByte()
        } else {
            guard let running = runningStatus else {
                throw .corrupt("track \(track): data byte \(hex(first)) at offset \(statusOffset) with no running status")
            }
            if sysexSinceStatus {
                warnings.add("track \(track): running status used after a SysEx; continued with status \(hex(running))")
            }
            status = running
        }

        func need<T>(_ value: T?, _ what: String) throws(SMFFormatError) -> T? {
            if let value { return value }
            if isCut { return nil }
            throw overrun(what, at: eventOffset)
        }

        switch status {
        case 0xFF:
            guard let type = try need(reader.readByte(), "meta event") else { return .endOfData }
            let length: Int
            switch reader.readVLQ() {
            case .value(let value): length = value
            case .tooLong: throw .corrupt("track \(track): meta event length at offset \(eventOffset) is longer than 4 bytes")
            case .endOfData:
                if isCut { return .endOfData }
                throw overrun("meta event length", at: eventOffset)
            }
            guard let data = try need(reader.readBytes(length), "meta event") else { return .endOfData }
            if type == 0x2F { return .endOfTrack(tick: tick) }
            return .event(metaEvent(type: type, data: Array(data), tick: tick, offset: eventOffset, warnings: &warnings))
        case 0xF0, 0xF7:
            let length: Int
            switch reader.readVLQ() {
            case .value(let value): length = value
            case .tooLong: throw .corrupt("track \(track): SysEx length at offset \(eventOffset) is longer than 4 bytes")
            case .endOfData:
                if isCut { return .endOfData }
                throw overrun("SysEx length", at: eventOffset)
            }
            guard let data = try need(reader.readBytes(length), "SysEx event") else { return .endOfData }
            sysexSinceStatus = true
            if status == 0xF7 {
                warnings.add("track \(track): F7 escape (raw or continued SysEx) events skipped")
                return .event(nil)
            }
            guard data.last == 0xF7, !data.dropLast().contains(where: { $0 >= 0x80 }) else {
                warnings.add("track \(track): incomplete or multi-packet SysEx events skipped")
                return .event(nil)
            }
            var bytes: [UInt8] = [0xF0]
            SMFFrontEnd.appendVLQ(data.count, to: &bytes)
            bytes.append(contentsOf: data)
            return .event(CanonicalEvent(tick: tick, bytes: MessageBytes(bytes)))
        case 0xF1...0xFE:
            // System common and real-time messages do not belong in a file; skip them and
            // the data bytes they carry. They leave running status alone, as on the wire.
            let dataCount = [0xF1: 1, 0xF2: 2, 0xF3: 1][Int(status)] ?? 0
            for _ in 0..<dataCount where (reader.peek() ?? 0x80) < 0x80 { _ = reader.readByte() }
            warnings.add("track \(track): system message \(hex(status)) (not allowed in a file) skipped")
            return .event(nil)
        default:
            runningStatus = status
            sysexSinceStatus = false
            let dataCount = (status & 0xF0 == 0xC0 || status & 0xF0 == 0xD0) ? 1 : 2
            var data: (UInt8, UInt8?) = (0, nil)
            for index in 0..<dataCount {
                guard let byte = try need(reader.peek(), "channel message") else { return .endOfData }
                guard byte < 0x80 else {
                    throw .corrupt("track \(track): channel message at offset \(eventOffset) is cut short by status byte \(hex(byte))")
                }
                _ = reader.readByte()
                if index == 0 { data.0 = byte } else { data.1 = byte }
            }
            return .event(CanonicalEvent(tick: tick, bytes: MessageBytes(status: status, data: data.0, data.1)))
        }
    }

    /// Keeps a meta event when it is well formed, shortening long text and dropping what libsmf
    /// or a reader would misread.
    private func metaEvent(
        type: UInt8, data: [UInt8], tick: Int, offset: Int,
        warnings: inout LoadWarnings
    ) -> CanonicalEvent? {
        let expectedLength: [UInt8: Int] = [0x00: 2, 0x20: 1, 0x21: 1, 0x51: 3, 0x54: 5, 0x58: 4, 0x59: 2]
        let names: [UInt8: String] = [
            0x00: "sequence number", 0x20: "channel prefix", 0x21: "port",
            0x51: "tempo", 0x54: "SMPTE offset", 0x58: "time signature",
            0x59: "key signature",
        ]
        if let expected = expectedLength[type], data.count != expected, !(type == 0x00 && data.isEmpty) {
            warnings.add("track \(track): \(names[type]!) meta event of \(data.count) bytes (expected \(expected)) at offset \(offset) ignored")
            return nil
        }
        if type == 0x51 && data == [0, 0, 0] {
            warnings.add("track \(track): tempo of 0 microseconds per quarter note at offset \(offset) ignored")
            return nil
        }
        var kept = data
        if data.count > SMFFrontEnd.maximumMetaBytes {
            guard (0x01...0x0F).contains(type) else {
                warnings.add("track \(track): meta event \(hex(type)) of \(data.count) bytes skipped")
                return nil
            }
            kept = Array(data.prefix(SMFFrontEnd.maximumMetaBytes))
            // UTF-8 text is cut before a character, not inside it (the lyrics' encoding is judged
            // from all their bytes: one broken character would make them all Latin-1).
            if String(validating: data, as: UTF8.self) != nil, data[kept.count] & 0xC0 == 0x80 {
                while let last = kept.last, last & 0xC0 == 0x80 { kept.removeLast() }
                if let lead = kept.last, lead >= 0xC0 { kept.removeLast() }
            }
            warnings.add("track \(track): text meta event of \(data.count) bytes shortened to \(SMFFrontEnd.maximumMetaBytes)")
        }
        return CanonicalEvent(tick: tick, bytes: MessageBytes([0xFF, type, UInt8(kept.count)] + kept))
    }
}
