/// `roll`: a piano roll. Time runs right to left past a playhead a quarter of the way in; one
/// row per pitch over the song's range, with a keyboard at the left whose keys line up with
/// their rows and light up while their notes sound. Notes are rounded bars as long as they
/// last, brighter while they cross the playhead, dimmed once played. Bar and beat lines come
/// from the time signatures and the tempo map, with bar numbers in a ruler; drums scroll by in
/// a strip of six lanes at the bottom.
struct RollLayout: StyleLayout {
    static let name = "roll"
    static let helpText = "roll (a scrolling piano roll)"
    static let scrolls = true
    static let lyricsNearTop = false
    static let travel: RenderSettings.Direction? = .left

    static func secondsOnScreenBeforeStart(settings: RenderSettings) -> Double {
        onScreenSeconds(settings: settings) * (1 - playheadPosition)
    }

    /// The seconds of music across the notes area: `--window`, made a whole number of pixels a
    /// frame when that is within `ScrollArea.mostSnapped` of it (else half a pixel), so that notes move by
    /// whole pixels from frame to frame (or from a frame to the next but one): what one frame
    /// drew can be moved instead of drawn again (`ScrolledShapes`), and a note's anti-aliased
    /// edges look the same in every frame. A window that would move less than that (a long
    /// one on a small frame), a roll with no room for notes and one turned upright by
    /// `--direction` (the lead-in is worked out from the frame, not from the turned notes area)
    /// keep `--window` as it is.
    static func onScreenSeconds(settings: RenderSettings) -> Double {
        let perSecond = pixelsPerSecond(settings: settings)
        guard perSecond > 0, isRounded(settings) else { return settings.windowSeconds }
        return notesWidth(settings: settings) / perSecond
    }

    /// How far notes move in a second, in pixels: `pixelsPerFrame` at the frame rate.
    static func pixelsPerSecond(settings: RenderSettings) -> Double {
        pixelsPerFrame(settings: settings) * settings.frameRate.perSecond
    }

    /// How far notes move from one frame to the next, in pixels: whole, or a half, or as
    /// `--window` has it when neither is near enough.
    static func pixelsPerFrame(settings: RenderSettings) -> Double {
        let asked = notesWidth(settings: settings) / settings.windowSeconds / settings.frameRate.perSecond
        guard isRounded(settings) else { return asked }
        return ScrollArea.wholeOrHalfPixels(asked, .toNearestOrAwayFromZero) ?? asked
    }

    /// Whether the window is rounded: not when `--direction` turns the roll upright.
    private static func isRounded(_ settings: RenderSettings) -> Bool {
        settings.direction != .up && settings.direction != .down
    }

    private static func notesWidth(settings: RenderSettings) -> Double {
        Double(settings.width) - Double(keyboardWidth(canvasWidth: Float(settings.width)))
    }

    /// A note comes in at the right edge and leaves at the left, at least as long as its sparks.
    /// A pixel's time to spare at the left: the playhead's place is rounded to a pixel, so the
    /// keys' edge lies up to half a pixel further back than a quarter of the window.
    static func visibleSpan(settings: RenderSettings) -> (Note, Double) -> (from: Double, until: Double) {
        let (past, future) = reach(settings: settings)
        let narrowest = narrowestNoteSeconds(settings: settings)
        let sparks = settings.effects ? Sparks.lifeSeconds : 0
        return { note, soundingEnd in
            (
                note.startSeconds - future,
                max(max(soundingEnd, note.startSeconds + shortestNoteSeconds, note.startSeconds + narrowest) + past, note.startSeconds + sparks)
            )
        }
    }

    /// How long a note stays in view after it sounds (`past`) and comes into view before
    /// (`future`), its length aside (`visibleSpan`).
    private static func reach(settings: RenderSettings) -> (past: Double, future: Double) {
        let window = onScreenSeconds(settings: settings)
        let perSecond = pixelsPerSecond(settings: settings)
        return (window * playheadPosition + (perSecond > 0 ? 1 / perSecond : 0), window - window * playheadPosition)
    }

    let scene: Scene

    /// The playhead's place across the notes area: this much of the window is past.
    static let playheadPosition = 0.25
    /// Notes shorter than this are drawn this long, and never narrower than
    /// `narrowestNotePixels`, so that they can be seen.
    static let shortestNoteSeconds = 0.04
    static let narrowestNotePixels: Float = 3

    /// How long a note stays visible after its start beyond its drawn length's seconds, at most:
    /// the time the narrowest note takes to scroll its own width.
    static func narrowestNoteSeconds(settings: RenderSettings) -> Double {
        let notesWidth = Float(settings.width) - keyboardWidth(canvasWidth: Float(settings.width))
        return Double(narrowestNotePixels / max(1, notesWidth)) * onScreenSeconds(settings: settings)
    }

    static func keyboardWidth(canvasWidth: Float) -> Float { max(24, (canvasWidth * 0.065).rounded()) }

    /// The top of the rows: below the overlays' bands, a margin and the ruler.
    static func notesTop(settings: RenderSettings, bands: OverlayBands) -> Float {
        (bands.notesTop + 0.015 * Float(settings.height) + rulerHeight(settings: settings)).rounded()
    }

    /// Tall enough for the bar numbers.
    static func rulerHeight(settings: RenderSettings) -> Float { max(10, Float(settings.textSide) * 0.035) }

    // Geometry, worked out once per layout (frames build one layout each).
    private let width: Float
    private let height: Float
    let keyboardWidth: Float
    var notesLeft: Float { keyboardWidth }
    let notesTop: Float
    let rulerTop: Float
    private let hasDrums: Bool
    let drumStripHeight: Float
    /// The bottom of the pitch rows.
    let notesBottom: Float
    /// The pedal lane lies between the drums (or the rows) and this.
    let pedalLaneBottom: Float
    let rowHeight: Float
    let playheadX: Float
    let pixelsPerSecond: Float
    let blackKeyLength: Float
    /// The gap between a note's bar and the edges of its row, and the height left for the bar.
    private let barGap: Float
    private let barRoom: Float
    /// A note's corner radius.
    private let noteRadius: Float
    /// The keys of the side keyboard: the rows' pitches and one more at each end, clipped to
    /// the rows, so the keys at the ends fill their rows.
    let keyboardKeys: ClosedRange<Int>
    /// Whether the rows are tall enough for the octave names on the Cs.
    private let showsOctaveNames: Bool

    init(scene: Scene) {
        self.scene = scene
        width = Float(scene.settings.width)
        height = Float(scene.settings.height)
        keyboardWidth = Self.keyboardWidth(canvasWidth: width)
        notesTop = Self.notesTop(settings: scene.settings, bands: scene.bands)
        rulerTop = notesTop - Self.rulerHeight(settings: scene.settings)
        hasDrums = scene.hasDrums
        drumStripHeight = hasDrums ? (height * 0.075).rounded() : 0
        let bottom = scene.bands.notesBottom
        notesBottom = (bottom == height ? (height * 0.985).rounded() : (bottom - height * 0.015).rounded()) - drumStripHeight
        pedalLaneBottom = bottom - 1
        rowHeight = (notesBottom - notesTop) / Float(scene.pitchRange.count)
        playheadX = (keyboardWidth + (width - keyboardWidth) * Float(Self.playheadPosition)).rounded()
        pixelsPerSecond = Float(Self.pixelsPerSecond(settings: scene.settings))
        blackKeyLength = (keyboardWidth * PianoKeys.blackKeyLength).rounded()
        barGap = min(1, rowHeight * 0.1)
        barRoom = rowHeight - 2 * barGap
        noteRadius = Shape.onGrid(Double(min(rowHeight * 0.3, 4)))
        keyboardKeys = max(0, scene.pitchRange.lowerBound - 1)...min(127, scene.pitchRange.upperBound + 1)
        showsOctaveNames = rowHeight * 5 / 3 >= Float(TextSize.small.pixelSize(canvasSide: scene.settings.textSide)) * 1.1
    }

    /// The x of a moment `seconds` when the playhead is at `now`, on the grid of
    /// `Shape.shifted(by:)`: the distance between the two moments' places on it (`gridPlace`),
    /// so that from one frame to another everything moves by the same pixels, the frames'
    /// places apart.
    func x(of seconds: Double, now: Double) -> Float { playheadX + Float((gridPlace(seconds) - gridPlace(now)) / 256) }

    /// Where a moment lies along the roll, in 256ths of a pixel.
    private func gridPlace(_ seconds: Double) -> Double { (seconds * Double(pixelsPerSecond) * 256).rounded() }

    /// The notes area's columns, where everything moves with the music (`ScrollArea`).
    var scrollArea: ScrollArea? {
        guard Int(width) > Int(notesLeft), pixelsPerSecond > 0 else { return nil }
        return ScrollArea(columns: Int(notesLeft)..<Int(width), height: Int(height), pixelsPerSecond: Double(pixelsPerSecond))
    }

    /// The top of the row of `pitch`.
    func rowTop(_ pitch: Int) -> Float { notesTop + Float(scene.pitchRange.upperBound - pitch) * rowHeight }

    /// The bar of `note` at `now`, before clipping to the notes area.
    func noteRect(_ note: Note, now: Double) -> Rect {
        // `--velocity`: a softer note is a thinner bar, centred in its row.
        let thickness = scene.colors.thickness(note.velocity)
        return Rect(
            x: x(of: note.startSeconds, now: now), y: rowTop(Int(note.pitch)) + barGap + (thickness < 1 ? barRoom * (1 - thickness) / 2 : 0),
            width: barLength(note), height: barHeight(note))
    }

    /// The height of a note's bar (`noteRect`).
    private func barHeight(_ note: Note) -> Float {
        let thickness = scene.colors.thickness(note.velocity)
        return thickness < 1 ? barRoom * thickness : barRoom
    }

    /// The length of a note's bar in pixels, the same at every moment (`noteRect`).
    private func barLength(_ note: Note) -> Float {
        max(Shape.onGrid(max(note.endSeconds - note.startSeconds, Self.shortestNoteSeconds) * Double(pixelsPerSecond)), Self.narrowestNotePixels)
    }

    // MARK: backdrop

    func appendBackdrop(to shapes: inout [Shape]) {
        let accent = scene.settings.scheme.accent
        let range = scene.pitchRange
        // Ruler and rows: black-key rows darker, a line under every C.
        shapes.append(.rect(Rect(x: notesLeft, y: rulerTop, width: width - notesLeft, height: notesTop - rulerTop), accent.withAlpha(0.035)))
        for pitch in range where PianoKeys.isBlack(pitch) {
            shapes.append(.rect(Rect(x: notesLeft, y: rowTop(pitch), width: width - notesLeft, height: rowHeight), RGBA(0, 0, 0, 0.22)))
        }
        for pitch in range {
            let isC = pitch % 12 == 0
            guard isC || scene.settings.grid else { continue }
            let y = rowTop(pitch) + rowHeight
            shapes.append(.line(from: Point(notesLeft, y), to: Point(width, y), lineWidth: 1, accent.withAlpha(isC ? 0.10 : 0.035)))
        }
        shapes.append(.line(from: Point(notesLeft, notesTop), to: Point(width, notesTop), lineWidth: 1, accent.withAlpha(0.14)))
        if hasDrums {
            shapes.append(.rect(Rect(x: notesLeft, y: notesBottom, width: width - notesLeft, height: drumStripHeight), RGBA(0, 0, 0, 0.25)))
            shapes.append(.line(from: Point(0, notesBottom), to: Point(width, notesBottom), lineWidth: 1, accent.withAlpha(0.14)))
            shapes.append(
                .text(
                    .drums, .small, center: Point(keyboardWidth / 2, notesBottom + drumStripHeight / 2),
                    accent.withAlpha(0.6)))
        }
        appendKeyboard(to: &shapes)
    }

    /// The y extent of a key in the side keyboard, clipped to the rows.
    func keyExtent(_ pitch: Int) -> (top: Float, bottom: Float) {
        let span = PianoKeys.semitoneSpan(pitch)
        let low = Float(scene.pitchRange.lowerBound)
        return (max(notesTop, notesBottom - (span.upper - low) * rowHeight), min(notesBottom, notesBottom - (span.lower - low) * rowHeight))
    }

    private func appendKeyboard(to shapes: inout [Shape]) {
        shapes.append(.rect(Rect(x: 0, y: notesTop, width: keyboardWidth, height: notesBottom - notesTop), KeyShading.bed))
        for pitch in keyboardKeys where !PianoKeys.isBlack(pitch) { appendKey(pitch, lit: nil, to: &shapes) }
        for pitch in keyboardKeys where PianoKeys.isBlack(pitch) { appendKey(pitch, lit: nil, to: &shapes) }
        for pitch in keyboardKeys where pitch % 12 == 0 { appendOctaveName(pitch, to: &shapes) }
    }

    /// The octave name on a C key, when a row is tall enough to read it.
    private func appendOctaveName(_ pitch: Int, to shapes: inout [Shape]) {
        let extent = keyExtent(pitch)
        guard showsOctaveNames, extent.bottom - extent.top >= rowHeight * 0.99 else { return }
        shapes.append(
            .text(
                .noteName(UInt8(pitch)), .small, center: Point(keyboardWidth - keyboardWidth * 0.08, (extent.top + extent.bottom) / 2),
                KeyShading.label, alignment: .right))
    }

    /// One key of the side keyboard, at rest or lit in a note's colour.
    private func appendKey(_ pitch: Int, lit: RGBA?, to shapes: inout [Shape]) {
        let extent = keyExtent(pitch)
        guard extent.bottom - extent.top >= 1 else { return }
        let black = PianoKeys.isBlack(pitch)
        let length = black ? blackKeyLength : keyboardWidth - 1
        let gap: Float = black ? 0 : min(1, rowHeight * 0.15)
        let rect = Rect(x: 0, y: extent.top, width: length, height: extent.bottom - extent.top - gap)
        let lip = max(2, (keyboardWidth * 0.06).rounded())
        let colors = KeyShading.colors(black: black, lit: lit)
        shapes.append(.rect(Rect(x: rect.minX, y: rect.minY, width: rect.width - lip, height: rect.height), colors.face))
        shapes.append(.rect(Rect(x: rect.maxX - lip, y: rect.minY, width: lip, height: rect.height), colors.lip))
    }

    // MARK: frames

    func append(at seconds: Double, to shapes: inout [Shape]) {
        var visible = VisibleNotes()
        _ = appendMoving(at: seconds, notes: .all, visible: &visible, to: &shapes)
    }

    /// The shapes of the moment `seconds`, with the notes `drawn` picks (a note is live at the
    /// playhead where its glow, key and sparks are). The keys lit and the sparks are those of
    /// every note. Returns where the notes' shapes lie in `shapes`: the bar lines come before
    /// them, everything else after.
    func appendMoving(at seconds: Double, notes drawn: NotesDrawn, visible: inout VisibleNotes, to shapes: inout [Shape]) -> Range<Int>? {
        let accent = scene.settings.scheme.accent
        let window = Self.onScreenSeconds(settings: scene.settings)
        let past = window * Self.playheadPosition
        let shownTimes = (seconds - past - 0.5)...(seconds + window - past + 0.5)
        // Bar and beat lines with the bar numbers in the ruler.
        let rulerY = (rulerTop + notesTop) / 2
        scene.beatGrid.forEachLine(in: shownTimes) { line in
            let x = x(of: line.seconds, now: seconds).rounded()
            guard x >= notesLeft, x < width else { return }
            if line.isBarStart {
                shapes.append(.line(from: Point(x, rulerTop), to: Point(x, notesBottom + drumStripHeight), lineWidth: 1.5, accent.withAlpha(0.2)))
                shapes.append(.text(.number(line.bar), .small, center: Point(x + height * 0.006, rulerY), accent.withAlpha(0.65), alignment: .left))
            } else {
                shapes.append(.line(from: Point(x, notesTop), to: Point(x, notesBottom + drumStripHeight), lineWidth: 1, accent.withAlpha(0.07)))
            }
        }
        // Notes, and the colour each key is lit with: the loudest note sounding on it.
        let notesStart = shapes.count
        let notes = scene.song.notes
        var lit = LitKeys()
        var struck: [Note] = []
        for index in candidates(at: seconds, for: drawn, visible: &visible) {
            let note = notes[index]
            let soundingEnd = scene.soundingEnd(index)
            let draws = drawn.draws(
                region: { region(of: note, until: soundingEnd, at: seconds) }, live: { isLive(note, until: soundingEnd, at: seconds) })
            if note.channel == Scene.drumChannel {
                if draws { appendDrumHit(note, at: seconds, to: &shapes) }
                continue
            }
            if draws {
                if soundingEnd > note.endSeconds { appendSustain(note, until: soundingEnd, at: seconds, to: &shapes) }
                appendNote(note, at: seconds, to: &shapes)
            }
            if scene.settings.effects, Sparks.isLive(note, at: seconds), scene.pitchRange.contains(Int(note.pitch)) {
                struck.append(note)
            }
            if note.startSeconds <= seconds, note.endSeconds > seconds {
                lit.light(Int(note.pitch), scene.colors.color(of: note), velocity: note.velocity, start: note.startSeconds)
            } else if note.startSeconds <= seconds, soundingEnd > seconds {
                lit.light(Int(note.pitch), scene.colors.color(of: note).scaled(0.55), velocity: note.velocity / 2, start: note.startSeconds)
            }
        }
        let notesEnd = shapes.count
        appendPedalLane(at: seconds, to: &shapes)
        // The playhead.
        shapes.append(.rect(Rect(x: playheadX - 3, y: rulerTop, width: 6, height: notesBottom + drumStripHeight - rulerTop), accent.withAlpha(0.06)))
        shapes.append(.line(from: Point(playheadX, rulerTop), to: Point(playheadX, notesBottom + drumStripHeight), lineWidth: 2, accent.withAlpha(0.8)))
        let (sparking, share) = Sparks.chosen(struck)
        for note in sparking { appendStrike(note, at: seconds, sparks: share, to: &shapes) }
        appendLitKeys(lit, to: &shapes)
        return notesStart..<notesEnd
    }

    /// The visible notes `appendMoving` goes through: all of them, or when `drawn` is none or
    /// says in which columns it takes notes, only those that may lie there (`region`) or be
    /// live, lit or sparking at the playhead; in the order they came into view.
    private func candidates(at seconds: Double, for drawn: NotesDrawn, visible: inout VisibleNotes) -> [Int] {
        let (past, future) = Self.reach(settings: scene.settings)
        // Some room for rounding: the index's times are Doubles, a region's Floats.
        let slack = 1e-6
        /// The visible notes whose span has begun by `begunBy` and lasts until `lastingUntil`.
        func part(begunBy: Double, lastingUntil: Double) -> NoteIndex.Part {
            NoteIndex.Part(begunBy: min(seconds, begunBy + slack), lastingUntil: max(seconds, lastingUntil - slack))
        }
        // Started (the index's `from` is a note's start less `future`), and still sounding, a
        // drum hit flashing or sparks flying: ended at most `recent` ago (`until` is at least
        // its end plus `past`).
        let recent = max(scene.settings.drumSeconds, scene.settings.effects ? Sparks.lifeSeconds : 0)
        let live = part(begunBy: seconds - future, lastingUntil: seconds - recent + past)
        let perSecond = Double(pixelsPerSecond)
        switch drawn {
        case .none:
            return scene.index.indices(inAnyOf: [live])
        case .lying(let tiles?, _) where perSecond > 0:
            // `region`: a note lies from its start's x less `spare` to its end's x (or
            // `longest` past its start's) plus `spare`, in its row (the drums' strip) with
            // `spare` above and below. Two pixels more for rounding.
            let spare = Double(2 + (scene.labeler.isOn ? scene.labeler.pixels : 0)) + 2
            let longest = Double(max(Self.narrowestNotePixels, drumStripHeight, Float(0.05) * pixelsPerSecond))
            let rows = Int((Double(notesTop) - spare).rounded(.down))..<Int((Double(notesBottom + drumStripHeight) + spare).rounded(.up))
            let lying = tiles.markedColumnRuns(inRows: rows).map { columns in
                part(
                    begunBy: seconds + (Double(columns.upperBound) + spare - Double(playheadX)) / perSecond - future,
                    lastingUntil: seconds + (Double(columns.lowerBound) - spare - longest - Double(playheadX)) / perSecond + past)
            }
            return scene.index.indices(inAnyOf: [live] + lying)
        default:
            return visible.at(seconds, in: scene.index)
        }
    }

    /// Whether a note has shapes at the playhead at `seconds`: it sounds (its glow, its key), or
    /// a drum hit flashes there.
    private func isLive(_ note: Note, until soundingEnd: Double, at seconds: Double) -> Bool {
        note.startSeconds <= seconds && (seconds < max(note.endSeconds, soundingEnd) || seconds - note.startSeconds < scene.settings.drumSeconds)
    }

    /// Where a note's shapes may lie at `seconds` (its bar, what the pedal holds, a drum hit, its
    /// name), two pixels to spare: worked out without the grid, which moves them less than that;
    /// a name's letters may stand out of its bar by up to a text's height on every side (whether
    /// a name fits is estimated, not measured).
    private func region(of note: Note, until soundingEnd: Double, at seconds: Double) -> Rect {
        let left = playheadX + Float((note.startSeconds - seconds) * Double(pixelsPerSecond))
        let length = Float(max(note.endSeconds - note.startSeconds, Self.shortestNoteSeconds) * Double(pixelsPerSecond))
        let drawn = max(length, Self.narrowestNotePixels, drumStripHeight, Float(0.05) * pixelsPerSecond)
        let held = playheadX + Float((soundingEnd - seconds) * Double(pixelsPerSecond))
        let right = max(left + drawn, held)
        let (top, bottom) =
            note.channel == Scene.drumChannel ? (notesBottom, notesBottom + drumStripHeight) : (rowTop(Int(note.pitch)), rowTop(Int(note.pitch)) + rowHeight)
        let spare = 2 + (scene.labeler.isOn ? scene.labeler.pixels : 0)
        // A bar, what the pedal holds and a drum hit draw nothing left of the notes' area (a
        // name may); a region under the keys is empty.
        let regionLeft = scene.labeler.isOn ? left - spare : max(left - spare, notesLeft)
        return Rect(x: regionLeft, y: top - spare, width: max(0, right + spare - regionLeft), height: bottom - top + 2 * spare)
    }

    /// The notes' shapes that differ at `seconds` from those at `earlier` moved `shift` pixels
    /// left: `new` gets those at `seconds`, `old` those at `earlier` (not moved), of every note
    /// that came into view or left it, or is not `isMoved`. Every other note's shapes are the
    /// same moved by exactly `shift` pixels (checked on the grid), as far as the notes' area
    /// shows them. False when that cannot be told (going back, not moving, or not by the
    /// frames' places apart).
    func appendMovingChanges(
        from earlier: Double, to seconds: Double, shift: Int, visible: inout VisibleNotes, new: inout [Shape], old: inout [Shape]
    ) -> Bool {
        guard earlier < seconds, shift > 0, gridPlace(seconds) - gridPlace(earlier) == Double(256 * shift) else { return false }
        let candidates = movingCandidates(from: earlier, to: seconds, shift: shift, visible: &visible)
        let notes = scene.song.notes
        let span = Self.visibleSpan(settings: scene.settings)
        func appendNoteShapes(_ index: Int, at moment: Double, to shapes: inout [Shape]) {
            let note = notes[index]
            if note.channel == Scene.drumChannel {
                appendDrumHit(note, at: moment, to: &shapes)
                return
            }
            let soundingEnd = scene.soundingEnd(index)
            if soundingEnd > note.endSeconds { appendSustain(note, until: soundingEnd, at: moment, to: &shapes) }
            appendNote(note, at: moment, to: &shapes)
        }
        for index in candidates.now {
            let soundingEnd = scene.soundingEnd(index)
            guard span(notes[index], soundingEnd).from > earlier || !isMoved(notes[index], until: soundingEnd, from: earlier, to: seconds, shift: shift)
            else { continue }
            appendNoteShapes(index, at: seconds, to: &new)
            appendNoteShapes(index, at: earlier, to: &old)
        }
        // Those that left the view: gone under the keys, moved (nothing of them shows now), or not.
        for index in candidates.before {
            let note = notes[index], soundingEnd = scene.soundingEnd(index)
            guard span(note, soundingEnd).until < seconds else { continue }
            let isGone =
                note.channel != Scene.drumChannel && isMoved(note, until: soundingEnd, from: earlier, to: seconds, shift: shift)
                && shownPart(of: noteRect(note, now: seconds)) == nil
            if !isGone { appendNoteShapes(index, at: earlier, to: &old) }
        }
        return true
    }

    /// The notes `appendMovingChanges` goes through, in the order they came into view: those
    /// visible at `seconds` (`now`) and at `earlier` (`before`, for those that left the view).
    /// All of them, unless names, `--velocity` and the pedal's holds are off and every bar and
    /// drum hit is drawn on the grid: then, as everything moves by the frames' places apart
    /// (`x(of:now:)`), only the notes whose shapes a move can change: those that sounded (or
    /// flashed) between the two moments, came in at the right, lie at the keys or far beyond
    /// the right edge (a bar too long for the grid), or left the view (`isMoved` then tells).
    func movingCandidates(from earlier: Double, to seconds: Double, shift: Int, visible: inout VisibleNotes) -> (now: [Int], before: [Int]) {
        let perSecond = Double(pixelsPerSecond)
        let (size, length, radius) = drumHit
        let barsMove = Shape.isOnGrid(2 * noteRadius) && (barRoom / 2 >= noteRadius || Shape.isOnGrid(barRoom))
        let hitsMove =
            !scene.hasDrums || Shape.moved(Rect(x: 0, y: 0, width: length, height: size), radius: radius, by: Shape.Offset(dx: -shift, dy: 0)) != nil
        guard perSecond > 0, !scene.labeler.isOn, !scene.settings.velocity, scene.soundingEnds == nil, barsMove, hitsMove else {
            return (visible.at(seconds, in: scene.index), visible.at(earlier, in: scene.index))
        }
        // The index's `from` is a note's start less `future`; its `until` at least its end
        // plus `past`. Some room for rounding, and for a drum hit's length at the edges.
        let (past, future) = Self.reach(settings: scene.settings)
        let slack = 1e-6, margin = 4 + Double(length)
        /// The moment whose place is column `x` when the playhead is at `now`.
        func moment(atColumn x: Double, _ now: Double) -> Double { now + (x - Double(playheadX)) / perSecond }
        /// Of the notes visible at `seconds`.
        func shown(begunAfter: Double = -.infinity, begunBy: Double, lastingUntil: Double) -> NoteIndex.Part {
            NoteIndex.Part(begunAfter: begunAfter, begunBy: min(seconds, begunBy + slack), lastingUntil: max(seconds, lastingUntil - slack))
        }
        let flash = scene.hasDrums ? scene.settings.drumSeconds : 0
        let sounded = shown(begunBy: seconds - future, lastingUntil: earlier - flash + past)
        let atKeys = shown(begunBy: moment(atColumn: Double(notesLeft) + margin, seconds) - future, lastingUntil: seconds)
        let cameIn = shown(begunAfter: moment(atColumn: Double(width) - margin, earlier) - future - slack, begunBy: seconds, lastingUntil: seconds)
        let beyond = shown(begunBy: seconds, lastingUntil: moment(atColumn: Double(width) + 256, seconds) + past)
        // Gone by `seconds`: begun `past` before it at least, visible at `earlier`.
        let gone = NoteIndex.Part(begunBy: min(earlier, seconds - past - future + slack), lastingUntil: earlier)
        return (scene.index.indices(inAnyOf: [sounded, atKeys, cameIn, beyond]), scene.index.indices(inAnyOf: [gone]))
    }

    /// Whether a note's shapes at `seconds` are those at `earlier` moved `shift` pixels left,
    /// as far as the notes' area shows them: the same colours (not live at either moment, not
    /// started or stopped in between), every edge moved exactly `shift` pixels on the grid
    /// (`Shape.moved`), not shown at `seconds` unless shown at `earlier` (a bar gone under the
    /// keys left its pixels there, moved); with names on the notes, or what the pedal holds,
    /// nothing cut at either end of the area at either moment.
    func isMoved(_ note: Note, until soundingEnd: Double, from earlier: Double, to seconds: Double, shift: Int) -> Bool {
        let move = Float(shift), offset = Shape.Offset(dx: -shift, dy: 0)
        /// Whether the x of `moment` moves exactly, and lies within `bounds` at both moments.
        func movesWithin(_ moment: Double, _ bounds: ClosedRange<Float>) -> Bool {
            let now = x(of: moment, now: seconds), before = x(of: moment, now: earlier)
            return now == before - move && bounds.contains(now) && bounds.contains(before)
        }
        let start = note.startSeconds
        if note.channel == Scene.drumChannel {
            // Not yet struck at `seconds`, or done flashing by `earlier` (as `appendDrumHit` tells).
            guard start > seconds || !(earlier - start < scene.settings.drumSeconds) else { return false }
            let (size, length, radius) = drumHit
            let hit = Rect(x: x(of: start, now: earlier), y: 0, width: length, height: size)
            return movesWithin(start, notesLeft...(width - length)) && Shape.moved(hit, radius: radius, by: offset) != nil
        }
        guard scene.pitchRange.contains(Int(note.pitch)) else { return true }
        // Coming at both moments, or played at both, as `appendNote` tells (a note sounding has
        // its glow at the playhead).
        func isPlayed(at moment: Double) -> Bool { moment >= note.endSeconds }
        func isComing(at moment: Double) -> Bool { !isPlayed(at: moment) && !(moment >= start) }
        guard (isComing(at: earlier) && isComing(at: seconds)) || (isPlayed(at: earlier) && isPlayed(at: seconds)) else { return false }
        // Only the bar's columns matter (and its size, for its corners): it moves along its row.
        let length = barLength(note), height = barHeight(note)
        let before = Rect(x: x(of: start, now: earlier), y: 0, width: length, height: height)
        let now = Rect(x: x(of: start, now: seconds), y: 0, width: length, height: height)
        guard now.minX == before.minX - move, Shape.moved(before, radius: noteRadius, by: offset) != nil else { return false }
        func isWhole(_ rect: Rect) -> Bool { rect.minX >= notesLeft && rect.maxX <= width }
        // A name sits at the start of the bar's shown part.
        if scene.labeler.isOn {
            guard isWhole(before) && isWhole(now) else { return false }
        } else {
            guard shownPart(of: now) == nil || shownPart(of: before) != nil else { return false }
        }
        guard soundingEnd > note.endSeconds else { return true }
        return movesWithin(note.endSeconds, notesLeft...width) && movesWithin(soundingEnd, notesLeft...width)
    }

    /// How long the playhead flashes where a note starts (`--effects`).
    static let flashSeconds = 0.2

    /// How strongly the playhead flashes for `note` at `seconds` (`--effects`): 1 as it
    /// starts, 0 after `flashSeconds`.
    private func flashStrength(_ note: Note, at seconds: Double) -> Float {
        let since = seconds - note.startSeconds
        guard since >= 0, since < Self.flashSeconds else { return 0 }
        let remaining = Float(1 - since / Self.flashSeconds)
        return remaining * remaining * NoteColors.intensity(note.velocity)
    }

    /// `--effects`: the playhead flashes white over a note's row as it starts (its glow flares
    /// too, in `appendNote`), and sparks fly back from it.
    private func appendStrike(_ note: Note, at seconds: Double, sparks: Int, to shapes: inout [Shape]) {
        let centerY = rowTop(Int(note.pitch)) + rowHeight / 2
        let flash = flashStrength(note, at: seconds)
        if flash > 0 {
            let reach = max(rowHeight * 2, height * 0.02)
            shapes.append(
                .line(
                    from: Point(playheadX, centerY - reach), to: Point(playheadX, centerY + reach), lineWidth: 3,
                    RGBA(1, 1, 1, flash)))
        }
        let burst = Sparks.Burst(
            origin: Point(playheadX, centerY), direction: Point(-1, 0), spread: 0.9, speed: height * 0.35,
            gravity: height * 0.8, lineWidth: max(2, height * 0.003))
        Sparks.append(for: note, at: seconds, burst: burst, color: scene.colors.color(of: note), most: sparks, to: &shapes)
    }

    /// The pedal lane under the notes: a bar wherever a sustain or sostenuto pedal is down.
    private func appendPedalLane(at seconds: Double, to shapes: inout [Shape]) {
        let top = notesBottom + drumStripHeight + 1, bottom = pedalLaneBottom
        guard bottom - top >= 2 else { return }
        let accent = scene.settings.scheme.accent
        func append(_ spans: [SustainPedal.Span]) {
            for span in spans {
                let left = max(x(of: span.down, now: seconds), notesLeft), right = min(x(of: span.up, now: seconds), width)
                if left > width { break }  // by `down`: the rest start later still
                guard right - left >= 1 else { continue }
                shapes.append(.rect(Rect(x: left, y: top, width: right - left, height: bottom - top), accent.withAlpha(0.45)))
            }
        }
        append(scene.pedal.sustain)
        append(scene.pedal.sostenuto)
    }

    /// What the pedal holds after a note's release: a fainter, thinner bar from its end to the
    /// pedal's lift.
    private func appendSustain(_ note: Note, until end: Double, at seconds: Double, to shapes: inout [Shape]) {
        guard scene.pitchRange.contains(Int(note.pitch)) else { return }
        let full = noteRect(note, now: seconds)
        let left = max(x(of: note.endSeconds, now: seconds), notesLeft), right = min(x(of: end, now: seconds), width)
        guard right - left >= 1 else { return }
        let inset = full.height * 0.3
        shapes.append(
            .rect(
                Rect(x: left, y: full.minY + inset, width: right - left, height: full.height - 2 * inset),
                scene.colors.color(of: note).scaled(scene.colors.brightness(note.velocity)).withAlpha(0.3)))
    }

    /// A note's bar: whole, its part under the side keyboard hidden and the canvas cutting it at
    /// the right, so that it looks the same moved (as the roll moves, it slides under the keys);
    /// cut to the notes' area when the roll is turned by `--direction`.
    private func bar(_ full: Rect, visible rect: Rect, top: RGBA, bottom: RGBA) -> Shape {
        guard scene.layoutTransform == nil else { return .roundedRect(rect, radius: noteRadius, top: top, bottom: bottom) }
        guard full.minX < notesLeft else { return .roundedRect(full, radius: noteRadius, top: top, bottom: bottom) }
        let keys = PixelBox(rows: 0..<Int(height), columns: 0..<Int(notesLeft))
        return .partlyHiddenRoundedRect(full, radius: noteRadius, top: top, bottom: bottom, hidden: keys)
    }

    /// The part of a note's bar the notes' area shows; nil when none of it does. A sliver is
    /// shown, as the bar drawn whole and hidden under the keys shows it: a note sliding under
    /// them draws what it drew a frame before, moved, until it is gone.
    private func shownPart(of full: Rect) -> Rect? {
        let left = max(full.minX, notesLeft), right = min(full.maxX, width)
        guard right > left else { return nil }
        return Rect(x: left, y: full.minY, width: right - left, height: full.height)
    }

    private func appendNote(_ note: Note, at seconds: Double, to shapes: inout [Shape]) {
        guard scene.pitchRange.contains(Int(note.pitch)) else { return }
        let full = noteRect(note, now: seconds)
        guard let rect = shownPart(of: full) else { return }
        let base = scene.colors.color(of: note).scaled(scene.colors.brightness(note.velocity))
        let white = RGBA(1, 1, 1)
        let fill: RGBA
        if seconds >= note.endSeconds {
            // Played: dimmed.
            fill = base.scaled(0.38).withAlpha(0.75)
            shapes.append(bar(full, visible: rect, top: base.scaled(0.5).withAlpha(0.75), bottom: fill))
        } else if seconds >= note.startSeconds {
            // Sounding: lit, with a glow where it crosses the playhead.
            let centre = Point(playheadX, rect.minY + rect.height / 2)
            // With `--effects` the glow flares as the note starts: the playhead's flash.
            let flash = scene.settings.effects ? flashStrength(note, at: seconds) : 0
            shapes.append(
                .glow(
                    center: centre, radius: max(rowHeight * 2.2, height * 0.018) * (1 + 0.6 * flash), hole: 0,
                    base.mixed(with: white, 0.6 * flash).withAlpha(0.5 * NoteColors.intensity(note.velocity) + 0.5 * flash)))
            fill = base.mixed(with: white, 0.2)
            shapes.append(bar(full, visible: rect, top: base.mixed(with: white, 0.5), bottom: fill))
        } else {
            fill = base.scaled(0.78).withAlpha(0.95)
            shapes.append(bar(full, visible: rect, top: base.mixed(with: white, 0.12).withAlpha(0.95), bottom: fill))
        }
        // The name at the note's visible start, when the row and the note are large enough.
        let pad = max(2, scene.labeler.pixels * 0.3)
        guard scene.labeler.isOn, rect.height >= scene.labeler.capHeight * 1.3,
            let label = scene.labeler.label(note.pitch, at: note.startSeconds, room: rect.width - 2 * pad)
        else { return }
        let ink = NoteLabeler.ink(on: fill.withAlpha(1), alpha: seconds >= note.endSeconds ? 0.6 : 0.92)
        shapes.append(.text(label, .small, center: Point(rect.minX + pad, rect.minY + rect.height / 2), ink, alignment: .left))
    }

    /// A drum hit's height, its length along the time and its corner radius: the length and
    /// the radius on the grid, so that a hit moved by whole pixels draws the same pixels moved
    /// (`Shape.moved`).
    private var drumHit: (size: Float, length: Float, radius: Float) {
        let size = max(3, drumStripHeight / Float(DrumLane.slotCount) * 0.75)
        return (size, Shape.onGrid(Double(max(size, Float(0.05) * pixelsPerSecond))), Shape.onGrid(Double(size * 0.3)))
    }

    private func appendDrumHit(_ note: Note, at seconds: Double, to shapes: inout [Shape]) {
        let lane = Float(DrumLane.slot(ofKey: note.pitch))
        let laneHeight = drumStripHeight / Float(DrumLane.slotCount)
        let x = x(of: note.startSeconds, now: seconds)
        let (size, length, radius) = drumHit
        let left = max(notesLeft, x), right = min(width, x + length)
        guard right - left >= 1 else { return }
        let center = Point(x, notesBottom + laneHeight * (lane + 0.5))
        let accent = scene.settings.scheme.accent
        let velocity = Float(note.velocity) / 127
        let since = seconds - note.startSeconds
        let alpha: Float
        if since < 0 {
            alpha = 0.35 + 0.35 * velocity
        } else if since < scene.settings.drumSeconds {
            let remaining = Float(1 - since / scene.settings.drumSeconds)
            shapes.append(.glow(center: Point(playheadX, center.y), radius: laneHeight * 2.5, hole: 0, accent.withAlpha(0.35 * remaining * velocity)))
            alpha = 0.7 + 0.3 * remaining
        } else {
            alpha = 0.22
        }
        shapes.append(
            .roundedRect(
                Rect(x: left, y: center.y - size / 2, width: right - left, height: size), radius: radius,
                top: accent.withAlpha(alpha), bottom: accent.scaled(0.8).withAlpha(alpha)))
    }

    /// Lit keys over the keyboard (`PianoKeys.keysToRedraw`), with their octave names, or with
    /// `--labels` their names.
    private func appendLitKeys(_ litKeys: LitKeys, to shapes: inout [Shape]) {
        let lit = litKeys.colors
        for pitch in PianoKeys.keysToRedraw(in: keyboardKeys, lit: lit) { appendKey(pitch, lit: lit[pitch], to: &shapes) }
        guard scene.labeler.isOn else {
            for pitch in scene.pitchRange where pitch % 12 == 0 && lit[pitch] != nil { appendOctaveName(pitch, to: &shapes) }
            return
        }
        for pitch in scene.pitchRange {
            guard let color = lit[pitch] else { continue }
            let extent = keyExtent(pitch)
            guard extent.bottom - extent.top >= scene.labeler.capHeight * 1.3 else { continue }
            let black = PianoKeys.isBlack(pitch)
            let right = (black ? blackKeyLength : keyboardWidth) - keyboardWidth * 0.08
            guard let label = scene.labeler.label(UInt8(pitch), at: litKeys.starts[pitch], room: right - keyboardWidth * 0.1) else { continue }
            shapes.append(
                .text(
                    label, .small, center: Point(right, (extent.top + extent.bottom) / 2),
                    NoteLabeler.ink(on: KeyShading.colors(black: black, lit: color).face), alignment: .right))
        }
    }
}

extension RenderSettings.Style {
    public static let roll = Self(registered: RollLayout.self)
}
