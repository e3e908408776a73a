/// The room the overlays keep for themselves, so that they never cover a note: a header band
/// across the top for the title and the chord name (its height follows their fonts) and, under
/// them, the legend's row; a band for the karaoke lines, near the top under the header or at
/// the bottom, as the style prefers. The styles lay their notes out between `notesTop` and
/// `notesBottom`; without overlays that is the whole frame.
package struct OverlayBands: Sendable, Equatable {
    /// Where the header starts: the frame's top, or under the sheet music's band (`--sheet`).
    package let headerTop: Float
    /// The header's height (0: no header).
    package let headerHeight: Float
    /// The centre line of the title and chord row.
    package let titleRowY: Float
    /// The centre line of the legend's row.
    package let legendRowY: Float
    /// The karaoke band's top and height (height 0: no band).
    package let lyricsTop: Float
    package let lyricsHeight: Float
    /// Where the notes' area starts and ends, top to bottom.
    package let notesTop: Float
    package let notesBottom: Float
    /// The margin the overlays keep from the frame's edges.
    package let margin: Float
    /// Whether the title, chord, legend and lyrics are drawn: not in a frame too low to keep
    /// them bands of their own (they would cover the notes).
    package let overlaysShown: Bool
    private let frameHeight: Int

    /// - Parameters:
    ///   - hasTitle: a title is written.
    ///   - hasLegend: a legend of track or channel colours is shown.
    ///   - hasLyrics: the karaoke display is shown.
    package init(settings: RenderSettings, hasTitle: Bool, hasLegend: Bool, hasLyrics: Bool) {
        let height = Float(settings.height)
        frameHeight = settings.height
        let side = settings.textSide
        margin = (height * 0.03).rounded()
        let rowSize = max(
            hasTitle ? Float(TextSize.title.pixelSize(canvasSide: side)) : 0,
            settings.chords ? Float(TextSize.display.pixelSize(canvasSide: side)) : 0)
        let titleRow = rowSize > 0 ? (rowSize * 1.6).rounded() : 0
        let legendRow = hasLegend ? Overlay.legendRowHeight(textSide: side).rounded() : 0
        let gap = (margin * 0.5).rounded()
        // Under the sheet music's band when it is at the top (`--sheet`).
        let sheet = SheetBand.coveredTop(settings: settings)
        if titleRow + legendRow > 0 {
            headerHeight = gap + titleRow + legendRow + gap
        } else {
            headerHeight = 0
        }
        titleRowY = sheet + gap + titleRow / 2
        legendRowY = sheet + gap + titleRow + legendRow / 2
        if hasLyrics {
            let current = Float(LyricsOverlay.currentSize.pixelSize(canvasSide: side))
            let next = Float(LyricsOverlay.nextSize.pixelSize(canvasSide: side))
            lyricsHeight = (LyricsOverlay.panelHeight(current: current, next: next) + 2 * gap).rounded()
            lyricsTop = settings.style.layout.lyricsNearTop ? sheet + headerHeight : height - lyricsHeight
        } else {
            lyricsHeight = 0
            lyricsTop = sheet + headerHeight
        }
        headerTop = sheet
        let lyricsAtTop = lyricsHeight > 0 && lyricsTop < height / 2
        if headerHeight + lyricsHeight > (height - sheet) / 2 {
            // A frame too small for bands (text is at least 8 pixels): the notes keep all but the
            // sheet music, and the overlays are left out. The bands may take half of what the
            // sheet music leaves (with a title, a legend and lyrics under the sheet music, the
            // three took more than half the frame).
            (notesTop, notesBottom) = (sheet, height)
            overlaysShown = false
        } else {
            notesTop = lyricsAtTop ? lyricsTop + lyricsHeight : sheet + headerHeight
            notesBottom = lyricsHeight > 0 && !lyricsAtTop ? lyricsTop : height
            overlaysShown = true
        }
    }

    /// No overlays: the notes have the whole frame, `height` tall.
    package init(wholeFrameOfHeight height: Float) {
        (headerTop, headerHeight, titleRowY, legendRowY, lyricsTop, lyricsHeight) = (0, 0, 0, 0, 0, 0)
        (notesTop, notesBottom, margin) = (0, height, (height * 0.03).rounded())
        frameHeight = Int(height)
        overlaysShown = true
    }

    /// Whether the notes' area is the whole frame.
    package var isWholeFrame: Bool { notesTop == 0 && notesBottom == Float(frameHeight) }

    /// The rectangles the overlays may draw in (for tests: no note may be drawn there).
    package func overlayBoxes(width: Int) -> [Rect] {
        guard overlaysShown, notesTop > 0 || notesBottom < Float(frameHeight) else { return [] }
        var boxes: [Rect] = []
        if headerHeight > 0 { boxes.append(Rect(x: 0, y: headerTop, width: Float(width), height: headerHeight)) }
        if lyricsHeight > 0 { boxes.append(Rect(x: 0, y: lyricsTop, width: Float(width), height: lyricsHeight)) }
        return boxes
    }
}
