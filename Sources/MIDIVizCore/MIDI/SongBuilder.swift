/// Builds a `Song` from the merged event stream with the semantics of a synthesizer playing it:
/// tempo events from any track apply; a note-on of velocity 0 is a note-off; a note-off ends every
/// sounding note of its channel and key, whichever track started it (read in `TickOrder`: at one
/// tick, a track releasing a key before the tracks striking it); zero-length notes are kept;
/// notes never released end at the end of the song.
package enum SongBuilder {
    /// - Parameters:
    ///   - events: every event of every track in stream order (by tick; ties by track, then file order).
    ///   - endTick: the tick of the last event of any track, End-of-Track included.
    package static func build(
        format: Int, division: Division, trackCount: Int, events: [MIDIEvent],
        endTick: Int, warnings: [String]
    ) -> Song {
        build(
            format: format, division: division, trackCount: trackCount, events: MergedEvents(events: events, trackCount: trackCount),
            endTick: endTick, warnings: warnings)
    }

    /// - Parameters:
    ///   - events: each track's events, merged into stream order as they are read (the tempo
    ///     events first, found without a merge).
    ///   - endTick: the tick of the last event of any track, End-of-Track included.
    ///
    /// The events are let go once read, before the notes are sorted.
    package static func build(
        format: Int, division: Division, trackCount: Int, events: consuming MergedEvents,
        endTick: Int, warnings: [String]
    ) -> Song {
        var warnings = warnings
        let tempoEvents = events.filter { $0.bytes.count == 6 && $0.bytes[0] == 0xFF && $0.bytes[1] == 0x51 }
        let tempoChanges: [(tick: Int, microsecondsPerQuarter: Int)] = tempoEvents.map { event in
            (event.tick, Int(event.bytes[3]) << 16 | Int(event.bytes[4]) << 8 | Int(event.bytes[5]))
        }
        if case .smpte = division, !tempoChanges.isEmpty {
            warnings.append("SMPTE time division: \(tempoChanges.count) tempo events ignored")
        }
        let tempoMap = TempoMap(division: division, changes: tempoChanges)

        var tracks = Array(repeating: TrackSummary(name: nil, noteCount: 0, channels: [], programs: []), count: trackCount)
        var channelSets = Array(repeating: Set<UInt8>(), count: trackCount)
        var programs = [UInt8](repeating: 0, count: 16)
        /// Sounding notes per channel × key: (start tick, velocity, track, program).
        var sounding = [[(tick: Int, velocity: UInt8, track: Int, program: UInt8)]](repeating: [], count: 16 * 128)
        var notes: [Note] = []
        notes.reserveCapacity(events.underestimatedCount / 2)  // a note-on and a note-off each, mostly
        var timeSignatures: [TimeSignature] = []
        var keySignatures: [KeySignature] = []
        var texts: [TextEvent] = []
        /// Signatures outside what the standard allows (-7 to 7 sharps, modes 0 and 1, a
        /// numerator of 0, a denominator past 2^16), read as the nearest allowed.
        var oddSignatures = FirstOfMany()
        var synthEvents: [TimedMessage] = []
        synthEvents.reserveCapacity(events.underestimatedCount)
        var ordered = TickOrder(events.makeIterator())

        while let event = ordered.next() {
            let bytes = event.bytes
            guard let status = bytes.first else { continue }
            if status == 0xFF, bytes.count >= 3 {
                let data = Array(bytes.dropFirst(3))
                switch bytes[1] {
                case 0x03 where tracks[event.track].name == nil:
                    tracks[event.track].name = decodeText(data)
                case 0x58 where data.count == 4:
                    let signature = TimeSignature(
                        seconds: tempoMap.seconds(atTick: event.tick), tick: event.tick,
                        numerator: Int(data[0]).clamped(to: TimeSignature.numerators),
                        denominator: 1 << Int(data[1]).clamped(to: TimeSignature.denominatorPowers))
                    if signature.numerator != Int(data[0]) || 1 << Int(data[1]) != signature.denominator {
                        oddSignatures.note(
                            "time signature \(data[0])/2^\(data[1]) at tick \(event.tick) read as \(signature.numerator)/\(signature.denominator)")
                    }
                    timeSignatures.append(signature)
                case 0x59 where data.count == 2:
                    let stated = Int(Int8(bitPattern: data[0]))
                    let signature = KeySignature(
                        seconds: tempoMap.seconds(atTick: event.tick), tick: event.tick,
                        sharps: stated.clamped(to: KeySignature.sharpsRange), isMinor: data[1] == 1)
                    if stated != signature.sharps || data[1] > 1 {
                        let count = abs(stated), said = "\(count) \(stated < 0 ? "flat" : "sharp")\(count == 1 ? "" : "s")"
                        oddSignatures.note("key signature of \(said), mode \(data[1]), at tick \(event.tick) read as \(signature.name)")
                    }
                    keySignatures.append(signature)
                case 0x01, 0x05:
                    texts.append(
                        TextEvent(
                            seconds: tempoMap.seconds(atTick: event.tick), track: event.track,
                            kind: bytes[1] == 0x05 ? .lyric : .text, bytes: data))
                default: break
                }
                continue
            }
            if status == 0xF0 {
                synthEvents.append(TimedMessage(seconds: tempoMap.seconds(atTick: event.tick), bytes: bytes))
                continue
            }
            guard status >= 0x80, status < 0xF0 else { continue }
            let channel = status & 0x0F
            let kind = status & 0xF0
            synthEvents.append(TimedMessage(seconds: tempoMap.seconds(atTick: event.tick), bytes: bytes))
            if kind == 0x90 || kind == 0x80, bytes.count == 3 {
                let key = Int(channel) * 128 + Int(bytes[1] & 0x7F)
                if kind == 0x90 && bytes[2] > 0 {
                    sounding[key].append((event.tick, bytes[2], event.track, programs[Int(channel)]))
                    tracks[event.track].noteCount += 1
                    channelSets[event.track].insert(channel)
                } else {
                    for started in sounding[key] {
                        notes.append(
                            Note(
                                startSeconds: tempoMap.seconds(atTick: started.tick), endSeconds: tempoMap.seconds(atTick: event.tick),
                                pitch: bytes[1], velocity: started.velocity, channel: channel, track: started.track,
                                program: started.program))
                    }
                    sounding[key].removeAll(keepingCapacity: true)
                }
                continue
            }
            if kind == 0xC0, bytes.count == 2 {
                programs[Int(channel)] = bytes[1]
                if !tracks[event.track].programs.contains(bytes[1]) { tracks[event.track].programs.append(bytes[1]) }
            }
        }

        _ = consume ordered
        _ = consume events
        var unreleased = 0
        for (key, started) in sounding.enumerated() {
            for note in started {
                unreleased += 1
                notes.append(
                    Note(
                        startSeconds: tempoMap.seconds(atTick: note.tick), endSeconds: tempoMap.seconds(atTick: endTick),
                        pitch: UInt8(key % 128), velocity: note.velocity, channel: UInt8(key / 128), track: note.track,
                        program: note.program))
            }
        }
        if unreleased == 1 {
            warnings.append("1 note never released; it ends at the end of the song")
        } else if unreleased > 1 {
            warnings.append("\(unreleased) notes never released; they end at the end of the song")
        }
        if let first = oddSignatures.first {
            warnings.append(
                oddSignatures.count == 1
                    ? "a signature outside the standard's range: \(first)"
                    : "\(oddSignatures.count) signatures outside the standard's range; the first: \(first)")
        }
        notes.sort { ($0.startSeconds, $0.pitch, $0.channel, $0.track, $0.endSeconds) < ($1.startSeconds, $1.pitch, $1.channel, $1.track, $1.endSeconds) }
        for index in tracks.indices { tracks[index].channels = channelSets[index].sorted() }

        return Song(
            format: format, division: division, endTick: endTick,
            durationSeconds: tempoMap.seconds(atTick: endTick), tracks: tracks, notes: notes,
            tempoChanges: tempoMap.changes, timeSignatures: timeSignatures, keySignatures: keySignatures,
            synthEvents: synthEvents, warnings: warnings, texts: texts)
    }

    /// Text meta events carry no declared encoding: UTF-8 when valid, else Windows-1252 (as the
    /// lyrics are read: `TextEncoding`).
    static func decodeText(_ bytes: [UInt8]) -> String {
        let trimmed = Array(bytes.prefix { $0 != 0 })
        let scalars = TextEncoding.detect([trimmed]).decode(trimmed)
        // A byte-order mark some editors write before a UTF-8 name is not part of it.
        return String(String.UnicodeScalarView(scalars.first == "\u{FEFF}" ? Array(scalars.dropFirst()) : scalars))
    }

    /// How many times something happened, and the first time's description.
    struct FirstOfMany {
        private(set) var count = 0
        private(set) var first: String?

        mutating func note(_ description: @autoclosure () -> String) {
            if first == nil { first = description() }
            count += 1
        }
    }
}
