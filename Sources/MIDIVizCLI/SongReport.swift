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

    var json: JSONValue { json(includingNotes: false) }

    func json(includingNotes: Bool) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("file", .string(path)),
            ("format", .int(song.format)),
            ("division", divisionJSON),
            ("duration_s", .double(song.durationSeconds)),
            ("end_tick", .int(song.endTick)),
            ("note_count", .int(song.notes.count)),
            ("tempo_changes", .array(song.tempoChanges.map { .array([.double($0.seconds), .double($0.beatsPerMinute)]) })),
            (
                "time_signatures",
                .array(
                    song.timeSignatures.map {
                        .object([("time_s", .double($0.seconds)), ("numerator", .int($0.numerator)), ("denominator", .int($0.denominator))])
                    })
            ),
            (
                "key_signatures",
                .array(
                    song.keySignatures.map {
                        .object([("time_s", .double($0.seconds)), ("sharps", .int($0.sharps)), ("minor", .bool($0.isMinor)), ("name", .string($0.name))])
                    })
            ),
            (
                "tracks",
                .array(
                    song.tracks.enumerated().map { index, track in
                        .object([
                            ("index", .int(index)),
                            ("name", track.name.map(JSONValue.string) ?? .null),
                            ("note_count", .int(track.noteCount)),
                            ("channels", .array(track.channels.map { .int(Int($0)) })),
                            ("programs", .array(track.programs.map { .int(Int($0)) })),
                        ])
                    })
            ),
            ("lyrics", .array(lyrics.syllables.map { .array([.double($0.seconds), .string($0.text)]) })),
            ("lyrics_encoding", lyrics.syllables.isEmpty ? .null : .string(lyrics.encoding.rawValue)),
            ("warnings", .array(song.warnings.map(JSONValue.string))),
        ]
        if includingNotes {
            members.append(
                (
                    "notes",
                    .array(
                        song.notes.map { note in
                            .array([
                                .double(note.startSeconds), .double(note.endSeconds), .int(Int(note.pitch)),
                                .int(Int(note.velocity)), .int(Int(note.channel)), .int(note.track),
                            ])
                        })
                ))
        }
        return .object(members)
    }

    private var divisionJSON: JSONValue {
        switch song.division {
        case .ticksPerQuarter(let ticks):
            return .object([("ticks_per_quarter", .int(ticks))])
        case .smpte(let fps, let ticks):
            return .object([("smpte_fps", .double(fps)), ("ticks_per_frame", .int(ticks))])
        }
    }

    var text: String {
        var lines: [String] = []
        lines.append(path)
        lines.append("  format \(song.format), \(song.division.description), \(song.tracks.count) track\(song.tracks.count == 1 ? "" : "s")")
        lines.append("  duration \(SongClock.text(song.durationSeconds)) (\(String(format: "%.3f", song.durationSeconds)) s), \(song.notes.count) notes")
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
            let shown = song.keySignatures.prefix(8).map { "\($0.name) at \(SongClock.text($0.seconds))" }
            lines.append("  key signatures: " + shown.joined(separator: ", "))
        }
        if !lyrics.isEmpty {
            let source: String
            switch lyrics.source {
            case .karaokeTrack(let track): source = ".kar text in track \(track)"
            case .lyricEvents, .none: source = "lyric events"
            }
            lines.append(
                "  lyrics: \(lyrics.lines.count) line\(lyrics.lines.count == 1 ? "" : "s"), \(lyrics.syllables.count) syllables (\(source), \(lyrics.encoding.rawValue)), from \(SongClock.text(lyrics.lines[0].start))"
            )
            for line in lyrics.lines.prefix(3) { lines.append("    \(SongClock.text(line.start))  \(line.text)") }
            if lyrics.lines.count > 3 { lines.append("    …") }
        }
        lines.append("  tracks:")
        for (index, track) in song.tracks.enumerated() {
            var parts = ["\(track.noteCount) notes"]
            if !track.channels.isEmpty {
                parts.append("channel\(track.channels.count == 1 ? "" : "s") " + track.channels.map { String(Int($0) + 1) }.joined(separator: ","))
            }
            if !track.programs.isEmpty {
                parts.append("program\(track.programs.count == 1 ? "" : "s") " + track.programs.map { String($0) }.joined(separator: ","))
            }
            let name = track.name.map { "\"\($0)\"" } ?? "(unnamed)"
            lines.append("    \(String(format: "%2d", index)) \(name): " + parts.joined(separator: ", "))
        }
        if !song.warnings.isEmpty {
            lines.append("  warnings:")
            lines.append(contentsOf: song.warnings.map { "    - \($0)" })
        }
        return lines.joined(separator: "\n")
    }
}
