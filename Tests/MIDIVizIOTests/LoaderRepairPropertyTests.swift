import MIDIVizCore
import MIDIVizIO
import PropertyBased
import Testing

/// Whatever the loader repairs (a missing End-of-Track, a wrong track count, unknown chunks,
/// trailing bytes, stray system bytes, format 0 with several tracks) it never loses or
/// duplicates a note: every note written is loaded once, at its tick, on its track and channel.
@Suite(.timeLimit(.minutes(30))) struct LoaderRepairPropertyTests {
    struct WrittenNote: Hashable, Comparable {
        var track: Int, channel: UInt8, pitch: UInt8, startTick: Int, endTick: Int
        static func < (a: Self, b: Self) -> Bool {
            (a.track, a.channel, a.pitch, a.startTick, a.endTick) < (b.track, b.channel, b.pitch, b.startTick, b.endTick)
        }
    }

    /// Notes from packed numbers; a note that would overlap (or touch) an earlier one on the same
    /// channel and key is left out, as a synthesizer could not tell them apart.
    static func notes(_ packed: [Int], tracks: Int) -> [WrittenNote] {
        var kept: [WrittenNote] = []
        for value in packed {
            let note = WrittenNote(
                track: value % tracks, channel: UInt8(value / 4 % 16), pitch: UInt8(20 + value / 64 % 90),
                startTick: value / 5_760 % 2_000, endTick: 0)
            var withEnd = note
            withEnd.endTick = note.startTick + value / 11_520_000 % 300
            let clashes = kept.contains {
                $0.channel == note.channel && $0.pitch == note.pitch && $0.startTick <= withEnd.endTick && note.startTick <= $0.endTick
            }
            if !clashes { kept.append(withEnd) }
        }
        return kept
    }

    struct Repairs: OptionSet {
        let rawValue: Int
        static let noEndOfTrack = Repairs(rawValue: 1)
        static let wrongTrackCount = Repairs(rawValue: 2)
        static let unknownChunk = Repairs(rawValue: 4)
        static let trailingBytes = Repairs(rawValue: 8)
        static let zeroVelocityOff = Repairs(rawValue: 16)
        static let runningStatus = Repairs(rawValue: 32)
        static let straySystemBytes = Repairs(rawValue: 64)
        static let formatZero = Repairs(rawValue: 128)
        /// The first track's chunk declares 3 bytes fewer than it holds (when it has an End-of-Track).
        static let shortLength = Repairs(rawValue: 256)
    }

    static func file(_ notes: [WrittenNote], tracks: Int, repairs: Repairs) -> [UInt8] {
        var chunks: [[UInt8]] = []
        for track in 0..<tracks {
            // (tick, order, bytes): at one tick, note-offs before note-ons, each note's own on before its off.
            var events: [(tick: Int, order: Int, bytes: [UInt8])] = []
            for (index, note) in notes.enumerated() where note.track == track {
                let off: [UInt8] = repairs.contains(.zeroVelocityOff) ? [0x90 | note.channel, note.pitch, 0] : [0x80 | note.channel, note.pitch, 64]
                events.append((note.startTick, 2 * index + 1, [0x90 | note.channel, note.pitch, 100]))
                events.append((note.endTick, note.endTick == note.startTick ? 2 * index + 2 : -1, off))
            }
            events.sort { ($0.tick, $0.order) < ($1.tick, $1.order) }
            var body: [UInt8] = repairs.contains(.straySystemBytes) ? [0x00, 0xF8, 0x00, 0xF6] : []
            var tick = 0, status: UInt8? = nil
            for event in events {
                body += vlq(event.tick - tick)
                tick = event.tick
                if repairs.contains(.runningStatus), status == event.bytes[0] {
                    body += event.bytes.dropFirst()
                } else {
                    body += event.bytes
                }
                status = event.bytes[0]
            }
            if !repairs.contains(.noEndOfTrack) { body += SMFBytes.endOfTrack }
            chunks.append(body)
        }
        var out = SMFBytes.header(
            format: repairs.contains(.formatZero) ? 0 : 1,
            tracks: UInt16(tracks + (repairs.contains(.wrongTrackCount) ? 3 : 0)), division: 96)
        for (index, body) in chunks.enumerated() {
            let isShort = index == 0 && repairs.contains(.shortLength) && !repairs.contains(.noEndOfTrack)
            out += SMFBytes.chunk("MTrk", body, declaredLength: isShort ? body.count - 3 : nil)
            if index == 0, repairs.contains(.unknownChunk) { out += SMFBytes.chunk("XFIH", [1, 2, 3, 4, 5]) }
        }
        if repairs.contains(.trailingBytes) { out += [0, 1, 2, 3, 4] }
        return out
    }

    static func vlq(_ value: Int) -> [UInt8] {
        var bytes = [UInt8(value & 0x7F)]
        var rest = value >> 7
        while rest > 0 {
            bytes.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
            rest >>= 7
        }
        return bytes
    }

    @Test func repairsNeverLoseOrDuplicateANote() async throws {
        await propertyCheck(
            count: 200, input: Gen.int(in: 0...Int(Int32.max)).array(of: 0...60), Gen.int(in: 1...4),
            Gen.int(in: 0...511)
        ) { packed, tracks, repairBits in
            // PropertyBased 2.0.1 drops what the body throws (Swift 6.2 and later): recorded here.
            do {
                let repairs = Repairs(rawValue: repairBits)
                let written = Self.notes(packed, tracks: tracks)
                let bytes = Self.file(written, tracks: tracks, repairs: repairs)
                let song = try SongLoader.load(bytes: bytes, name: "generated.mid")
                // 96 ticks a quarter at the default 120 bpm: 192 ticks a second.
                let loaded = song.notes.map {
                    WrittenNote(
                        track: $0.track, channel: $0.channel, pitch: $0.pitch,
                        startTick: Int(($0.startSeconds * 192).rounded()), endTick: Int(($0.endSeconds * 192).rounded()))
                }
                #expect(loaded.sorted() == written.sorted(), "repairs \(repairs.rawValue): \(song.warnings)")
            } catch {
                Issue.record(error, "threw")
            }
        }
    }
}
