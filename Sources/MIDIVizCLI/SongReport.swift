import Foundation
import MIDIVizCore

/// What `midiviz info` prints about a song: a readable summary or one JSON object.
struct SongReport {
    let song: Song
    let path: String
    /// The song's lyrics as `--lyrics` shows them.
    let lyrics: Lyrics

    init(song: Song, path: String) {
        self.song = song
        self.path = path
        lyrics = Lyrics(song: song)
    }

    /// The report as one line of JSON (`--json`), with every note as
    /// `[start_s, end_s, pitch, velocity, channel, track]` when `includingNotes`, handed to `write`
    /// in pieces: the notes a batch at a time, so that a million of them are never one document
    /// in memory. The pieces make the bytes one encoding of the whole would (keys sorted).
    func writeJSON(includingNotes: Bool, to write: (Data) throws -> Void) throws {
        guard includingNotes else { return try write(Self.encoded(Document(report: self, keys: .all))) }
        // "notes" sorts between "note_count" and "tempo_changes": the keys before it, the notes,
        // then the keys after it.
        try write(Self.encoded(Document(report: self, keys: .beforeNotes)).dropLast())  // its "}"
        try write(Data(",\"notes\":[".utf8))
        let batch = 16_384
        for start in stride(from: 0, to: song.notes.count, by: batch) {
            let notes = song.notes[start..<min(start + batch, song.notes.count)].map(NoteEntry.init)
            let encoded = Self.encoded(notes).dropFirst().dropLast()  // its "[" and "]"
            try write(start == 0 ? Data(encoded) : Data(",".utf8) + encoded)
        }
        try write(Data("],".utf8) + Self.encoded(Document(report: self, keys: .afterNotes)).dropFirst())  // its "{"
    }

    private static func encoded(_ value: some Encodable) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)) ?? Data("{}".utf8)
    }

    /// Seconds and tempos to 9 decimals, so that binary noise (0.30000000000000004) stays out.
    private static func nine(_ value: Double) -> Double { value.isFinite ? (value * 1e9).rounded() / 1e9 : 0 }

    /// What `--json` writes, key by key.
    private struct Document: Encodable {
        let report: SongReport
        /// Which of the keys other than "notes" it holds.
        let keys: Keys

        enum Keys { case all, beforeNotes, afterNotes }

        enum CodingKeys: String, CodingKey {
            case file, title, format, division, durationSeconds = "duration_s", endTick = "end_tick", noteCount = "note_count"
            case tempoChanges = "tempo_changes", timeSignatures = "time_signatures", keySignatures = "key_signatures", tracks
            case lyrics, lyricsEncoding = "lyrics_encoding", warnings, notes
        }

        func encode(to encoder: any Encoder) throws {
            let song = report.song, lyrics = report.lyrics
            var container = Container(keyed: encoder.container(keyedBy: CodingKeys.self), keys: keys)
            try container.encode(report.path, forKey: .file)
            try container.encode(song.defaultTitle, forKey: .title)  // null for none
            try container.encode(song.format, forKey: .format)
            switch song.division {
            case .ticksPerQuarter(let ticks):
                try container.encode(["ticks_per_quarter": ticks], forKey: .division)
            case .smpte(let fps, let ticks):
                try container.encode(SMPTEDivision(fps: fps, ticks: ticks), forKey: .division)
            }
            try container.encode(SongReport.nine(song.durationSeconds), forKey: .durationSeconds)
            try container.encode(song.endTick, forKey: .endTick)
            try container.encode(song.notes.count, forKey: .noteCount)
            try container.encode(song.tempoChanges.map { [SongReport.nine($0.seconds), SongReport.nine($0.beatsPerMinute)] }, forKey: .tempoChanges)
            try container.encode(
                song.timeSignatures.map { TimeSignatureEntry(seconds: SongReport.nine($0.seconds), numerator: $0.numerator, denominator: $0.denominator) },
                forKey: .timeSignatures)
            try container.encode(
                song.keySignatures.map { KeySignatureEntry(seconds: SongReport.nine($0.seconds), sharps: $0.sharps, minor: $0.isMinor, name: $0.name) },
                forKey: .keySignatures)
            try container.encode(
                song.tracks.enumerated().map { index, track in
                    TrackEntry(
                        index: index, name: track.name, noteCount: track.noteCount, channels: track.channels.map { Int($0) },
                        programs: track.programs.map { Int($0) })
                }, forKey: .tracks)
            try container.encode(lyrics.syllables.map { SyllableEntry(seconds: SongReport.nine($0.seconds), text: $0.text) }, forKey: .lyrics)
            try container.encode(lyrics.syllables.isEmpty ? nil : lyrics.encoding.rawValue as String?, forKey: .lyricsEncoding)
            try container.encode(song.warnings, forKey: .warnings)
        }

        /// A keyed container that encodes only the keys on its side of "notes".
        struct Container {
            var keyed: KeyedEncodingContainer<CodingKeys>
            let keys: Keys

            mutating func encode(_ value: some Encodable, forKey key: CodingKeys) throws {
                switch keys {
                case .all: break
                case .beforeNotes: guard key.stringValue < CodingKeys.notes.stringValue else { return }
                case .afterNotes: guard key.stringValue > CodingKeys.notes.stringValue else { return }
                }
                try keyed.encode(value, forKey: key)
            }
        }
    }

    private struct SMPTEDivision: Encodable {
        let fps: Double, ticks: Int
        enum CodingKeys: String, CodingKey { case fps = "smpte_fps", ticks = "ticks_per_frame" }
    }

    private struct TimeSignatureEntry: Encodable {
        let seconds: Double, numerator: Int, denominator: Int
        enum CodingKeys: String, CodingKey { case seconds = "time_s", numerator, denominator }
    }

    private struct KeySignatureEntry: Encodable {
        let seconds: Double, sharps: Int, minor: Bool, name: String
        enum CodingKeys: String, CodingKey { case seconds = "time_s", sharps, minor, name }
    }

    private struct TrackEntry: Encodable {
        let index: Int, name: String?, noteCount: Int, channels: [Int], programs: [Int]
        enum CodingKeys: String, CodingKey { case index, name, noteCount = "note_count", channels, programs }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(index, forKey: .index)
            try container.encode(name, forKey: .name)  // null for an unnamed track
            try container.encode(noteCount, forKey: .noteCount)
            try container.encode(channels, forKey: .channels)
            try container.encode(programs, forKey: .programs)
        }
    }

    /// `[time_s, text]`.
    private struct SyllableEntry: Encodable {
        let seconds: Double, text: String
        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            try container.encode(seconds)
            try container.encode(text)
        }
    }

    /// `[start_s, end_s, pitch, velocity, channel, track]`.
    private struct NoteEntry: Encodable {
        let note: Note
        init(_ note: Note) { self.note = note }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            try container.encode(SongReport.nine(note.startSeconds))
            try container.encode(SongReport.nine(note.endSeconds))
            try container.encode(Int(note.pitch))
            try container.encode(Int(note.velocity))
            try container.encode(Int(note.channel))
            try container.encode(note.track)
        }
    }

    /// "1 note", "2 notes".
    static func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

    /// `text` with its control characters shown as spaces, as the lyrics show them: a file's
    /// names cannot move the cursor or retitle the terminal. JSON escapes them instead.
    static func printable(_ text: String) -> String { String(String.UnicodeScalarView(TextEncoding.controlsAsSpaces(text.unicodeScalars))) }

    var text: String {
        var lines: [String] = []
        lines.append(path)
        if let title = song.defaultTitle {
            let credits = KaraokeHeaders(song: song).credits
            lines.append("  title: \(Self.printable(title))" + (credits.isEmpty ? "" : " (\(Self.printable(credits.joined(separator: ", "))))"))
        }
        lines.append("  format \(song.format), \(song.division.description), \(Self.counted(song.tracks.count, "track"))")
        let seconds = String(format: "%.3f", song.durationSeconds)
        lines.append("  duration \(SongClock.text(song.durationSeconds)) (\(seconds) s), \(Self.counted(song.notes.count, "note"))")
        if !song.tempoChanges.isEmpty {
            let shown = song.tempoChanges.prefix(8).map { "\(String(format: "%.1f", $0.beatsPerMinute)) bpm at \(SongClock.text($0.seconds))" }
            let more = song.tempoChanges.count > 8 ? ", … \(song.tempoChanges.count - 8) more" : ""
            lines.append("  tempo: " + shown.joined(separator: ", ") + more)
        }
        if !song.timeSignatures.isEmpty {
            let shown = song.timeSignatures.prefix(8).map { "\($0.numerator)/\($0.denominator) at \(SongClock.text($0.seconds))" }
            let more = song.timeSignatures.count > 8 ? ", … \(song.timeSignatures.count - 8) more" : ""
            lines.append("  time signatures: " + shown.joined(separator: ", ") + more)
        }
        if !song.keySignatures.isEmpty {
            // Each part of a score (each track) states its key: one line says it once.
            var said: [String] = []
            for key in song.keySignatures {
                let text = "\(key.name) at \(SongClock.text(key.seconds))"
                if said.last != text { said.append(text) }
            }
            let more = said.count > 8 ? ", … \(said.count - 8) more" : ""
            lines.append("  key signatures: " + said.prefix(8).joined(separator: ", ") + more)
        }
        if !lyrics.isEmpty {
            let source: String
            switch lyrics.source {
            case .karaokeTrack(let track): source = ".kar text in track \(track)"
            case .lyricEvents, .none: source = "lyric events"
            }
            lines.append(
                "  lyrics: \(Self.counted(lyrics.lines.count, "line")), \(Self.counted(lyrics.syllables.count, "syllable")) (\(source), \(lyrics.encoding.rawValue)), from \(SongClock.text(lyrics.lines[0].start))"
            )
            for line in lyrics.lines.prefix(3) { lines.append("    \(SongClock.text(line.start))  \(line.text)") }
            if lyrics.lines.count > 3 { lines.append("    …") }
        }
        lines.append("  tracks:")
        for (index, track) in song.tracks.enumerated() {
            var parts = [Self.counted(track.noteCount, "note")]
            if !track.channels.isEmpty {
                parts.append("channel\(track.channels.count == 1 ? "" : "s") " + track.channels.map { String(Int($0) + 1) }.joined(separator: ","))
            }
            if !track.programs.isEmpty {
                parts.append("program\(track.programs.count == 1 ? "" : "s") " + track.programs.map { String($0) }.joined(separator: ","))
            }
            let name = track.name.map { "\"\(Self.printable($0))\"" } ?? "(unnamed)"
            lines.append("    \(String(format: "%2d", index)) \(name): " + parts.joined(separator: ", "))
        }
        if !song.warnings.isEmpty {
            // A broken file can make thousands: the first ones, and where all of them are.
            let shown = 20
            lines.append("  warnings:")
            lines.append(contentsOf: song.warnings.prefix(shown).map { "    - \(Self.printable($0))" })
            if song.warnings.count > shown {
                lines.append("    - … \(song.warnings.count - shown) more (`midiviz info --json` lists them all)")
            }
        }
        return lines.joined(separator: "\n")
    }
}
