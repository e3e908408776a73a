/// What is written over every style: the title (top left), the legend of track or channel
/// colours under it (`--color-by track|channel`), and the chord sounding now (top right).
/// Drawn last, over the notes, so that it stays readable.
struct Overlay: Sendable {
    struct LegendEntry: Sendable, Equatable {
        var label: TextLabel
        var color: RGBA
    }

    let title: TextLabel?
    let legend: [LegendEntry]
    /// The legend's entries that fit, and a last line for the rest (`+3 more`), if any.
    private let shownLegend: ArraySlice<LegendEntry>
    private let moreLabel: TextLabel?
    private let legendWidthInCharacters: Int
    private let width: Float
    private let height: Float
    private let textSide: Int
    private let left: Float
    private let legendTop: Float
    private let accent: RGBA
    private let panel: RGBA
    /// Below the sheet music's band, when it is at the top (`--sheet`).
    private let top: Float

    static let longestTitle = 64
    /// A title character's width, on average, in ems (DejaVu Sans is 0.55-0.7).
    static let averageCharacterEms: Float = 0.62
    static let chordFadeInSeconds = 0.08

    init(song: Song, settings: RenderSettings, colors: NoteColors) {
        width = Float(settings.width)
        height = Float(settings.height)
        textSide = settings.textSide
        accent = settings.scheme.accent
        panel = (settings.background ?? settings.scheme.background.bottom).scaled(0.6).withAlpha(0.72)
        let margin = height * 0.03
        top = SheetBand.coveredTop(settings: settings)
        let text = settings.title.map(Self.trimmed) ?? ""
        if let origin = settings.style.layout.overlayOrigin(settings: settings, hasTitle: !text.isEmpty, margin: margin) {
            (left, legendTop) = origin
        } else {
            left = margin
            legendTop = top + height * 0.075
        }
        if !text.isEmpty {
            // As many characters as fit beside the chord corner, at most `longestTitle`.
            let chordWidth = settings.chords ? 5 * Self.averageCharacterEms * Float(TextSize.display.pixelSize(canvasSide: textSide)) : 0
            let room = width - left - margin - chordWidth
            let fitting = Int(room / (Self.averageCharacterEms * Float(TextSize.title.pixelSize(canvasSide: textSide))))
            let longest = max(8, min(Self.longestTitle, fitting))
            title = .latin1(text.count > longest ? String(text.prefix(longest - 3)) + "..." : text)
        } else {
            title = nil
        }
        legend = Self.legend(song: song, colorBy: settings.colorBy, colors: colors)
        let row = Self.legendRowHeight(textSide: textSide)
        let fitting = max(1, Int((height * 0.6 - row) / row))
        shownLegend = legend.count > fitting ? legend.prefix(fitting - 1) : legend[...]
        moreLabel = shownLegend.count < legend.count ? .latin1("+\(legend.count - shownLegend.count) more") : nil
        legendWidthInCharacters = ([moreLabel].compactMap { $0 } + shownLegend.map(\.label)).map { $0.bytes.count }.max() ?? 0
    }

    static func legendRowHeight(textSide: Int) -> Float { Float(TextSize.small.pixelSize(canvasSide: textSide)) * 1.7 }

    /// One entry per track (or channel) with non-drum notes, named from the file.
    static func legend(song: Song, colorBy: RenderSettings.ColorBy, colors: NoteColors) -> [LegendEntry] {
        let melodic = song.notes.filter { $0.channel != Scene.drumChannel }
        switch colorBy {
        case .pitch:
            return []
        case .track:
            return Set(melodic.map(\.track)).sorted().map { track in
                let name = track < song.tracks.count ? song.tracks[track].name.map(trimmed) : nil
                return LegendEntry(
                    label: .latin1(name.flatMap { $0.isEmpty ? nil : $0 } ?? "Track \(track + 1)"),
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
                    label: .latin1("Ch \(channel + 1)" + (named.map { " \u{B7} " + $0 } ?? "")),
                    color: colors.color(ofChannel: channel))
            }
        }
    }

    /// `text` without the spaces, tabs, line breaks and NULs some files pad names with.
    static func trimmed(_ text: String) -> String {
        let isPadding: (Character) -> Bool = { $0.isWhitespace || $0 == "\0" }
        return String(text.drop(while: isPadding).reversed().drop(while: isPadding).reversed())
    }

    private var titleY: Float { top + height * 0.04 }

    func append(chord: ChordTimeline.Segment?, at seconds: Double, to shapes: inout [Shape]) {
        let margin = height * 0.03
        if let title {
            appendShadowed(title, .title, at: Point(left, titleY), alpha: 0.92, alignment: .left, to: &shapes)
        }
        appendLegend(to: &shapes)
        if let chord {
            let alpha = Float(min(1, (seconds - chord.start) / Self.chordFadeInSeconds))
            appendShadowed(
                .chord(chord.symbol), .display, at: Point(width - margin, top + height * 0.055), alpha: 0.95 * alpha,
                alignment: .right, to: &shapes)
        }
    }

    /// Text in the accent colour over a soft dark copy of itself, a little down and right, so
    /// that it reads over bright notes.
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
        let row = Self.legendRowHeight(textSide: textSide), pad = textSize * 0.8, swatch = textSize * 0.9
        // Text is measured by the font only when drawn: the panel's width is estimated.
        let panelWidth = pad * 2 + swatch + textSize * 0.6 + Float(legendWidthInCharacters) * textSize * 0.62
        let rows = shownLegend.count + (moreLabel == nil ? 0 : 1)
        shapes.append(
            .roundedRect(
                Rect(x: left - pad, y: legendTop, width: panelWidth, height: Float(rows) * row + pad),
                radius: textSize * 0.5, top: panel, bottom: panel))
        for (index, entry) in shownLegend.enumerated() {
            let y = legendTop + pad * 0.5 + row * (Float(index) + 0.5)
            shapes.append(
                .roundedRect(
                    Rect(x: left, y: y - swatch / 2, width: swatch, height: swatch), radius: swatch * 0.25,
                    top: entry.color, bottom: entry.color.scaled(0.7)))
            shapes.append(
                .text(
                    entry.label, .small, center: Point(left + swatch + textSize * 0.6, y), accent.withAlpha(0.88),
                    alignment: .left))
        }
        if let moreLabel {
            let y = legendTop + pad * 0.5 + row * (Float(shownLegend.count) + 0.5)
            shapes.append(.text(moreLabel, .small, center: Point(left, y), accent.withAlpha(0.6), alignment: .left))
        }
    }
}
