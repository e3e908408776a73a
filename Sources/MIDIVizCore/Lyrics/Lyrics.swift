import Algorithms

/// A song's lyrics as a karaoke display reads them: syllables at times, gathered into lines.
///
/// Where they come from: the lyric meta events (FF 05) when the file has any; otherwise the
/// `.kar` convention, text events (FF 01) in one "words" track, where `\\` starts a paragraph,
/// `/` a line and `@` marks a header (`@T` title, `@L` language: `KaraokeHeaders`), not a syllable
/// (nor is an `@` header among lyric events). A lyric event
/// ending in CR or LF ends its line (RP-026). Lines are also broken at a long pause and, at a
/// word's start, when they grow too long to read in one glance.
package struct Lyrics: Sendable, Equatable {
    package enum Source: Sendable, Equatable {
        case none
        /// FF 05 lyric events of every track.
        case lyricEvents
        /// `.kar` text events of this track.
        case karaokeTrack(Int)
    }

    package struct Syllable: Sendable, Equatable {
        package var seconds: Double
        /// As in the file, decoded (line marks included).
        package var text: String
    }

    package struct Line: Sendable, Equatable {
        /// The syllables of the line, indices into `syllables`.
        package var syllables: Range<Int>
        /// The line's characters as shown, and where each syllable's characters end in them.
        package var characters: [UInt32]
        package var syllableEnds: [Int]
        /// The first syllable's time, and when the last one has been sung.
        package var start: Double
        package var end: Double

        package var text: String { String(String.UnicodeScalarView(characters.compactMap(Unicode.Scalar.init))) }
    }

    /// What shows at a moment: the current line with its first `sung` syllables sung (the last
    /// of them `lastSyllableProgress` of the way lit), and the next line under it.
    package struct Display: Sendable, Equatable {
        package var current: Int
        package var sung: Int
        package var lastSyllableProgress: Float
        package var next: Int?
    }

    package let source: Source
    package let encoding: TextEncoding
    package let syllables: [Syllable]
    package let lines: [Line]

    /// A pause longer than this between two syllables starts a new line.
    package static let pauseSeconds = 4.0
    /// A line wider than this many columns (`CharacterWidth`: a character, two for a CJK one)
    /// is cut at word starts into nearly equal pieces.
    package static let longestLine = 40
    /// A line is shown this long before its first syllable when nothing else is on screen, and
    /// stays this long after its last one.
    package static let previewSeconds = 2.5
    package static let lingerSeconds = 1.5
    /// How long a syllable takes to light up.
    package static let lightingSeconds = 0.12

    package var isEmpty: Bool { lines.isEmpty }

    /// - Parameter longestLine: the most columns a line may take (a narrow frame's fewer).
    package init(song: Song, longestLine: Int = Lyrics.longestLine) {
        let (source, events) = Self.events(of: song)
        self.source = source
        let encoding = TextEncoding.detect(events.map(\.bytes))
        self.encoding = encoding
        let texts = encoding.decode(each: events.map(\.bytes))
        let syllables = zip(events, texts).map { Syllable(seconds: $0.seconds, text: String(String.UnicodeScalarView($1))) }
        self.syllables = syllables
        lines = Self.lines(of: syllables, longestLine: max(8, longestLine))
    }

    /// The events to read lyrics from, and which kind they are.
    static func events(of song: Song) -> (Source, [TextEvent]) {
        // A .kar's headers (`@T` title, `@L` language…) are not sung, whichever kind of event carries them.
        let lyricEvents = song.texts.filter { $0.kind == .lyric && !$0.bytes.isEmpty && !KaraokeHeaders.isHeader($0.bytes) }
        if !lyricEvents.isEmpty { return (.lyricEvents, lyricEvents) }
        // The .kar words track: the one with the most text events among those with line marks
        // or named "Words".
        var counts: [Int: (events: Int, marked: Bool)] = [:]
        for event in song.texts where event.kind == .text {
            guard let first = event.bytes.first, first != UInt8(ascii: "@") else { continue }
            let marked = first == UInt8(ascii: "/") || first == UInt8(ascii: "\\")
            counts[event.track, default: (0, false)].events += 1
            if marked { counts[event.track]!.marked = true }
        }
        let isWordsTrack: (Int) -> Bool = { track in
            track < song.tracks.count && song.tracks[track].name?.lowercased().hasPrefix("words") == true
        }
        guard
            let track = counts.filter({ $0.value.marked || isWordsTrack($0.key) })
                .max(by: { ($0.value.events, -$0.key) < ($1.value.events, -$1.key) })?.key
        else { return (.none, []) }
        let events = song.texts.filter { $0.kind == .text && $0.track == track && $0.bytes.first != UInt8(ascii: "@") && !$0.bytes.isEmpty }
        return (.karaokeTrack(track), events)
    }

    static func lines(of syllables: [Syllable], longestLine: Int = Lyrics.longestLine) -> [Line] {
        let space = Unicode.Scalar(" ")
        let marks: Set<Unicode.Scalar> = ["/", "\\", "\r", "\n"]
        // Each syllable's characters as shown, and the groups of syllables the marks and pauses
        // make (the lines before any is found too long).
        var texts: [[Unicode.Scalar]] = []
        var groups: [[Int]] = [[]]
        var breakPending = false
        for (index, syllable) in syllables.enumerated() {
            var text = Array(syllable.text.unicodeScalars)
            var breakBefore = breakPending, breakAfter = false
            while let mark = text.first, marks.contains(mark) { breakBefore = true; text.removeFirst() }
            while let mark = text.last, mark == "\r" || mark == "\n" { breakAfter = true; text.removeLast() }
            // Other control characters (C0, DEL, C1) show as spaces; a syllable longer than a
            // line is shortened.
            text = TextEncoding.controlsAsSpaces(text)
            if CharacterWidth.columns(of: text) > longestLine { text = shortened(text, to: longestLine) }
            texts.append(text)
            if text.isEmpty && (breakBefore || breakAfter) {
                // A mark alone (a lone CR, a "/") ends the line; it is not a syllable of either.
                breakPending = true
                continue
            }
            breakPending = breakAfter
            if let previous = groups[groups.count - 1].last, breakBefore || syllable.seconds - syllables[previous].seconds > pauseSeconds {
                groups.append([])
            }
            groups[groups.count - 1].append(index)
        }
        var lines: [Line] = []
        for group in groups {
            for piece in balancedPieces(of: group, texts: texts, longestLine: longestLine) {
                var characters: [UInt32] = [], ends: [Int] = []
                for index in piece {
                    var text = texts[index][...]
                    if characters.isEmpty { text = text.drop { $0 == space } }
                    characters += text.map(\.value)
                    ends.append(characters.count)
                }
                while characters.last == space.value { characters.removeLast() }
                guard !characters.isEmpty, let first = piece.first, let last = piece.last else { continue }
                let lastStart = syllables[last].seconds
                let following = last + 1 < syllables.count ? syllables[last + 1].seconds : lastStart + 1
                lines.append(
                    Line(
                        syllables: first..<(last + 1), characters: characters, syllableEnds: ends.map { min($0, characters.count) },
                        start: syllables[first].seconds, end: lastStart + min(1, max(0, following - lastStart))))
            }
        }
        return lines
    }

    /// A group of syllables too long for one line, cut into pieces of nearly equal length, as
    /// few as keep each within `longestLine` where the words allow: at word starts, or at any
    /// syllable when the text has no spaces (CJK) or a word is longer than a line. Linear in the
    /// group's length.
    static func balancedPieces(
        of group: [Int], texts: [[Unicode.Scalar]], longestLine: Int = Lyrics.longestLine, atAnySyllable: Bool = false
    ) -> [[Int]] {
        let space = Unicode.Scalar(" ")
        let columns = group.map { CharacterWidth.columns(of: texts[$0]) }
        let total = columns.reduce(0, +)
        guard total > longestLine, group.count > 1 else { return [group] }
        let pieces = (total + longestLine - 1) / longestLine
        // Where each syllable starts in the group's text, and where a cut may go.
        var offsets: [Int] = [], offset = 0
        for width in columns {
            offsets.append(offset)
            offset += width
        }
        var candidates =
            atAnySyllable
            ? []
            : (1..<group.count).filter { position in
                texts[group[position]].first == space || texts[group[position - 1]].last == space
            }
        if candidates.isEmpty { candidates = Array(1..<group.count) }
        var cuts: [Int] = []
        var next = 0  // the first candidate after the last cut
        for piece in 1..<pieces where next < candidates.count {
            let target = total * piece / pieces
            while next + 1 < candidates.count, abs(offsets[candidates[next + 1]] - target) <= abs(offsets[candidates[next]] - target) {
                next += 1
            }
            cuts.append(candidates[next])
            next += 1
        }
        var result: [[Int]] = [], from = 0
        for cut in cuts + [group.count] {
            let piece = Array(group[from..<cut])
            let width = columns[from..<cut].reduce(0, +)
            from = cut
            // A word longer than a line (or a few long ones): its piece is cut again at syllables.
            if piece.count > 1, width > longestLine + longestLine / 4,
                candidates.count != group.count - 1
            {
                result += balancedPieces(of: piece, texts: texts, longestLine: longestLine, atAnySyllable: true)
            } else {
                result.append(piece)
            }
        }
        return result
    }

    /// `text` cut to `columns` with its last one an ellipsis.
    static func shortened(_ text: [Unicode.Scalar], to columns: Int) -> [Unicode.Scalar] {
        var kept: [Unicode.Scalar] = [], used = 0
        for character in text {
            used += CharacterWidth(character.value).columns
            guard used <= columns - 1 else { break }
            kept.append(character)
        }
        return kept + ["\u{2026}"]
    }

    /// The lines on screen at `seconds`, or nil.
    package func display(at seconds: Double) -> Display? {
        // The last line that has started.
        let started = lines.partitioningIndex { $0.start > seconds } - 1
        if started >= 0, seconds < lines[started].end + Self.lingerSeconds {
            let line = lines[started]
            var sung = 0
            while sung < line.syllables.count, syllables[line.syllables.lowerBound + sung].seconds <= seconds { sung += 1 }
            let lit = syllables[line.syllables.lowerBound + sung - 1].seconds
            let progress = Float(min(1, (seconds - lit) / Self.lightingSeconds))
            return Display(current: started, sung: sung, lastSyllableProgress: progress, next: started + 1 < lines.count ? started + 1 : nil)
        }
        let upcoming = started + 1
        guard upcoming < lines.count, lines[upcoming].start - seconds <= Self.previewSeconds else { return nil }
        return Display(current: upcoming, sung: 0, lastSyllableProgress: 0, next: upcoming + 1 < lines.count ? upcoming + 1 : nil)
    }
}
