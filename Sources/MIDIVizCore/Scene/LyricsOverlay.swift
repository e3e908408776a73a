/// `--lyrics`: the song's lyrics as a two-line karaoke display, centred on a dark panel. The
/// current line lights up syllable by syllable as each is sung; the next line waits under it,
/// dimmer. It has a band of its own (`OverlayBands`) that no note enters: in `keyboard` and
/// `bars` under the header, in `roll` and `circles` at the bottom.
struct LyricsOverlay: Sendable {
    let lyrics: Lyrics
    /// The first line's number in the scene's `ShapeStore`, the others following.
    private let firstLine: StoredLine
    private let centerX: Float
    private let width: Float
    private let currentY: Float
    private let nextY: Float
    private let textSide: Int
    private let sung: RGBA
    private let unsung = RGBA(1, 1, 1, 0.95)
    private let waiting = RGBA(1, 1, 1, 0.55)
    private let panel: RGBA

    static let currentSize = TextSize.title
    static let nextSize = TextSize.large

    /// The song's lyrics when `--lyrics` shows them (nil: none to show).
    static func shown(song: Song, settings: RenderSettings) -> Lyrics? {
        guard settings.lyrics else { return nil }
        // A narrow frame takes shorter lines: as many columns as fit its width at the smallest
        // size a line is drawn at (0.6 em each; a CJK character's two, 1 em).
        let smallest = Float(TextSize.medium.pixelSize(canvasSide: settings.textSide))
        let fitting = Int(Float(settings.width) * 0.94 / (0.6 * smallest))
        let lyrics = Lyrics(song: song, longestLine: min(Lyrics.longestLine, fitting))
        return lyrics.isEmpty ? nil : lyrics
    }

    /// The panel's height for two lines whose text is `current` and `next` pixels tall.
    static func panelHeight(current: Float, next: Float) -> Float { 3.4 * current + 0.5 * next }

    /// The karaoke lines of `lyrics`, added to `store`.
    init(lyrics: Lyrics, settings: RenderSettings, bands: OverlayBands, store: inout ShapeStore) {
        self.lyrics = lyrics
        firstLine = store.add(lines: lyrics.lines.map(\.characters))
        textSide = settings.textSide
        let lineHeight = Float(Self.currentSize.pixelSize(canvasSide: textSide)) * 1.45
        width = Float(settings.width)
        centerX = width / 2
        let current = Float(Self.currentSize.pixelSize(canvasSide: textSide))
        let next = Float(Self.nextSize.pixelSize(canvasSide: textSide))
        // Centred in its band: the panel's top is 1.35 lines of the current size above its text.
        currentY = (bands.lyricsTop + (bands.lyricsHeight - Self.panelHeight(current: current, next: next)) / 2 + 1.35 * current).rounded()
        nextY = currentY + lineHeight
        sung = Self.sungColor(settings.scheme)
        panel = RGBA(0, 0, 0, 0.5)
    }

    /// A colour for sung syllables that stands out from white in each scheme.
    static func sungColor(_ scheme: ColorScheme) -> RGBA {
        switch scheme {
        case .rainbow: return RGBA(0.35, 0.85, 1.0)
        case .fire: return RGBA(1.0, 0.62, 0.12)
        case .ocean: return RGBA(0.25, 0.95, 0.75)
        }
    }

    func append(at seconds: Double, to shapes: inout [Shape]) {
        guard let display = lyrics.display(at: seconds) else { return }
        let current = lyrics.lines[display.current]
        let next = display.next.map { lyrics.lines[$0] }
        // Text is measured only when drawn: widths are estimated from the characters that take
        // room, and a line too wide for the frame at its size takes a smaller one.
        let currentSize = Self.size(fitting: current, among: [Self.currentSize, .large, .medium], width: width, textSide: textSide)
        let nextSize = next.map { Self.size(fitting: $0, among: [Self.nextSize, .medium], width: width, textSide: textSide) } ?? Self.nextSize
        let currentPixels = Float(currentSize.pixelSize(canvasSide: textSide))
        let nextPixels = Float(nextSize.pixelSize(canvasSide: textSide))
        let widest = max(Self.estimatedWidth(of: current, pixels: currentPixels), next.map { Self.estimatedWidth(of: $0, pixels: nextPixels) } ?? 0)
        let padX = currentPixels, padY = currentPixels * 0.6
        let bottom = (next == nil ? currentY + currentPixels * 0.5 : nextY + nextPixels * 0.5) + padY
        let top = currentY - currentPixels * 0.75 - padY
        shapes.append(
            .roundedRect(
                Rect(x: centerX - widest / 2 - padX, y: top, width: widest + 2 * padX, height: bottom - top),
                radius: currentPixels * 0.5, top: panel, bottom: panel))

        let sungEnd = display.sung > 0 ? current.syllableEnds[display.sung - 1] : 0
        let litEnd = display.sung > 1 ? current.syllableEnds[display.sung - 2] : 0
        // The syllable being sung lights up over `Lyrics.lightingSeconds`.
        let lighting = unsung.mixed(with: sung, display.lastSyllableProgress)
        let stored = firstLine.advanced(by: display.current)
        let line = LyricLine(
            stored, sungEnd: display.lastSyllableProgress >= 1 ? sungEnd : litEnd, lightingEnd: sungEnd,
            sung: sung, lighting: lighting, unsung: unsung)
        let shadowOffset = max(1, (currentPixels * 0.05).rounded())
        shapes.append(
            .lyricLine(
                LyricLine(stored, RGBA(0, 0, 0, 0.6)), currentSize,
                center: Point(centerX + shadowOffset, currentY + shadowOffset)))
        shapes.append(.lyricLine(line, currentSize, center: Point(centerX, currentY)))
        if let next = display.next {
            shapes.append(.lyricLine(LyricLine(firstLine.advanced(by: next), waiting), nextSize, center: Point(centerX, nextY)))
        }
    }

    /// The first of `sizes` at which `line` is estimated to fit 94 % of the frame's width (the
    /// last when none does).
    static func size(fitting line: Lyrics.Line, among sizes: [TextSize], width: Float, textSide: Int) -> TextSize {
        sizes.first { estimatedWidth(of: line, pixels: Float($0.pixelSize(canvasSide: textSide))) <= width * 0.94 } ?? sizes[sizes.count - 1]
    }

    /// About 0.6 em a character, 1 em a CJK one, nothing for those that take no room
    /// (`CharacterWidth`).
    static func estimatedWidth(of line: Lyrics.Line, pixels: Float) -> Float {
        var narrow = 0, wide = 0
        for character in line.characters {
            switch CharacterWidth(character) {
            case .zero: break
            case .narrow: narrow += 1
            case .wide: wide += 1
            }
        }
        return Float(narrow) * pixels * CharacterWidth.narrow.ems + Float(wide) * pixels * CharacterWidth.wide.ems
    }
}
