/// A MIDI file for engraving a song that was not read from a score: the song's notes (drums left
/// out) on a grid of sixteenth notes as one piano track, with its time and key signatures and no
/// tempo events, at the song's own ticks per quarter. MuseScore 3 reads a piano track that needs
/// it into a grand staff (its own hand split; two tracks would be two grand staves). Its quarters
/// are the song's quarters, so the engraving's onsets line up with the song's tempo map.
package enum NotationMIDI {
    package static func bytes(of song: Song) -> [UInt8] {
        let ticksPerQuarter = min(song.ticksPerQuarter, 0x7FFF)
        let grid = max(1, ticksPerQuarter / 4)
        func tick(_ seconds: Double) -> Int {
            let ticks = song.quarters(atSeconds: seconds) * Double(ticksPerQuarter)
            return max(0, Int((ticks / Double(grid)).rounded())) * grid
        }
        // (tick, order, bytes): at one tick, meta events, then note-offs, then note-ons.
        var events: [(tick: Int, order: Int, bytes: [UInt8])] = []
        for signature in song.timeSignatures {
            let power = max(0, min(6, log2(signature.denominator)))
            events.append((signature.tick, 0, [0xFF, 0x58, 4, UInt8(clamping: signature.numerator), UInt8(power), 24, 8]))
        }
        for key in song.keySignatures {
            events.append((key.tick, 0, [0xFF, 0x59, 2, UInt8(bitPattern: Int8(clamping: key.sharps)), key.isMinor ? 1 : 0]))
        }
        var notes: [(pitch: Int, start: Int, end: Int)] = []
        for note in song.notes where note.channel != Scene.drumChannel {
            let start = tick(note.startSeconds)
            let end = max(start + grid, tick(note.endSeconds))
            notes.append((Int(note.pitch & 0x7F), start, end))
        }
        notes.sort { ($0.start, $0.pitch) < ($1.start, $1.pitch) }
        // A note of a pitch still held ends where the next of that pitch starts.
        var kept: [(pitch: Int, start: Int, end: Int)] = []
        var lastOfPitch = [Int](repeating: -1, count: 128)
        for note in notes {
            let previous = lastOfPitch[note.pitch]
            if previous >= 0 {
                if kept[previous].start == note.start { continue }
                kept[previous].end = min(kept[previous].end, note.start)
            }
            lastOfPitch[note.pitch] = kept.count
            kept.append(note)
        }
        var piano: [(tick: Int, order: Int, bytes: [UInt8])] = [(0, 0, [0xC0, 0])]
        for note in kept {
            piano.append((note.start, 2, [0x90, UInt8(note.pitch), 80]))
            piano.append((note.end, 1, [0x80, UInt8(note.pitch), 0]))
        }
        let tracks = [events, piano]
        var file: [UInt8] = Array("MThd".utf8) + [0, 0, 0, 6, 0, 1, 0, UInt8(tracks.count), UInt8(ticksPerQuarter >> 8), UInt8(ticksPerQuarter & 0xFF)]
        for events in tracks {
            var track: [UInt8] = []
            var now = 0
            for event in events.sorted(by: { ($0.tick, $0.order) < ($1.tick, $1.order) }) {
                track += variableLength(event.tick - now)
                track += event.bytes
                now = event.tick
            }
            track += [0, 0xFF, 0x2F, 0]
            file += Array("MTrk".utf8) + bigEndian32(track.count) + track
        }
        return file
    }

    private static func log2(_ value: Int) -> Int {
        var power = 0, rest = value
        while rest > 1 {
            rest /= 2
            power += 1
        }
        return power
    }

    private static func variableLength(_ value: Int) -> [UInt8] {
        var value = max(0, min(value, 0x0FFF_FFFF))
        var bytes = [UInt8(value & 0x7F)]
        value >>= 7
        while value > 0 {
            bytes.insert(UInt8(value & 0x7F) | 0x80, at: 0)
            value >>= 7
        }
        return bytes
    }

    private static func bigEndian32(_ value: Int) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
