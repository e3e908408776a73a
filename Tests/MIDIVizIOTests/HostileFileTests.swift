import MIDIVizIO
import Testing

@testable import MIDIVizCore

/// Files that broke the loader: more tracks than the header can count, tens of thousands of
/// empty tracks, a tempo of zero.
@Suite(.timeLimit(.minutes(30))) struct HostileFileTests {
    static let emptyTrack = SMFBytes.endOfTrack

    /// 65,536 MTrk chunks crashed converting the count to 16 bits: now a clear refusal.
    @Test func moreTracksThanTheHeaderCanCountAreRefused() {
        var bytes = SMFBytes.header(format: 1, tracks: 0xFFFF, division: 96)
        for _ in 0..<65_536 { bytes += SMFBytes.chunk("MTrk", Self.emptyTrack) }
        #expect(throws: SMFFormatError.unsupported("more than 65535 tracks (MTrk chunks); a MIDI file holds at most that many")) {
            try SMFFrontEnd.validate(bytes)
        }
        #expect(throws: LoadError.self) { try SongLoader.load(bytes: bytes, name: "many.mid") }
    }

    /// 65,535 empty tracks and one note: loads, every track counted.
    @Test func theMostTracksAHeaderCountsLoad() throws {
        var tracks = Array(repeating: Self.emptyTrack, count: 65_534)
        tracks.append(SMFBytes.quarterNoteC4 + SMFBytes.endOfTrack)
        let song = try SongLoader.load(bytes: SMFBytes.file(tracks: tracks), name: "many.mid")
        #expect(song.tracks.count == 65_535)
        #expect(song.notes.map(\.track) == [65_534])
    }

    /// A tempo of 0 microseconds per quarter made the whole song 0 s long while libsmf warned it
    /// ignored it: it is dropped, once, with our own warning; the default tempo stays.
    @Test func aTempoOfZeroIsIgnored() throws {
        let zeroTempo: [UInt8] = [0x00, 0xFF, 0x51, 0x03, 0, 0, 0]
        let bytes = SMFBytes.file(tracks: [zeroTempo + [0x60] + Array(SMFBytes.quarterNoteC4.dropFirst()) + SMFBytes.endOfTrack])
        let song = try SongLoader.load(bytes: bytes, name: "zero.mid")
        #expect(song.notes.map(\.startSeconds) == [0.5] && song.notes.map(\.endSeconds) == [1.0])
        #expect(song.durationSeconds == 1.0)
        #expect(song.warnings == ["track 0: tempo of 0 microseconds per quarter note at offset 22 ignored"])
    }
}
