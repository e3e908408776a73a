/// `--lyrics`: the song's lyrics as a two-line karaoke display, centred on a dark panel. The
/// current line lights up syllable by syllable as each is sung; the next line waits under it,
/// dimmer. In `keyboard` and `bars` it sits high, where notes have not arrived yet; in `roll`
/// and `circles` low.
struct LyricsOverlay: Sendable {
    let lyrics: Lyrics
    private let centerX: Float
    private let currentY: Float
    private let nextY: Float
    private let textSide: Int
    private let sung: RGBA
    private let unsung = RGBA(1, 1, 1, 0.95)
    private let waiting = RGBA(1, 1, 1, 0.55)
    private let panel: RGBA

    static let currentSize = TextSize.title
    static let nextSize = TextSize.large

    init?(song: Song, settings: RenderSettings) {
        guard settings.lyrics else { return nil }
        let lyrics = Lyrics(song: song)
        guard !lyrics.isEmpty else { return nil }
        self.lyrics = lyrics
        textSide = settings.textSide
        let height = Float(settings.height)
        let lineHeight = Float(Self.currentSize.pixelSize(canvasSide: textSide)) * 1.45
        centerX = Float(settings.width) / 2
        switch settings.style {
        case .keyboard, .bars: currentY = (height * 0.2).rounded()
        case .roll, .circles: currentY = (height * 0.84 - lineHeight).rounded()
        }
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
        // The panel is sized from the character count (text is measured only when drawn).
        let currentPixels = Float(Self.currentSize.pixelSize(canvasSide: textSide))
        let nextPixels = Float(Self.nextSize.pixelSize(canvasSide: textSide))
        let widest = max(Float(current.characters.count) * currentPixels, Float(next?.characters.count ?? 0) * nextPixels) * 0.6
        let padX = currentPixels, padY = currentPixels * 0.6
        let bottom = (next == nil ? currentY + currentPixels * 0.5 : nextY + nextPixels * 0.5) + padY
        let top = currentY - currentPixels * 0.75 - padY
        shapes.append(.roundedRect(Rect(x: centerX - widest / 2 - padX, y: top, width: widest + 2 * padX, height: bottom - top),
                                   radius: currentPixels * 0.5, top: panel, bottom: panel))

        let sungEnd = display.sung > 0 ? current.syllableEnds[display.sung - 1] : 0
        let litEnd = display.sung > 1 ? current.syllableEnds[display.sung - 2] : 0
        // The syllable being sung lights up over `Lyrics.lightingSeconds`.
        let lighting = unsung.mixed(with: sung, display.lastSyllableProgress)
        let line = LyricLine(current.characters, sungEnd: display.lastSyllableProgress >= 1 ? sungEnd : litEnd, lightingEnd: sungEnd,
                             sung: sung, lighting: lighting, unsung: unsung)
        let shadowOffset = max(1, (currentPixels * 0.05).rounded())
        shapes.append(.lyricLine(LyricLine(current.characters, RGBA(0, 0, 0, 0.6)), Self.currentSize,
                                 center: Point(centerX + shadowOffset, currentY + shadowOffset)))
        shapes.append(.lyricLine(line, Self.currentSize, center: Point(centerX, currentY)))
        if let next {
            shapes.append(.lyricLine(LyricLine(next.characters, waiting), Self.nextSize, center: Point(centerX, nextY)))
        }
    }
}
