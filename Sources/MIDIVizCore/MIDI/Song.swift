/// A loaded MIDI file with every time resolved to seconds: what the visualization and the
/// synthesizer read. Plain values; nothing here refers back to the file or to C.
public struct Song: Sendable {
    /// The format number the file declares.
    public var format: Int
    package var division: Division
    /// The time of the file's last event (End-of-Track included), in ticks and seconds.
    public var endTick: Int
    public var durationSeconds: Double
    public var tracks: [TrackSummary]
    /// Every note, sorted by start, pitch, channel, track.
    public var notes: [Note]
    public var tempoChanges: [TempoChange]
    public var timeSignatures: [TimeSignature]
    public var keySignatures: [KeySignature]
    /// Every channel message (notes included) and SysEx, in stream order: what the
    /// synthesizer plays.
    public var synthEvents: [TimedMessage]
    /// What the loader repaired, skipped or assumed.
    public var warnings: [String]
    /// The text and lyric meta events, in stream order, as their bytes: where lyrics come from
    /// (`Lyrics`), decoded only once the whole set's encoding is known.
    public var texts: [TextEvent] = []
    /// The score this song was played from, as MusicXML (MuseScore's export), when it was read
    /// from a score: what its sheet music is engraved from.
    package var musicXML: [UInt8]? = nil
}

/// A text (FF 01) or lyric (FF 05) meta event.
public struct TextEvent: Sendable, Equatable {
    public enum Kind: UInt8, Sendable { case text = 0x01, lyric = 0x05 }
    public var seconds: Double
    public var track: Int
    public var kind: Kind
    public var bytes: [UInt8]

    public init(seconds: Double, track: Int, kind: Kind, bytes: [UInt8]) {
        self.seconds = seconds
        self.track = track
        self.kind = kind
        self.bytes = bytes
    }
}

/// A sounding note: start and end in seconds, channel 0-based (drums are 9), track the 0-based
/// index of the MTrk chunk holding its note-on. 24 bytes: a file holds at most 65,535 tracks, and
/// a track number outside 0-65,535 is held as the nearest.
public struct Note: Sendable, Equatable {
    public var startSeconds: Double
    public var endSeconds: Double
    public var pitch: UInt8
    public var velocity: UInt8
    public var channel: UInt8
    /// The program of the note's channel when it started (0-based General MIDI number).
    public var program: UInt8
    private var trackIndex: UInt16

    public var track: Int {
        get { Int(trackIndex) }
        set { trackIndex = UInt16(clamping: newValue) }
    }

    public init(startSeconds: Double, endSeconds: Double, pitch: UInt8, velocity: UInt8, channel: UInt8, track: Int, program: UInt8 = 0) {
        self.startSeconds = startSeconds
        self.endSeconds = endSeconds
        self.pitch = pitch
        self.velocity = velocity
        self.channel = channel
        self.trackIndex = UInt16(clamping: track)
        self.program = program
    }
}

public struct TrackSummary: Sendable, Equatable {
    public var name: String?
    public var noteCount: Int
    /// 0-based channels with notes in this track, ascending.
    public var channels: [UInt8]
    /// Program numbers set by this track's program changes, in order of first use.
    public var programs: [UInt8]
}

public struct TempoChange: Sendable, Equatable {
    public var seconds: Double
    public var tick: Int
    public var beatsPerMinute: Double
}

public struct TimeSignature: Sendable, Equatable {
    public var seconds: Double
    public var tick: Int
    public var numerator: Int
    public var denominator: Int

    /// What the standard allows: a numerator of 1 to 255 (a byte), a denominator of 2^0 to 2^16
    /// (the largest power read).
    public static let numerators = 1...255
    public static let denominatorPowers = 0...16
}

public struct KeySignature: Sendable, Equatable {
    public var seconds: Double
    public var tick: Int
    /// Sharps when positive, flats when negative.
    public var sharps: Int
    public var isMinor: Bool
    /// 7 flats to 7 sharps: what the standard allows.
    public static let sharpsRange = -7...7

    /// The key's name, e.g. "E♭ major" written as "Eb major".
    public var name: String {
        let majors = ["Cb", "Gb", "Db", "Ab", "Eb", "Bb", "F", "C", "G", "D", "A", "E", "B", "F#", "C#"]
        let minors = ["Ab", "Eb", "Bb", "F", "C", "G", "D", "A", "E", "B", "F#", "C#", "G#", "D#", "A#"]
        let index = sharps.clamped(to: Self.sharpsRange) + 7
        return isMinor ? "\(minors[index]) minor" : "\(majors[index]) major"
    }
}

/// A message for the synthesizer at a time: note on or off, program, controller, pitch bend,
/// pressure or SysEx, with its bytes as on the wire (a SysEx is F0 … F7, no length). Only what
/// the synthesizer needs: a million-note song holds two million of these.
public struct TimedMessage: Sendable, Equatable {
    public var seconds: Double
    package var bytes: MessageBytes
}

extension Int {
    /// The value in `range`, or its nearest end.
    package func clamped(to range: ClosedRange<Int>) -> Int { Swift.min(Swift.max(self, range.lowerBound), range.upperBound) }
}
