/// What is written over every style: the title (top left), the chord sounding now (top right)
/// and the legend of track or channel colours (`--color-by track|channel`) in a row under them.
/// All of it stays in the header band (`OverlayBands`), which no note enters.
struct Overlay: Sendable {
    struct LegendEntry: Sendable, Equatable {
        /// Its text, as Latin-1 bytes (`ShapeStore.latin1Bytes`).
        var text: [UInt8]
        var color: RGBA

        init(text: String, color: RGBA) {
            self.text = ShapeStore.latin1Bytes(text)
            self.color = color
        }
    }

    let title: TextLabel?
    /// The pixels across the title may take.
    let titleRoom: Float
    let legend: [LegendEntry]
    /// The legend's entries that fit in the row, with their labels, and a last entry for the
    /// rest (`+3 more`), if any.
    private let shownLegend: [(entry: LegendEntry, label: TextLabel)]
    private let moreLabel: TextLabel?
    /// The label of each chord symbol the chord timeline names.
    private let chordLabels: [[UInt8]: TextLabel]
    private let width: Float
    private let textSide: Int
    private let left: Float
    private let bands: OverlayBands
    private let accent: RGBA

    static let longestTitle = 64
    /// A title character's width, on average, in ems (DejaVu Sans is 0.55-0.7).
    static let averageCharacterEms: Float = 0.62
    static let chordFadeInSeconds = 0.08

    /// The title as written: without padding, nil when empty.
    static func titleText(settings: RenderSettings) -> String? {
        let text = settings.title.map(trimmed) ?? ""
        return text.isEmpty ? nil : text
    }

    /// An overlay whose texts are added to `store`, the chords' among them.
    init(settings: RenderSettings, legend: [LegendEntry], bands: OverlayBands, chords: ChordTimeline?, store: inout ShapeStore) {
        width = Float(settings.width)
        textSide = settings.textSide
        accent = settings.scheme.accent
        self.bands = bands
        let margin = bands.margin
        left = margin
        if let text = Self.titleText(settings: settings) {
            // As many characters as fit beside the chord corner by an estimate, at most
            // `longestTitle`; drawn, the title is measured and cut to `titleRoom`, which keeps
            // room for the song's longest chord name at 0.75 em a character (the widest are
            // about 0.97: `m`).
            let display = Float(TextSize.display.pixelSize(canvasSide: textSide))
            let chordWidth = settings.chords ? 5 * Self.averageCharacterEms * display : 0
            let longestChord = max(5, chords?.segments.map(\.symbol.count).max() ?? 0)
            titleRoom = width - left - margin - (settings.chords ? Float(longestChord) * 0.75 * display : 0)
            let fitting = Int((width - left - margin - chordWidth) / (Self.averageCharacterEms * Float(TextSize.title.pixelSize(canvasSide: textSide))))
            let longest = max(8, min(Self.longestTitle, fitting))
            title = store.latin1(text.count > longest ? String(text.prefix(longest - 3)) + "..." : text)
        } else {
            title = nil
            titleRoom = 0
        }
        self.legend = legend
        // As many entries as fit across the row, the last one kept for `+N more` when some do not.
        let room = width - 2 * margin
        var used: Float = 0, fitting = 0
        for entry in legend {
            let entryWidth = Self.legendEntryWidth(characters: entry.text.count, textSide: textSide)
            guard used + entryWidth <= room else { break }
            used += entryWidth
            fitting += 1
        }
        let more = Self.legendEntryWidth(characters: 8, textSide: textSide)
        if fitting < legend.count {
            while fitting > 0 && used + more > room {
                fitting -= 1
                used -= Self.legendEntryWidth(characters: legend[fitting].text.count, textSide: textSide)
            }
        }
        shownLegend = legend.prefix(fitting).map { ($0, store.add($0.text)) }
        moreLabel = fitting < legend.count ? store.latin1("+\(legend.count - fitting) more") : nil
        var chordLabels: [[UInt8]: TextLabel] = [:]
        for segment in chords?.segments ?? [] where chordLabels[segment.symbol] == nil {
            chordLabels[segment.symbol] = store.add(segment.symbol)
        }
        self.chordLabels = chordLabels
    }

    /// The room a legend entry takes in its row: its swatch, its text (estimated: text is
    /// measured by the font only when drawn) and a gap.
    static func legendEntryWidth(characters: Int, textSide: Int) -> Float {
        let textSize = Float(TextSize.small.pixelSize(canvasSide: textSide))
        return textSize * 0.9 + textSize * 0.6 + Float(characters) * textSize * 0.62 + textSize * 1.6
    }

    static func legendRowHeight(textSide: Int) -> Float { Float(TextSize.small.pixelSize(canvasSide: textSide)) * 1.7 }

    /// One entry per track (or channel) with non-drum notes, named from the file.
    static func legend(song: Song, colorBy: RenderSettings.ColorBy, colors: NoteColors) -> [LegendEntry] {
        let melodic = song.notes.filter { $0.channel != Scene.drumChannel }
        // `--split` colours notes by hand, not by track or channel: the legend names the hands.
        if colorBy != .pitch && colors.splitsHands {
            return [LegendEntry(text: "Left hand", color: colors.leftHand), LegendEntry(text: "Right hand", color: colors.rightHand)]
        }
        switch colorBy {
        case .pitch:
            return []
        case .track:
            return Set(melodic.map(\.track)).sorted().map { track in
                let name = track < song.tracks.count ? song.tracks[track].name.map(trimmed) : nil
                return LegendEntry(
                    text: name.flatMap { $0.isEmpty ? nil : $0 } ?? "Track \(track)",
                    color: colors.color(ofTrack: track))
            }
        case .channel:
            return Set(melodic.map { Int($0.channel) }).sorted().map { channel in
                // Named after the named track holding most of the channel's notes.
                var counts: [Int: Int] = [:]
                for note in melodic where Int(note.channel) == channel { counts[note.track, default: 0] += 1 }
                let named = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
                    .compactMap { $0.key < song.tracks.count ? song.tracks[$0.key].name.map(trimmed) : nil }
                    .first { !$0.isEmpty }
                return LegendEntry(
                    text: "Ch \(channel + 1)" + (named.map { " \u{B7} " + $0 } ?? ""),
                    color: colors.color(ofChannel: channel))
            }
        }
    }

    /// `text` without the spaces, tabs, line breaks and NULs some files pad names with.
    static func trimmed(_ text: String) -> String {
        let isPadding: (Character) -> Bool = { $0.isWhitespace || $0 == "\0" }
        return String(text.drop(while: isPadding).reversed().drop(while: isPadding).reversed())
    }

    func append(chord: ChordTimeline.Segment?, at seconds: Double, to shapes: inout [Shape]) {
        if let title {
            appendShadowed(title, .title, at: Point(left, bands.titleRowY), alpha: 0.92, alignment: .leftWithin(titleRoom), to: &shapes)
        }
        appendLegend(to: &shapes)
        if let chord, let label = chordLabels[chord.symbol] {
            let alpha = Float(min(1, (seconds - chord.start) / Self.chordFadeInSeconds))
            appendShadowed(
                label, .display, at: Point(width - bands.margin, bands.titleRowY), alpha: 0.95 * alpha,
                alignment: .right, to: &shapes)
        }
    }

    /// Text in the accent colour over a soft dark copy of itself, a little down and right, so
    /// that it reads over bright backgrounds.
    private func appendShadowed(
        _ label: TextLabel, _ size: TextSize, at center: Point, alpha: Float, alignment: TextAlignment,
        to shapes: inout [Shape]
    ) {
        let offset = max(1, (Float(size.pixelSize(canvasSide: textSide)) * 0.05).rounded())
        shapes.append(.text(label, size, center: Point(center.x + offset, center.y + offset), RGBA(0, 0, 0, 0.55 * alpha), alignment: alignment))
        shapes.append(.text(label, size, center: center, accent.withAlpha(alpha), alignment: alignment))
    }

    private func appendLegend(to shapes: inout [Shape]) {
        guard !legend.isEmpty else { return }
        let textSize = Float(TextSize.small.pixelSize(canvasSide: textSide))
        let swatch = textSize * 0.9
        let y = bands.legendRowY
        var x = left
        for (entry, label) in shownLegend {
            shapes.append(
                .roundedRect(
                    Rect(x: x, y: y - swatch / 2, width: swatch, height: swatch), radius: swatch * 0.25,
                    top: entry.color, bottom: entry.color.scaled(0.7)))
            shapes.append(.text(label, .small, center: Point(x + swatch + textSize * 0.6, y), accent.withAlpha(0.88), alignment: .left))
            x += Self.legendEntryWidth(characters: entry.text.count, textSide: textSide)
        }
        if let moreLabel {
            shapes.append(.text(moreLabel, .small, center: Point(x, y), accent.withAlpha(0.6), alignment: .left))
        }
    }
}
