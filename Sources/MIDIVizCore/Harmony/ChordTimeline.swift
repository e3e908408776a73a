/// The chord sounding at each moment of a song, worked out once: a sweep over the non-drum
/// notes' starts and ends names the pitch classes sounding between each pair of events.
/// Moments that pass faster than a chord can be read are smoothed away: a chord held for less
/// than `shortestChord` is dropped, and a gap shorter than `longestBridge` between two chords
/// keeps the earlier one on screen. A query is a binary search.
public struct ChordTimeline: Sendable {
    public struct Segment: Sendable, Equatable {
        public var start: Double
        public var end: Double
        public let chord: ChordName
        /// The chord's symbol as bytes, made once for the frames that show it.
        public let symbol: [UInt8]

        public init(start: Double, end: Double, chord: ChordName) {
            self.start = start
            self.end = end
            self.chord = chord
            symbol = Array(chord.symbol.utf8)
        }
    }

    public static let shortestChord = 0.06
    public static let longestBridge = 0.15

    public let segments: [Segment]

    public init(song: Song, drumChannel: UInt8 = 9) {
        var events: [(seconds: Double, pitch: Int, delta: Int)] = []
        for note in song.notes where note.channel != drumChannel && note.endSeconds > note.startSeconds {
            events.append((note.startSeconds, Int(note.pitch), 1))
            events.append((note.endSeconds, Int(note.pitch), -1))
        }
        events.sort { $0.seconds < $1.seconds }
        var sounding = [Int](repeating: 0, count: 128)
        var raw: [Segment] = []
        var index = 0
        while index < events.count {
            let time = events[index].seconds
            while index < events.count, events[index].seconds == time {
                sounding[events[index].pitch & 0x7F] += events[index].delta
                index += 1
            }
            guard index < events.count else { break }
            let next = events[index].seconds
            let spelling = ChordName.Spelling(keySharps: song.keySignatures.last { $0.seconds <= time + 1e-9 }?.sharps)
            let pitches = (0..<128).lazy.filter { sounding[$0] > 0 }
            if let chord = ChordName.identify(pitches: pitches, spelling: spelling) {
                raw.append(Segment(start: time, end: next, chord: chord))
            }
        }
        segments = Self.smoothed(raw)
    }

    init(segments: [Segment]) { self.segments = Self.smoothed(segments) }

    static func smoothed(_ raw: [Segment]) -> [Segment] {
        // Adjacent pieces of one chord join first, so that a long chord cut by other notes'
        // events is not dropped piece by piece.
        let joined = raw.reduce(into: [Segment]()) { result, segment in
            if let last = result.last, last.chord == segment.chord, last.end >= segment.start - 1e-9 {
                result[result.count - 1].end = segment.end
            } else {
                result.append(segment)
            }
        }
        var result: [Segment] = []
        for segment in joined where segment.end - segment.start >= shortestChord {
            if let last = result.last, segment.start - last.end < longestBridge {
                if last.chord == segment.chord {
                    result[result.count - 1].end = segment.end
                    continue
                }
                result[result.count - 1].end = segment.start
            }
            result.append(segment)
        }
        return result
    }

    /// The chord on screen at `seconds` and when it started, if any.
    public func segment(at seconds: Double) -> Segment? {
        var low = 0, high = segments.count
        while low < high {
            let middle = (low + high) / 2
            if segments[middle].start <= seconds { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let segment = segments[low - 1]
        return seconds < segment.end ? segment : nil
    }
}
