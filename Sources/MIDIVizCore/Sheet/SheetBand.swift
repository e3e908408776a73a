/// Where the engraved music goes in a frame and how it looks: a band at the top over any style
/// (`--sheet`), or the whole frame (`--style sheet`), with the playhead a quarter of the way
/// across. The strip's column under the playhead at a time comes from the song's own tempo map:
/// seconds → quarter notes (`Song.quarters(atSeconds:)`) → column (`SheetMusic.x(atQuarter:)`).
package enum SheetBand {
    /// The height of the engraved strip for frames of `settings`: 30 % of the frame's shorter
    /// side for the band (a vertical frame keeps its height for the notes), 60 % alone.
    package static func stripHeight(settings: RenderSettings) -> Int {
        let fraction = settings.style == RenderSettings.Style(registered: SheetLayout.self) ? 0.6 : 0.3
        return max(16, Int((Double(min(settings.height, settings.width)) * fraction).rounded()))
    }

    /// Whether frames of `settings` show the engraved music.
    package static func isShown(settings: RenderSettings) -> Bool {
        settings.sheetBand || settings.style == RenderSettings.Style(registered: SheetLayout.self)
    }

    /// How much of the frame's top the band covers over another style (0 without it): the title,
    /// legend, chord and lyrics go below it.
    static func coveredTop(settings: RenderSettings) -> Float {
        guard settings.sheetBand, settings.style != RenderSettings.Style(registered: SheetLayout.self) else { return 0 }
        return Float(stripHeight(settings: settings))
    }

    /// The paper's rectangle in the frame.
    static func rect(settings: RenderSettings) -> Rect {
        let width = Float(settings.width)
        if settings.style == RenderSettings.Style(registered: SheetLayout.self) {
            return Rect(x: 0, y: 0, width: width, height: Float(settings.height))
        }
        return Rect(x: 0, y: 0, width: width, height: Float(stripHeight(settings: settings)))
    }

    static func playheadX(settings: RenderSettings) -> Float { (Float(settings.width) * 0.25).rounded() }

    /// Paper, ink and the lit notes' colour: dark ink on paper; light ink with no paper on a
    /// transparent background.
    static func colors(settings: RenderSettings) -> (paper: RGBA, ink: RGBA, lit: RGBA) {
        let lit: RGBA
        switch settings.scheme {
        case .rainbow: lit = RGBA(0.85, 0.12, 0.4)
        case .fire: lit = RGBA(0.9, 0.32, 0.02)
        case .ocean: lit = RGBA(0.0, 0.45, 0.8)
        }
        if settings.transparent { return (RGBA(0, 0, 0, 0), RGBA(0.96, 0.96, 0.96), settings.scheme.accent) }
        return (RGBA(0.985, 0.975, 0.945), RGBA(0.08, 0.08, 0.1), lit)
    }

    /// The band at `seconds`, when shown and engraved.
    static func view(song: Song, settings: RenderSettings, at seconds: Double) -> SheetView? {
        guard isShown(settings: settings), let music = settings.sheet else { return nil }
        let playhead = playheadX(settings: settings)
        let quarter = song.quarters(atSeconds: seconds)
        let x = music.x(atQuarter: quarter)
        // An engraving's places are checked as read; this keeps any slope between them a number.
        guard x.isFinite, abs(x) < 1e15 else { return nil }
        let colors = colors(settings: settings)
        // Whole pixels: x264 predicts a whole-pixel shift exactly, so the scrolling band costs it
        // far less than one scrolled by fractions (bach_847 at 1080p60: 1.20x the CPU time of
        // the render without the band then, 1.16x once the band's drawing was vectorized,
        // against 1.32x by sixteenths of a pixel).
        let left = Int((x - Double(playhead)).rounded())
        return SheetView(
            fingerprint: music.fingerprint, stripHeight: music.height, band: rect(settings: settings), left: left, playheadX: playhead,
            paper: colors.paper, ink: colors.ink, lit: colors.lit, litStretch: music.litStretch(atQuarter: quarter))
    }
}
