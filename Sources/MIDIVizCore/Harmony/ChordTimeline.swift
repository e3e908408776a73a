import Algorithms

/// The chord sounding at each moment of a song, worked out once: a sweep over the non-drum
/// notes' starts and ends names the pitch classes sounding between each pair of events.
/// Broken chords are read as a listener hears them: when two or more pitch classes sound and
/// name no chord, the chord before holds while they all belong to it; otherwise the notes
/// released in the last `recentSeconds` count too (A D F broken over a held C D names Dm7/C).
/// One note at a time names nothing. Moments that
/// pass faster than a chord can be read are smoothed away: a chord held for less than
/// `shortestChord` is dropped, and a gap shorter than `longestBridge` between two chords keeps
/// the earlier one on screen. A query is a binary search.
package struct ChordTimeline: Sendable {
    package struct Segment: Sendable, Equatable {
        package var start: Double
        package var end: Double
        package let chord: ChordName
        /// The chord's symbol as bytes, made once for the frames that show it.
        package let symbol: [UInt8]

        package init(start: Double, end: Double, chord: ChordName) {
            self.start = start
            self.end = end
            self.chord = chord
            symbol = Array(chord.symbol.utf8)
        }
    }

    package static let shortestChord = 0.06
    package static let longestBridge = 0.15
    package static let recentSeconds = 0.5

    package let segments: [Segment]

    package init(song: Song, drumChannel: UInt8 = 9) {
        // Starts (+1), ends (-1), and the moments a released note stops counting (0).
        var events: [(seconds: Double, pitch: Int, delta: Int)] = []
        for note in song.notes where note.channel != drumChannel && note.endSeconds > note.startSeconds {
            events.append((note.startSeconds, Int(note.pitch), 1))
            events.append((note.endSeconds, Int(note.pitch), -1))
            events.append((note.endSeconds + Self.recentSeconds, Int(note.pitch), 0))
        }
        events.sort { $0.seconds < $1.seconds }
        var sounding = [Int](repeating: 0, count: 128)
        // When each pitch stops counting as just released: the time of its expiry event, made
        // by the same addition, so that the event and the test agree to the last bit.
        var recentUntil = [Double](repeating: -.infinity, count: 128)
        var raw: [Segment] = []
        var held: ChordName?
        var index = 0
        while index < events.count {
            let time = events[index].seconds
            while index < events.count, events[index].seconds == time {
                let pitch = events[index].pitch & 0x7F
                sounding[pitch] += events[index].delta
                if events[index].delta < 0 { recentUntil[pitch] = time + Self.recentSeconds }
                index += 1
            }
            guard index < events.count else { break }
            let spelling = ChordName.Spelling(keySharps: song.keySignatures.last { $0.seconds <= time + 1e-9 }?.sharps)
            let chord = Self.chord(sounding: sounding, recentUntil: recentUntil, at: time, after: held, spelling: spelling)
            if let chord { raw.append(Segment(start: time, end: events[index].seconds, chord: chord)) }
            held = chord
        }
        segments = Self.smoothed(raw)
    }

    /// The chord of the notes sounding at `time`, read as `init` describes; nil in a rest.
    static func chord(
        sounding: [Int], recentUntil: [Double], at time: Double, after held: ChordName?,
        spelling: ChordName.Spelling
    ) -> ChordName? {
        let pitches = (0..<128).lazy.filter { sounding[$0] > 0 }
        guard let bass = pitches.first else { return nil }
        if let chord = ChordName.identify(pitches: pitches, spelling: spelling) { return chord }
        let set = pitches.reduce(UInt16(0)) { $0 | 1 << UInt16($1 % 12) }
        guard set.nonzeroBitCount >= 2 else { return nil }
        if let held, set & ~held.pitchClasses == 0 { return held }
        let recent = (0..<128).reduce(set) { recentUntil[$1] > time ? $0 | 1 << UInt16($1 % 12) : $0 }
        return ChordName.identify(pitchClasses: recent, bass: bass % 12, spelling: spelling)
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
    package func segment(at seconds: Double) -> Segment? {
        let low = segments.partitioningIndex { $0.start > seconds }
        guard low > 0 else { return nil }
        let segment = segments[low - 1]
        return seconds < segment.end ? segment : nil
    }
}
