/// The visualization model: from a song, settings and a frame index to the shapes of that
/// frame. Pure and deterministic; everything that does not depend on time is computed once here.
package struct Scene: Sendable {
    package let song: Song
    package private(set) var settings: RenderSettings
    /// The non-drum pitch range the layouts span (at least two octaves), or the keys of
    /// `--keys LOW-HIGH`.
    package let pitchRange: ClosedRange<Int>
    /// The lowest and highest non-drum pitches (60...60 without notes).
    package let notePitches: ClosedRange<Int>
    /// Whether any note is on the drum channel.
    let hasDrums: Bool
    let colors: NoteColors
    /// The notes on screen at a time, for this style.
    let index: NoteIndex
    let background: (top: RGBA, bottom: RGBA)
    /// Bar and beat lines, for the styles that scroll (empty for the others).
    let beatGrid: BeatGrid
    /// Chord names, when shown.
    let chordTimeline: ChordTimeline?
    /// The pedals, and until when each note sounds under them (nil: no pedal in the song).
    let pedal: SustainPedal
    let soundingEnds: [Double]?
    let overlay: Overlay
    /// The room the title, chord, legend and lyrics keep; the notes' area is the rest.
    package private(set) var bands: OverlayBands
    /// `--direction`: where the style's own layout goes in the frame (nil: as it is).
    let layoutTransform: LayoutTransform?
    /// Note names under `--labels`.
    let labeler: NoteLabeler
    /// The karaoke display, with `--lyrics` when the song has lyrics.
    let lyricsOverlay: LyricsOverlay?
    /// The texts, lyrics and engraved music the scene's shapes refer to by number.
    package let store: ShapeStore
    /// Note names under the sheet band's noteheads, with `--labels`.
    let sheetLabels: SheetLabels?

    /// Whether the song is dense ("black MIDI"): at least `denseNotesOnScreen` notes in a
    /// window of the style on average. The keyboard then moves its falling notes on a layer.
    let isDense: Bool
    static let denseNotesOnScreen = 2000
    /// In a dense song with drums, the velocity each note's drum hit is drawn with (0: drawn as
    /// an earlier hit: `DrumLane.drawnVelocities`); nil otherwise.
    let drumVelocities: [UInt8]?

    package static let drumChannel: UInt8 = 9

    package init(song: Song, settings: RenderSettings) {
        let song = song.showing(settings.trackLook)
        self.song = song
        self.settings = settings
        (notePitches, pitchRange) = Self.pitches(of: song, settings: settings)
        hasDrums = song.notes.contains { $0.channel == Self.drumChannel }
        colors = NoteColors(song: song, settings: settings, pitchRange: pitchRange)
        pedal = SustainPedal(events: song.synthEvents, songEnd: song.durationSeconds)
        let soundingEnds = pedal.soundingEnds(of: song.notes, drumChannel: Self.drumChannel)
        self.soundingEnds = soundingEnds
        let notes = song.notes
        /// A note's end, or later under a pedal.
        func sounding(_ index: Int) -> Double { soundingEnds?[index] ?? notes[index].endSeconds }
        let (legend, lyrics, bands) = Self.overlays(of: song, settings: settings, colors: colors)
        let transform = Self.transform(settings: settings, bands: bands)
        layoutTransform = transform
        let span = settings.style.layout.visibleSpan(settings: Self.layoutSettings(settings, transform: transform))
        index = NoteIndex(
            count: notes.count, visibleFrom: { span(notes[$0], sounding($0)).from }, visibleUntil: { span(notes[$0], sounding($0)).until })
        // The notes a screen holds: over the style's window where its notes travel, else over
        // the default one, so that `--window`, which such a style does not use, changes nothing.
        let window = settings.style.scrolls ? settings.windowSeconds : settings.style.layout.defaultWindowSeconds / settings.speed
        isDense = Double(notes.count) * window / max(song.durationSeconds, window) >= Double(Self.denseNotesOnScreen)
        drumVelocities = isDense && hasDrums ? DrumLane.drawnVelocities(of: notes, drumChannel: Self.drumChannel) : nil
        beatGrid = settings.style.layout.scrolls ? BeatGrid(song: song, until: song.durationSeconds + settings.tailSeconds + window) : BeatGrid(lines: [])
        if let color = settings.background {
            background = (color, color.scaled(0.35))
        } else {
            background = settings.scheme.background
        }
        chordTimeline = settings.chords ? ChordTimeline(song: song, drumChannel: Self.drumChannel) : nil
        self.bands = bands
        var store = ShapeStore()
        store.sheet = settings.sheet
        overlay = Overlay(settings: settings, legend: legend, bands: bands, chords: chordTimeline, store: &store)
        labeler = NoteLabeler(song: song, settings: settings)
        sheetLabels = SheetLabels(song: song, settings: settings, labeler: labeler)
        lyricsOverlay = lyrics.map { LyricsOverlay(lyrics: $0, settings: settings, bands: bands, store: &store) }
        self.store = store
    }

    /// The range of the song's pitches (drums left out), and the range drawn: `--keys C2-C7`'s
    /// keys in every style, else the song's padded.
    private static func pitches(of song: Song, settings: RenderSettings) -> (notes: ClosedRange<Int>, drawn: ClosedRange<Int>) {
        let pitches = song.notes.filter { $0.channel != drumChannel }.map { Int($0.pitch) }
        let notes = (pitches.min() ?? 60)...(pitches.max() ?? 60)
        return (notes, settings.keys.span ?? paddedRange(low: notes.lowerBound, high: notes.upperBound))
    }

    /// The legend, the lyrics shown and the bands the overlays keep.
    private static func overlays(of song: Song, settings: RenderSettings, colors: NoteColors) -> (
        legend: [Overlay.LegendEntry], lyrics: Lyrics?, bands: OverlayBands
    ) {
        let legend = Overlay.legend(song: song, colorBy: settings.colorBy, colors: colors)
        let lyrics = LyricsOverlay.shown(song: song, settings: settings)
        let bands = OverlayBands(
            settings: settings, hasTitle: Overlay.titleText(settings: settings) != nil, hasLegend: !legend.isEmpty, hasLyrics: lyrics != nil)
        return (legend, lyrics, bands)
    }

    /// The overlays asked of `song` that frames of `settings` leave out, too low to keep them
    /// bands of their own (`OverlayBands.overlaysShown`): "the title", "the chord", "the
    /// legend", "the lyrics"; empty when they are drawn. For a warning before the frames.
    package static func overlaysLeftOut(song: Song, settings: RenderSettings) -> [String] {
        // Every overlay the options can ask for fits: those shown fit too, without a look at
        // the notes (a song of a million notes).
        let hasTitle = Overlay.titleText(settings: settings) != nil
        let most = OverlayBands(settings: settings, hasTitle: hasTitle, hasLegend: true, hasLyrics: settings.lyrics)
        guard !most.overlaysShown else { return [] }
        let song = song.showing(settings.trackLook)
        let colors = NoteColors(song: song, settings: settings, pitchRange: pitches(of: song, settings: settings).drawn)
        let (legend, lyrics, bands) = overlays(of: song, settings: settings, colors: colors)
        guard !bands.overlaysShown else { return [] }
        let asked = [
            (hasTitle, "the title"), (settings.chords, "the chord"), (!legend.isEmpty, "the legend"),
            (lyrics != nil, "the lyrics"),
        ]
        return asked.filter(\.0).map(\.1)
    }

    /// The characters frames of `song` will write that Latin-1 lacks (the lyrics' when shown),
    /// at most `mostCharactersBeyondLatin1` of them (the first met): the fonts must hold glyphs
    /// for them too, at the sizes of `textSizesBeyondLatin1`.
    package static func charactersBeyondLatin1(song: Song, settings: RenderSettings) -> Set<UInt32> {
        guard settings.lyrics else { return [] }
        var found = Set<UInt32>()
        for line in Lyrics(song: song).lines {
            for character in line.characters where character >= 256 {
                found.insert(character)
                if found.count == mostCharactersBeyondLatin1 { return found }
            }
        }
        return found
    }

    package static let mostCharactersBeyondLatin1 = 4096
    package static let textSizesBeyondLatin1: Set<TextSize> = [LyricsOverlay.currentSize, LyricsOverlay.nextSize, .medium]

    /// Widens a pitch range to at least 24 semitones, centred, within 0...127.
    static func paddedRange(low: Int, high: Int) -> ClosedRange<Int> {
        var low = low - 1, high = high + 1
        while high - low < 24 {
            low -= 1
            high += 1
        }
        if low < 0 { high -= low; low = 0 }
        if high > 127 { low -= high - 127; high = 127 }
        return max(0, low)...min(127, high)
    }

    package var frameCount: Int { settings.frameCount(songDuration: song.durationSeconds) }

    /// The shapes that are the same in every frame (background, grid, bar slots, labels),
    /// drawn once into a backdrop that each frame starts from.
    package func makeBackdropShapes(into shapes: inout [Shape]) {
        shapes.removeAll(keepingCapacity: true)
        if !settings.transparent && settings.backgroundImage == nil {
            shapes.append(.background(top: background.top, bottom: background.bottom))
        }
        appendBackdrop(of: settings.style.layout, to: &shapes)
    }

    /// Replaces `shapes` with what moves in frame `frameIndex` (0-based), at t = index / fps;
    /// drawn over the backdrop.
    package func makeShapes(ofFrame frameIndex: Int, into shapes: inout [Shape]) {
        makeShapes(at: settings.seconds(ofFrame: frameIndex), into: &shapes)
    }

    package func makeShapes(at seconds: Double, into shapes: inout [Shape]) {
        shapes.removeAll(keepingCapacity: true)
        append(of: settings.style.layout, at: seconds, to: &shapes)
        appendOverlays(at: seconds, to: &shapes)
    }

    /// What moves at `seconds` when the style's scroll area is a layer (`ScrollArea.Motion.down`):
    /// `layer` gets the shapes that fall with the music, `over` all that is drawn over them.
    /// Of the falling notes, those `drawn` picks.
    package func makeLayeredShapes(
        at seconds: Double, notes drawn: NotesDrawn = .all, visible: inout VisibleNotes, layer: inout [Shape], over: inout [Shape]
    ) {
        layer.removeAll(keepingCapacity: true)
        over.removeAll(keepingCapacity: true)
        let falling = appendLayered(of: settings.style.layout, at: seconds, notes: drawn, visible: &visible, to: &layer)
        over.append(contentsOf: layer[falling...])
        layer.removeSubrange(falling...)
        appendOverlays(at: seconds, to: &over)
    }

    /// The sheet music, lyrics, title, legend and chord: over the style's shapes.
    private func appendOverlays(at seconds: Double, to shapes: inout [Shape]) {
        if let sheet = SheetBand.view(song: song, settings: settings, at: seconds) {
            shapes.append(.sheet(sheet))
            sheetLabels?.append(for: sheet, to: &shapes)
        }
        guard bands.overlaysShown else { return }
        lyricsOverlay?.append(at: seconds, to: &shapes)
        overlay.append(chord: chordTimeline?.segment(at: seconds), at: seconds, to: &shapes)
    }

    /// How the style's layout is placed for `--direction` (nil: as it is).
    private static func transform(settings: RenderSettings, bands: OverlayBands) -> LayoutTransform? {
        guard let wanted = settings.direction, let natural = settings.style.layout.travel else { return nil }
        return LayoutTransform(
            natural: natural, wanted: wanted, width: settings.width, height: settings.height, top: bands.notesTop, bottom: bands.notesBottom)
    }

    /// The settings the layout sees: the frame it draws in.
    private static func layoutSettings(_ settings: RenderSettings, transform: LayoutTransform?) -> RenderSettings {
        guard let transform, transform.isQuarterTurn else { return settings }
        var turned = settings
        (turned.width, turned.height) = (transform.layoutWidth, transform.layoutHeight)
        return turned
    }

    /// The scene as the layout sees it: turned a quarter, it draws in the notes' area alone.
    private var layoutScene: Scene {
        guard let transform = layoutTransform, transform.isQuarterTurn else { return self }
        var scene = self
        scene.settings = Self.layoutSettings(settings, transform: transform)
        scene.bands = OverlayBands(wholeFrameOfHeight: Float(transform.layoutHeight))
        return scene
    }

    // Generic over the layout, so that the layout is a plain value, not an existential box.
    private func appendBackdrop<Layout: StyleLayout>(of layout: Layout.Type, to shapes: inout [Shape]) {
        let start = shapes.count
        Layout(scene: layoutScene).appendBackdrop(to: &shapes)
        layoutTransform?.apply(to: &shapes, from: start)
    }

    private func append<Layout: StyleLayout>(of layout: Layout.Type, at seconds: Double, to shapes: inout [Shape]) {
        guard let transform = layoutTransform else {
            Layout(scene: self).append(at: seconds, to: &shapes)
            return
        }
        let start = shapes.count
        Layout(scene: layoutScene).append(at: seconds, to: &shapes)
        transform.apply(to: &shapes, from: start)
    }

    /// The falling shapes at `seconds` that differ from those at `earlier` moved `shift` pixels
    /// down the layer (`StyleLayout.appendLayerChanges`), replacing `shapes`; false when the
    /// style cannot tell.
    package func makeLayerChanges(
        from earlier: Double, to seconds: Double, shift: Int, visible: inout VisibleNotes, into shapes: inout [Shape]
    ) -> Bool {
        shapes.removeAll(keepingCapacity: true)
        return appendLayerChanges(of: settings.style.layout, from: earlier, to: seconds, shift: shift, visible: &visible, to: &shapes)
    }

    /// The shapes at `seconds` when the scroll area moves left, with the notes `drawn` picks
    /// (`StyleLayout.appendMoving`), replacing `shapes`; returns where the notes'
    /// shapes lie (the overlays come after them), nil when the style cannot tell.
    package func makeMovingShapes(
        at seconds: Double, notes drawn: NotesDrawn, visible: inout VisibleNotes, into shapes: inout [Shape]
    ) -> Range<Int>? {
        guard layoutTransform == nil else {
            makeShapes(at: seconds, into: &shapes)
            return nil
        }
        shapes.removeAll(keepingCapacity: true)
        let notes = appendMoving(of: settings.style.layout, at: seconds, notes: drawn, visible: &visible, to: &shapes)
        appendOverlays(at: seconds, to: &shapes)
        return notes
    }

    /// The notes' shapes that differ at `seconds` from those at `earlier` moved `shift` pixels
    /// left (`StyleLayout.appendMovingChanges`), replacing `new` and `old`; false when the
    /// style cannot tell.
    package func makeMovingChanges(
        from earlier: Double, to seconds: Double, shift: Int, visible: inout VisibleNotes, new: inout [Shape], old: inout [Shape]
    ) -> Bool {
        new.removeAll(keepingCapacity: true)
        old.removeAll(keepingCapacity: true)
        return appendMovingChanges(of: settings.style.layout, from: earlier, to: seconds, shift: shift, visible: &visible, new: &new, old: &old)
    }

    /// A moving frame has no `--direction` turn either (`scrollArea` is nil then).
    private func appendMoving<Layout: StyleLayout>(
        of layout: Layout.Type, at seconds: Double, notes drawn: NotesDrawn, visible: inout VisibleNotes,
        to shapes: inout [Shape]
    ) -> Range<Int>? {
        Layout(scene: self).appendMoving(at: seconds, notes: drawn, visible: &visible, to: &shapes)
    }

    private func appendMovingChanges<Layout: StyleLayout>(
        of layout: Layout.Type, from earlier: Double, to seconds: Double, shift: Int, visible: inout VisibleNotes, new: inout [Shape],
        old: inout [Shape]
    ) -> Bool {
        Layout(scene: self).appendMovingChanges(from: earlier, to: seconds, shift: shift, visible: &visible, new: &new, old: &old)
    }

    /// A layer has no `--direction` turn (`scrollArea` is nil then).
    private func appendLayered<Layout: StyleLayout>(
        of layout: Layout.Type, at seconds: Double, notes drawn: NotesDrawn, visible: inout VisibleNotes, to shapes: inout [Shape]
    ) -> Int {
        Layout(scene: self).appendLayered(at: seconds, notes: drawn, visible: &visible, to: &shapes)
    }

    private func appendLayerChanges<Layout: StyleLayout>(
        of layout: Layout.Type, from earlier: Double, to seconds: Double, shift: Int, visible: inout VisibleNotes, to shapes: inout [Shape]
    ) -> Bool {
        Layout(scene: self).appendLayerChanges(from: earlier, to: seconds, shift: shift, visible: &visible, to: &shapes)
    }

    /// Where frames move by whole pixels from one to the next (`ScrollArea`): the style's own,
    /// when its layout is not turned or mirrored by `--direction`.
    package var scrollArea: ScrollArea? {
        guard layoutTransform == nil else { return nil }
        return scrollArea(of: settings.style.layout)
    }

    private func scrollArea<Layout: StyleLayout>(of layout: Layout.Type) -> ScrollArea? { Layout(scene: self).scrollArea }

    /// Until when note `index` sounds: its end, or later while a pedal holds it.
    func soundingEnd(_ index: Int) -> Double { soundingEnds?[index] ?? song.notes[index].endSeconds }

    /// Where note `index` is in its life at `seconds`: how long it has sounded and, once it no
    /// longer sounds (released, and the pedal lifted), how far its fade has gone (0 then, 1 when gone).
    func envelope(of index: Int, at seconds: Double) -> (age: Float, fade: Float) {
        let note = song.notes[index], end = soundingEnd(index)
        let age = Float(seconds - note.startSeconds)
        guard seconds > end else { return (age, 0) }
        return (age, Float(min(1, (seconds - end) / settings.fadeSeconds)))
    }
}
