import MIDIVizIO
import Testing

@testable import MIDIVizCore

/// Loads bytes through the whole loader (front end, libsmf, SongBuilder) and checks that the
/// canonical bytes handed to libsmf need no repair themselves.
func frontEndSong(_ bytes: [UInt8]) throws -> (ValidatedSMF, Song) {
    let validated = try SMFFrontEnd.validate(bytes)
    let canonical = try SMFFrontEnd.validate(validated.canonicalBytes)
    #expect(canonical.warnings.isEmpty, "canonical bytes must need no repair: \(canonical.warnings)")
    let song = try SongLoader.load(bytes: bytes, name: "test.mid")
    #expect(song.warnings.starts(with: validated.warnings))
    return (validated, song)
}

@Suite(.timeLimit(.minutes(30))) struct LoaderRepairTests {
    @Test func wellFormedFileNeedsNoRepair() throws {
        let bytes = SMFBytes.file(tracks: [SMFBytes.quarterNoteC4 + SMFBytes.endOfTrack])
        let (validated, song) = try frontEndSong(bytes)
        #expect(validated.warnings.isEmpty)
        #expect(song.notes == [Note(startSeconds: 0, endSeconds: 0.5, pitch: 60, velocity: 100, channel: 0, track: 0)])
        #expect(song.durationSeconds == 0.5)
    }

    @Test func missingEndOfTrackIsAddedWithAWarning() throws {
        let bytes = SMFBytes.file(tracks: [SMFBytes.quarterNoteC4])
        let (validated, song) = try frontEndSong(bytes)
        #expect(validated.warnings == ["track 0: no End-of-Track event; added one"])
        #expect(song.notes.count == 1)
        #expect(song.durationSeconds == 0.5)
    }

    @Test func runningStatusIsExpanded() throws {
        // 90 3C 64, then running status 3E 64 and 3C 00 / 3E 00 as note-offs.
        let body: [UInt8] = [0x00, 0x90, 0x3C, 0x64, 0x00, 0x3E, 0x64, 0x60, 0x3C, 0x00, 0x00, 0x3E, 0x00] + SMFBytes.endOfTrack
        let (validated, song) = try frontEndSong(SMFBytes.file(tracks: [body]))
        #expect(validated.warnings.isEmpty)
        #expect(song.notes.map(\.pitch) == [60, 62])
        #expect(song.notes.allSatisfy { $0.endSeconds == 0.5 })
    }

    @Test func runningStatusAfterSysExContinuesWithAWarning() throws {
        let body: [UInt8] =
            [
                0x00, 0x90, 0x3C, 0x64,
                0x00, 0xF0, 0x05, 0x7E, 0x7F, 0x09, 0x01, 0xF7,  // GM System On
                0x60, 0x3C, 0x00,
            ] + SMFBytes.endOfTrack
        let (validated, song) = try frontEndSong(SMFBytes.file(tracks: [body]))
        #expect(validated.warnings == ["track 0: running status used after a SysEx; continued with status 0x90"])
        #expect(song.notes.count == 1 && song.notes[0].endSeconds == 0.5)
        #expect(song.synthEvents.map(\.bytes) == [[0x90, 0x3C, 0x64], [0xF0, 0x7E, 0x7F, 0x09, 0x01, 0xF7], [0x90, 0x3C, 0x00]])  // as on the wire
    }

    @Test func dataByteWithoutRunningStatusIsRefused() {
        let body: [UInt8] = [0x00, 0x3C, 0x64] + SMFBytes.endOfTrack
        #expect(throws: SMFFormatError.corrupt("track 0: data byte 0x3C at offset 23 with no running status")) {
            try SMFFrontEnd.validate(SMFBytes.file(tracks: [body]))
        }
    }

    @Test func f7EscapeEventsAreSkipped() throws {
        let body: [UInt8] = [0x00, 0xF7, 0x02, 0xF8, 0xFA] + SMFBytes.quarterNoteC4 + SMFBytes.endOfTrack
        let (validated, song) = try frontEndSong(SMFBytes.file(tracks: [body]))
        #expect(validated.warnings == ["track 0: F7 escape (raw or continued SysEx) events skipped"])
        #expect(song.notes.count == 1)
    }

    @Test func systemMessagesInsideATrackAreSkippedWithTheirDataBytes() throws {
        // F2 carries two data bytes, F4 none; neither disturbs running status.
        let body: [UInt8] = [0x00, 0x90, 0x3C, 0x64, 0x00, 0xF2, 0x01, 0x02, 0x00, 0xF4, 0x60, 0x3C, 0x00] + SMFBytes.endOfTrack
        let (validated, song) = try frontEndSong(SMFBytes.file(tracks: [body]))
        #expect(validated.warnings.count == 2)
        #expect(song.notes.count == 1 && song.notes[0].endSeconds == 0.5)
    }

    @Test func longMetaEventsAreShortenedNotAllowedToEatTheTrack() throws {
        let name = [UInt8](repeating: 0x41, count: 200)
        let body: [UInt8] = [0x00, 0xFF, 0x03, 0x81, 0x48] + name + SMFBytes.quarterNoteC4 + SMFBytes.endOfTrack
        let (validated, song) = try frontEndSong(SMFBytes.file(tracks: [body]))
        #expect(validated.warnings == ["track 0: text meta event of 200 bytes shortened to 127"])
        #expect(song.tracks[0].name == String(repeating: "A", count: 127))
        #expect(song.notes.count == 1)
    }

    @Test func unknownChunksAreSkipped() throws {
        var bytes = SMFBytes.header(format: 0, tracks: 1, division: 96)
        bytes += SMFBytes.chunk("Junk", Array("not MIDI".utf8))
        bytes += SMFBytes.chunk("MTrk", SMFBytes.quarterNoteC4 + SMFBytes.endOfTrack)
        let (validated, song) = try frontEndSong(bytes)
        #expect(validated.warnings == ["unknown chunk 'Junk' at offset 14 skipped"])
        #expect(song.notes.count == 1 && song.notes[0].track == 0)
    }

    @Test func wrongTrackCountIsRepaired() throws {
        let bytes = SMFBytes.file(declaredTracks: 5, tracks: [SMFBytes.quarterNoteC4 + SMFBytes.endOfTrack])
        let (validated, _) = try frontEndSong(bytes)
        #expect(validated.trackCount == 1 && validated.declaredTrackCount == 5)
        #expect(validated.warnings == ["header declares 5 tracks, the file has 1"])
    }

    /// Bytes between the End-of-Track read on to and the next track's header are ignored, and
    /// said so; the last track, read on to the end of the file, too.
    @Test func aTrackReadOnPastItsLengthLeavesWhatFollowsItsEnd() throws {
        let first = SMFBytes.quarterNoteC4 + SMFBytes.endOfTrack + [0x01, 0x02, 0x03]
        var bytes = SMFBytes.header(format: 1, tracks: 2, division: 96)
        bytes += SMFBytes.chunk("MTrk", first, declaredLength: 6) + SMFBytes.chunk("MTrk", SMFBytes.quarterNoteC4 + SMFBytes.endOfTrack, declaredLength: 2)
        let (validated, song) = try frontEndSong(bytes)
        #expect(
            validated.warnings == [
                "track 0 declares 6 bytes, but its events run on past them; read on to its End-of-Track, which ends at offset 34",
                "track 0: 3 bytes after End-of-Track ignored",
                "track 1 declares 2 bytes, but its events run on past them; read on to its End-of-Track, which ends at offset 57",
            ])
        #expect(song.notes.map(\.track) == [0, 1])
    }

    /// A length ending between events where the bytes that follow look like a chunk's name
    /// (running-status data: delta 0x60, key 0x3C, velocity 0x40) but whose length does not fit
    /// in the file: read on, as when they look like nothing. The track's own warning (a stray
    /// clock byte, skipped) is kept, once.
    @Test func chunkLengthShorterBeforePrintableDataLosesNothing() throws {
        let first: [UInt8] = [0x00, 0x90, 60, 100, 0x00, 0xF8, 0x60, 62, 64, 0x60, 62, 0, 0x00, 60, 0] + SMFBytes.endOfTrack
        var bytes = SMFBytes.header(format: 1, tracks: 2, division: 96)
        bytes += SMFBytes.chunk("MTrk", first, declaredLength: 6) + SMFBytes.chunk("MTrk", SMFBytes.quarterNoteC4 + SMFBytes.endOfTrack)
        #expect(Array(bytes[28..<32]) == Array("`>@`".utf8))
        let (validated, song) = try frontEndSong(bytes)
        #expect(
            validated.warnings == [
                "track 0: system message 0xF8 (not allowed in a file) skipped",
                "track 0 declares 6 bytes, but its events run on past them; read on to its End-of-Track, which ends at offset 41",
            ])
        #expect(song.notes.count == 3)
        #expect(Set(song.notes.map { "\($0.track):\($0.pitch)" }) == ["0:60", "0:62", "1:60"])
    }

    /// A track that stops between events with no End-of-Track, followed by bytes that are no
    /// chunk and hold no End-of-Track either: repaired as before (an End-of-Track added, the
    /// bytes ignored), each warning once.
    @Test func aTrackWithoutEndOfTrackBeforeJunkIsRepairedAsBefore() throws {
        let bytes =
            SMFBytes.header(format: 0, tracks: 1, division: 96) + SMFBytes.chunk("MTrk", SMFBytes.quarterNoteC4) + [0x00, 0x90, 62]
        let (validated, song) = try frontEndSong(bytes)
        #expect(validated.warnings == ["track 0: no End-of-Track event; added one", "3 trailing bytes after the last chunk ignored"])
        #expect(song.notes.map(\.pitch) == [60])
    }

    /// A stray byte between two tracks: the tracks after it are read from the next MTrk header,
    /// not dropped.
    @Test func aStrayByteBetweenTracksLosesNoTrack() throws {
        var bytes = SMFBytes.header(format: 1, tracks: 3, division: 96)
        bytes += SMFBytes.chunk("MTrk", SMFBytes.quarterNoteC4 + SMFBytes.endOfTrack) + [0x00]
        bytes += SMFBytes.chunk("MTrk", SMFBytes.quarterNoteC4 + SMFBytes.endOfTrack) + SMFBytes.chunk("MTrk", SMFBytes.quarterNoteC4 + SMFBytes.endOfTrack)
        let (validated, song) = try frontEndSong(bytes)
        #expect(validated.warnings == ["1 byte at offset 34 is not a chunk; skipped to the MTrk header at offset 35"])
        #expect(validated.trackCount == 3 && song.notes.map(\.track) == [0, 1, 2])
    }

    /// Stray bytes before the first track, and a header length too long by a few bytes, by
    /// hundreds, to the end of the file or past it: the tracks are read from the first MTrk
    /// header after the header's six bytes.
    @Test(
        arguments: [
            ([0x00], 6, "1 byte at offset 14 is not a chunk; skipped to the MTrk header at offset 15"),
            (Array("junk!".utf8), 6, "5 bytes at offset 14 are not a chunk; skipped to the MTrk header at offset 19"),
            ([], 8, "MThd header declares 8 bytes, but an MTrk chunk begins right after its 6, at offset 14; read from there"),
            ([], 40, "MThd header declares 40 bytes, but an MTrk chunk begins right after its 6, at offset 14; read from there"),
            ([], 46, "MThd header declares 46 bytes, but an MTrk chunk begins right after its 6, at offset 14; read from there"),
            ([], 300, "MThd header declares 300 bytes, but an MTrk chunk begins right after its 6, at offset 14; read from there"),
            ([], 26, "MThd header declares 26 bytes, but an MTrk chunk begins right after its 6, at offset 14; read from there"),
            ([0, 0], 100, "MThd header declares 100 bytes, but an MTrk chunk begins at offset 16, 2 bytes after its 6; read from there"),
        ] as [([UInt8], Int, String)])
    func strayBytesBeforeTheFirstTrackLoseNoTrack(stray: [UInt8], headerLength: Int, warning: String) throws {
        var bytes = SMFBytes.header(format: 1, tracks: 2, division: 96)
        bytes.replaceSubrange(4..<8, with: SMFBytes.be32(headerLength))
        bytes += stray
        for _ in 0..<2 { bytes += SMFBytes.chunk("MTrk", SMFBytes.quarterNoteC4 + SMFBytes.endOfTrack) }
        // In this 54-byte file, 46 points exactly at its end, 40 inside its last 8 bytes, 300 past
        // it, 26 at the second track (which a length honoured would make the first).
        let (validated, song) = try frontEndSong(bytes)
        #expect(validated.warnings == [warning])
        #expect(validated.trackCount == 2 && song.notes.map(\.track) == [0, 1])
    }

    /// Stray bytes before the first track holding "MTrk" (a header that cannot be read) or
    /// "MThd" (no second file: no track came before it): the real first track is read.
    @Test(arguments: [
        Array("xMTrk".utf8), Array("zzMTrk".utf8) + [0xFF, 0xFF, 0xFF, 0xF0], Array("zzMTrk".utf8) + [0, 0, 0, 3, 1, 2, 3],
        Array("MThd".utf8), Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0, 0x60],
    ])
    func trackAndFileHeadersInStrayBytesBeforeTheFirstTrackLoseNoTrack(stray: [UInt8]) throws {
        var bytes = SMFBytes.header(format: 1, tracks: 2, division: 96) + stray
        let first = bytes.count
        for _ in 0..<2 { bytes += SMFBytes.chunk("MTrk", SMFBytes.quarterNoteC4 + SMFBytes.endOfTrack) }
        let (validated, song) = try frontEndSong(bytes)
        #expect(validated.warnings.last?.hasSuffix("to the MTrk header at offset \(first)") == true, "\(validated.warnings)")
        #expect(validated.trackCount == 2 && song.notes.map(\.track) == [0, 1])
    }

    /// Bytes after the header holding no track header are still refused, with where they lie.
    @Test func noTrackHeaderAfterTheHeaderIsRefused() {
        #expect(throws: SMFFormatError.corrupt("bytes at offset 14 are not a chunk header")) {
            try SMFFrontEnd.validate(SMFBytes.header(format: 0, tracks: 1, division: 96) + [0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08])
        }
    }

    /// A length a few bytes too long that ends inside the next track's header, after bytes that
    /// are no chunk: the next track is read from its header, a few bytes back.
    @Test func aLengthEndingInsideTheNextHeaderLosesNoTrack() throws {
        let first = SMFBytes.quarterNoteC4 + SMFBytes.endOfTrack + [0x00]
        var bytes = SMFBytes.header(format: 1, tracks: 2, division: 96)
        bytes += SMFBytes.chunk("MTrk", first, declaredLength: first.count + 3) + SMFBytes.chunk("MTrk", SMFBytes.quarterNoteC4 + SMFBytes.endOfTrack)
        let (validated, song) = try frontEndSong(bytes)
        #expect(
            validated.warnings == [
                "track 0: 4 bytes after End-of-Track ignored", "no chunk begins at offset 38; read on from the MTrk header at offset 35",
            ])
        #expect(validated.trackCount == 2 && song.notes.map(\.track) == [0, 1])
    }

    /// Bytes whose name is printable but whose length runs past the end of the file, before a
    /// track: the track is read, not dropped with them.
    @Test func aRunawayChunkBeforeATrackLosesNoTrack() throws {
        var bytes = SMFBytes.header(format: 1, tracks: 2, division: 96)
        bytes += SMFBytes.chunk("MTrk", SMFBytes.quarterNoteC4 + SMFBytes.endOfTrack) + Array("JUNK".utf8) + [0x7F, 0xFF, 0xFF, 0xFF]
        bytes += SMFBytes.chunk("MTrk", SMFBytes.quarterNoteC4 + SMFBytes.endOfTrack)
        let (validated, song) = try frontEndSong(bytes)
        #expect(validated.warnings == ["8 bytes at offset 34 are not a chunk; skipped to the MTrk header at offset 42"])
        #expect(song.notes.map(\.track) == [0, 1])
    }

    /// Two files joined: the second, with its own division and tempo, is not played as tracks of
    /// the first.
    @Test func aSecondFileJoinedOnIsIgnored() throws {
        let first = SMFBytes.file(tracks: [SMFBytes.quarterNoteC4 + SMFBytes.endOfTrack])
        let second = SMFBytes.file(division: 480, tracks: [[0x00, 0x90, 72, 100, 0x60, 0x80, 72, 0] + SMFBytes.endOfTrack])
        let (validated, song) = try frontEndSong(first + second)
        #expect(validated.warnings == ["a second MIDI file begins at offset \(first.count) (an MThd header); it and what follows are ignored"])
        #expect(song.notes.map(\.pitch) == [60] && validated.trackCount == 1)
    }

    /// Two files joined with a byte of padding between them: the second is still not read as
    /// tracks of the first.
    @Test func aSecondFileAfterPaddingIsIgnored() throws {
        let first = SMFBytes.file(tracks: [SMFBytes.quarterNoteC4 + SMFBytes.endOfTrack])
        let second = SMFBytes.file(division: 480, tracks: [[0x00, 0x90, 72, 100, 0x60, 0x80, 72, 0] + SMFBytes.endOfTrack])
        let (validated, song) = try frontEndSong(first + [0x1A] + second)
        let at = first.count + 1
        #expect(
            validated.warnings == [
                "1 byte at offset \(first.count) is not a chunk; skipped to the MThd header at offset \(at)",
                "a second MIDI file begins at offset \(at) (an MThd header); it and what follows are ignored",
            ])
        #expect(song.notes.map(\.pitch) == [60])
    }

    /// Junk after the last track that holds the letters "MTrk": what follows them cannot be read
    /// as a track, so it is ignored, as the junk was before, and the file is not refused.
    @Test func anUnreadableTrackAfterStrayBytesIsIgnored() throws {
        var bytes = SMFBytes.file(tracks: [SMFBytes.quarterNoteC4 + SMFBytes.endOfTrack])
        let junkAt = bytes.count
        bytes += [0x01, 0x02] + Array("MTrk".utf8) + [0, 0, 0, 3, 0x00, 0x45, 0x01]  // a data byte with no status
        let (validated, song) = try frontEndSong(bytes)
        #expect(
            validated.warnings == [
                "2 bytes at offset \(junkAt) are not a chunk; skipped to the MTrk header at offset \(junkAt + 2)",
                "the MTrk chunk at offset \(junkAt + 2) cannot be read (track 1: data byte 0x45 at offset \(junkAt + 11) with no running status); it and what follows are ignored",
            ])
        #expect(song.notes.map(\.pitch) == [60] && validated.trackCount == 1)
    }

    /// A track whose End-of-Track lost a byte, so that its length ends inside the next track's
    /// header: it is not read on into that track (its notes would move), but refused.
    @Test func aTrackReadOnStopsAtTheNextHeaderWithinItsLength() {
        let first = SMFBytes.quarterNoteC4 + [0x00, 0xFF, 0x00]  // the End-of-Track's 0x2F lost
        var bytes = SMFBytes.header(format: 1, tracks: 2, division: 96)
        bytes += SMFBytes.chunk("MTrk", first, declaredLength: first.count + 1) + SMFBytes.chunk("MTrk", SMFBytes.quarterNoteC4 + SMFBytes.endOfTrack)
        do {
            _ = try SMFFrontEnd.validate(bytes)
            Issue.record("read a track on into the next one")
        } catch {
            #expect(error.description.contains("runs past the end of its chunk"), "\(error.description)")
        }
    }

    /// Read on, a track must reach an End-of-Track before the next track: otherwise its length
    /// is not the fault, and the file is refused as before.
    @Test func chunkLengthShorterThanItsDataWithNoEndOfTrackIsRefused() {
        let bytes =
            SMFBytes.header(format: 1, tracks: 2, division: 96) + SMFBytes.chunk("MTrk", SMFBytes.quarterNoteC4, declaredLength: 6)
            + SMFBytes.chunk("MTrk", SMFBytes.quarterNoteC4 + SMFBytes.endOfTrack)
        do {
            _ = try SMFFrontEnd.validate(bytes)
            Issue.record("accepted a track with no End-of-Track past its length")
        } catch {
            #expect(error.description == "corrupt MIDI file: track 0: channel message at offset 26 runs past the end of its chunk (chunk length too short?)")
        }
    }

    /// A wrong chunk length loses no track. Too short, cutting the note-off in half (6) or
    /// ending between events (4): the track is read on to its End-of-Track. Too long, into the
    /// next chunk (20) or past the end of the file (4,000): the next track is read from its
    /// header right after the End-of-Track.
    @Test(arguments: [6, 4, 20, 4_000])
    func aWrongChunkLengthLosesNoTrack(declaredLength: Int) throws {
        let first = SMFBytes.quarterNoteC4 + SMFBytes.endOfTrack
        let second: [UInt8] = [0x00, 0x91, 64, 90, 0x60, 0x81, 64, 0] + SMFBytes.endOfTrack
        var bytes = SMFBytes.header(format: 1, tracks: 2, division: 96)
        bytes += SMFBytes.chunk("MTrk", first, declaredLength: declaredLength) + SMFBytes.chunk("MTrk", second)
        let (validated, song) = try frontEndSong(bytes)
        #expect(validated.trackCount == 2)
        let warning =
            declaredLength < first.count
            ? "track 0 declares \(declaredLength) bytes, but its events run on past them; read on to its End-of-Track, which ends at offset 34"
            : "track 0 declares \(declaredLength) bytes, but an MTrk chunk begins right after its End-of-Track, at offset 34; read from there"
        #expect(validated.warnings == [warning])
        #expect(song.notes.map(\.pitch) == [60, 64] && song.notes.map(\.track) == [0, 1] && song.notes[1].channel == 1)
        #expect(song.notes[0].endSeconds > song.notes[0].startSeconds)
    }

    /// An MTrk header after the End-of-Track, inside a chunk whose length points at the next
    /// track's header, is not followed: the length holds.
    @Test func aChunkInsideATrackAfterItsEndIsIgnoredWhenTheLengthHolds() throws {
        let inner = SMFBytes.chunk("MTrk", [0x00, 0x90, 62, 100] + SMFBytes.endOfTrack)
        let body = SMFBytes.quarterNoteC4 + SMFBytes.endOfTrack + inner
        let bytes = SMFBytes.file(tracks: [body, SMFBytes.quarterNoteC4 + SMFBytes.endOfTrack])
        let (validated, song) = try frontEndSong(bytes)
        #expect(validated.warnings == ["track 0: \(inner.count) bytes after End-of-Track ignored"])
        #expect(validated.trackCount == 2 && song.notes.map(\.pitch) == [60, 60] && song.notes.map(\.track) == [0, 1])
    }

    @Test func bytesAfterEndOfTrackThatAreNoChunkAreIgnored() throws {
        let body = SMFBytes.quarterNoteC4 + SMFBytes.endOfTrack + [0x00, 0x90, 62, 100]
        let bytes = SMFBytes.file(tracks: [body, SMFBytes.quarterNoteC4 + SMFBytes.endOfTrack])
        let (validated, song) = try frontEndSong(bytes)
        #expect(validated.warnings == ["track 0: 4 bytes after End-of-Track ignored"])
        #expect(song.notes.map(\.track) == [0, 1])
    }

    @Test func truncatedFileKeepsWhatIsComplete() throws {
        let full = SMFBytes.file(tracks: [SMFBytes.quarterNoteC4 + SMFBytes.quarterNoteC4 + SMFBytes.endOfTrack])
        let cut = Array(full.dropLast(5))  // inside the second note-off
        let (validated, song) = try frontEndSong(cut)
        #expect(validated.warnings.first?.hasPrefix("file is truncated: track 0 declares") == true)
        #expect(song.notes.count == 2)  // the second note-on survives; its note never ends
        #expect(song.warnings.contains("1 note never released; it ends at the end of the song"))
    }

    @Test(arguments: [
        ([UInt8](), "not a Standard MIDI File (the file is empty)"),
        (Array("RIFF....WAVEfmt ".utf8), "not a Standard MIDI File (a RIFF file that is not RMID)"),
        (Array("hello, world".utf8), "not a Standard MIDI File (no MThd header at the start)"),
    ])
    func nonMIDIBytesAreRefused(bytes: [UInt8], message: String) {
        do {
            _ = try SMFFrontEnd.validate(bytes)
            Issue.record("accepted \(bytes)")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func headerOnlyFileIsRefused() {
        #expect(throws: SMFFormatError.corrupt("no MTrk chunk in the file")) {
            try SMFFrontEnd.validate(SMFBytes.header(format: 0, tracks: 1, division: 96))
        }
    }

    @Test func deltaTimeLongerThanFourBytesIsRefused() {
        let body: [UInt8] = [0x81, 0x81, 0x81, 0x81, 0x01, 0x90, 60, 100] + SMFBytes.endOfTrack
        #expect(throws: SMFFormatError.self) { try SMFFrontEnd.validate(SMFBytes.file(tracks: [body])) }
    }

    @Test func zeroDivisionIsRefused() {
        #expect(throws: SMFFormatError.corrupt("unusable time division 0x0000")) {
            try SMFFrontEnd.validate(SMFBytes.file(division: 0, tracks: [SMFBytes.endOfTrack]))
        }
    }

    @Test func smpteDivisionCountsSecondsFromFramesAndIgnoresTempo() throws {
        // 25 fps × 40 ticks per frame = 1000 ticks per second: E7 28.
        let body: [UInt8] =
            [
                0x00, 0xFF, 0x51, 0x03, 0x07, 0xA1, 0x20,  // tempo 500000, to be ignored
                0x00, 0x90, 60, 100, 0x87, 0x68, 0x80, 60, 0,
            ] + SMFBytes.endOfTrack  // 1000 ticks
        let (validated, song) = try frontEndSong(SMFBytes.file(division: 0xE728, tracks: [body]))
        #expect(validated.division == .smpte(framesPerSecond: 25, ticksPerFrame: 40))
        #expect(song.notes.count == 1)
        #expect(abs(song.notes[0].endSeconds - 1.0) < 1e-12)
        #expect(song.tempoChanges.isEmpty)
        #expect(song.warnings == ["SMPTE time division: 1 tempo events ignored"])
    }

    @Test func smpteDropFrameRateIs2997() {
        #expect(Division(word: 0xE350) == .smpte(framesPerSecond: 30000.0 / 1001.0, ticksPerFrame: 80))
        #expect(Division(word: 0xE000) == nil)  // 32 fps does not exist
    }

    @Test func format2TracksPlayOneAfterAnother() throws {
        let pattern = SMFBytes.quarterNoteC4 + SMFBytes.endOfTrack
        let (validated, song) = try frontEndSong(SMFBytes.file(format: 2, tracks: [pattern, pattern]))
        #expect(validated.warnings == ["format 2: the 2 tracks are played one after another"])
        #expect(song.notes.map(\.startSeconds) == [0, 0.5])
        #expect(song.notes.map(\.track) == [0, 1])
        #expect(song.durationSeconds == 1.0)
    }

    @Test func rmidWrapperIsUnwrapped() throws {
        let smf = SMFBytes.file(tracks: [SMFBytes.quarterNoteC4 + SMFBytes.endOfTrack])
        func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }
        let riff = Array("RIFF".utf8) + le32(smf.count + 12) + Array("RMIDdata".utf8) + le32(smf.count) + smf
        let (validated, song) = try frontEndSong(riff)
        #expect(validated.warnings == ["RIFF RMID wrapper unwrapped"])
        #expect(song.notes.count == 1)
    }

    @Test func absurdTickIsRefused() {
        // Nine deltas of 0x0FFFFFFF pass the libsmf int range.
        let body = Array(repeating: [0xFF, 0xFF, 0xFF, 0x7F, 0xFF, 0x01, 0x00] as [UInt8], count: 9).flatMap { $0 } + SMFBytes.endOfTrack
        #expect(throws: SMFFormatError.self) { try SMFFrontEnd.validate(SMFBytes.file(tracks: [body])) }
    }
}
