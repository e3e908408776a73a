/// `keyboard`: notes fall onto a piano at the bottom. A note's bottom edge reaches the keys at
/// the moment it starts sounding and its top edge when it ends; while it sounds its key is lit
/// in its colour and a glow flares where it struck. The piano has 88 keys or the song's range
/// in whole octaves (`--keys`); faint lines mark each C, and bar lines fall with the notes.
/// Drums go to the drum lane at the top.
struct KeyboardLayout: StyleLayout {
    static let name = "keyboard"
    static let helpText = "keyboard (notes falling onto a piano)"
    static let defaultWindowSeconds = 3.0
    static let scrolls = true
    static let lyricsNearTop = true
    static let travel: RenderSettings.Direction? = .down

    static func secondsOnScreenBeforeStart(settings: RenderSettings) -> Double { settings.windowSeconds }

    /// A note comes in at the top and has gone once it has sunk into the keys and its glow and
    /// sparks are over; a drum hit briefly.
    static func visibleSpan(settings: RenderSettings) -> (Note, Double) -> (from: Double, until: Double) {
        let window = settings.windowSeconds, drum = settings.drumSeconds
        let shortest = shortestNoteFallSeconds(settings: settings)
        let sparks = settings.effects ? Sparks.lifeSeconds : 0
        return { note, soundingEnd in
            (
                note.startSeconds - window,
                note.channel == Scene.drumChannel
                    ? note.startSeconds + drum
                    : max(soundingEnd, note.startSeconds + max(impactSeconds, sparks), note.startSeconds + shortest)
            )
        }
    }

    let scene: Scene

    /// How long the glow of a struck key lasts.
    static let impactSeconds = 0.35
    /// Notes shorter than this are drawn this long, and never shorter than `shortestNotePixels`.
    static let shortestNoteSeconds = 0.04
    static let shortestNotePixels: Float = 4

    // Geometry, worked out once per layout (frames build one layout each).
    private let width: Float
    private let height: Float
    /// The keys drawn: A0–C8, whole octaves (at least two) around the song's notes, or two keys'
    /// range (`--keys C2-C7`).
    let keys: ClosedRange<Int>
    private let firstWhite: Int
    let whiteKeyWidth: Float
    let whiteKeyLength: Float
    let feltHeight: Float
    /// Where notes land: the top of the keyboard.
    let keysTop: Float
    /// Where notes come in: the top of the notes' area, under the overlays' bands.
    let notesTop: Float
    /// Notes are clipped this far above the frame (or at the notes' area under a header); on a
    /// layer they are drawn whole.
    private let clipTop: Float
    let pixelsPerSecond: Float
    /// Whether the falling notes move by whole pixels on a layer of their own (`ScrollArea`):
    /// in a dense song (`Scene.isDense`), when a speed of whole or half pixels a frame is
    /// within `ScrollArea.mostSnapped` above `--window`'s (never slower: a note is on screen no
    /// longer than the window). Their vertical coordinates then lie on the grid of
    /// `Shape.shifted(by:)`.
    let movesOnLayer: Bool

    init(scene: Scene) {
        self.scene = scene
        width = Float(scene.settings.width)
        height = Float(scene.settings.height)
        keys = Self.keys(scene.settings.keys, notePitches: scene.notePitches)
        firstWhite = PianoKeys.whiteKeyIndex(keys.lowerBound)
        whiteKeyWidth = width / Float(PianoKeys.whiteKeyIndex(keys.upperBound) - firstWhite + 1)
        whiteKeyLength = min(height * 0.2, whiteKeyWidth * 6.4).rounded()
        feltHeight = Self.feltHeight(canvasHeight: height)
        keysTop = scene.bands.notesBottom - whiteKeyLength - feltHeight
        notesTop = scene.bands.notesTop
        clipTop = notesTop > 0 ? notesTop : -2
        let asked = (keysTop - notesTop) / Float(scene.settings.windowSeconds)
        // Not when `--direction` turns or mirrors the layout: no layer then (`Scene.scrollArea`).
        let layered = scene.isDense && scene.layoutTransform == nil
        let fps = scene.settings.frameRate.perSecond
        let snapped = layered ? ScrollArea.wholeOrHalfPixels(Double(asked) / fps, .up).map { $0 * fps } : nil
        pixelsPerSecond = snapped.map { Float($0) } ?? asked
        movesOnLayer = snapped != nil
    }

    /// How far `seconds` of music fall, in pixels: on the grid when the notes move on a layer.
    private func fall(_ seconds: Double) -> Float {
        movesOnLayer ? Shape.onGrid(seconds * Double(pixelsPerSecond)) : Float(seconds) * pixelsPerSecond
    }

    /// How far the moment `moment` has yet to fall at `now`, in pixels. On a layer, the
    /// distance between the two moments' places on the grid (`gridPlace`): from one frame to
    /// another every note moves by the same pixels, the frames' places apart.
    private func fall(to moment: Double, from now: Double) -> Float {
        guard movesOnLayer else { return fall(moment - now) }
        return Float((gridPlace(moment) - gridPlace(now)) / 256)
    }

    /// Where a moment lies along the fall on a layer, in 256ths of a pixel.
    private func gridPlace(_ seconds: Double) -> Double { (seconds * Double(pixelsPerSecond) * 256).rounded() }

    /// `pixels` on the grid when the notes move on a layer.
    private func along(_ pixels: Float) -> Float { movesOnLayer ? Shape.onGrid(Double(pixels)) : pixels }

    /// The layer the notes fall on, when they move on one: the notes' area shows it.
    var scrollArea: ScrollArea? {
        guard movesOnLayer else { return nil }
        let top = max(0, Int(notesTop.rounded())), bottom = min(Int(height), Int(keysTop.rounded()))
        guard bottom > top else { return nil }
        return ScrollArea(showing: top..<bottom, width: Int(width), height: Int(height), pixelsPerSecond: Double(pixelsPerSecond))
    }

    /// The keys' lower edge: the frame's, or the lyrics band's top.
    private var keysBottom: Float { scene.bands.notesBottom }

    static func feltHeight(canvasHeight: Float) -> Float { max(2, (canvasHeight * 0.005).rounded()) }

    /// How long after its start the shortest drawn note takes to sink into the keys, at most
    /// (the keys are at most a fifth of the height, and the overlays' bands take less than
    /// half of it).
    static func shortestNoteFallSeconds(settings: RenderSettings) -> Double {
        let height = Float(settings.height)
        let shortestFall = height * 0.3 - feltHeight(canvasHeight: height)
        return Double(shortestNotePixels / max(1, shortestFall)) * settings.windowSeconds
    }

    static func keys(_ range: RenderSettings.KeyRange, notePitches: ClosedRange<Int>) -> ClosedRange<Int> {
        switch range {
        case .span:
            return range.span ?? PianoKeys.eightyEight
        case .piano:
            return PianoKeys.eightyEight
        case .song:
            var keys = PianoKeys.wholeOctaves(around: notePitches)
            // An octave more above (below at the top of the MIDI range) until there are two.
            while keys.count < 24 {
                keys = keys.upperBound + 12 <= 127 ? keys.lowerBound...(keys.upperBound + 12) : (keys.lowerBound - 12)...keys.upperBound
            }
            return keys
        }
    }

    /// The left and right of a key.
    func keySpan(_ pitch: Int) -> (left: Float, right: Float) {
        let span = PianoKeys.whiteKeySpan(pitch)
        return ((span.lower - Float(firstWhite)) * whiteKeyWidth, (span.upper - Float(firstWhite)) * whiteKeyWidth)
    }

    /// How long a note's falling bar is, before the gap pulls its top edge in.
    private func noteLength(_ note: Note) -> Float {
        max(fall(max(note.endSeconds - note.startSeconds, Self.shortestNoteSeconds)), Self.shortestNotePixels)
    }

    /// The falling bar of `note` at `now`, before clipping at the keys.
    func noteRect(_ note: Note, now: Double) -> Rect {
        let span = keySpan(Int(note.pitch))
        let inset = PianoKeys.isBlack(Int(note.pitch)) ? 0 : max(1, whiteKeyWidth * 0.06)
        let bottom = keysTop - fall(to: note.startSeconds, from: now)
        let length = noteLength(note)
        // A repeated note stands apart from the one before it: its top edge is pulled in a little.
        let gap = along(min(2, length * 0.2))
        let width = span.right - span.left - 2 * inset
        let thickness = scene.colors.thickness(note.velocity)
        // `--velocity`: a softer note is a narrower bar, centred on its key.
        let rect =
            thickness < 1
            ? Rect(x: span.left + inset + width * (1 - thickness) / 2, y: bottom - length + gap, width: width * thickness, height: length - gap)
            : Rect(x: span.left + inset, y: bottom - length + gap, width: width, height: length - gap)
        guard movesOnLayer else { return rect }
        // On a layer (a dense song), on whole pixels across: a later note on the key covers
        // every pixel of the rows it hides, sides and all (`Occlusion`).
        let left = rect.minX.rounded(), right = max(left + 1, rect.maxX.rounded())
        return Rect(x: left, y: rect.minY, width: right - left, height: rect.height)
    }

    // MARK: backdrop

    func appendBackdrop(to shapes: inout [Shape]) {
        let accent = scene.settings.scheme.accent
        for pitch in keys where pitch % 12 == 0 || (scene.settings.grid && pitch % 12 == 5) {
            let x = keySpan(pitch).left.rounded()
            shapes.append(.line(from: Point(x, notesTop), to: Point(x, keysTop), lineWidth: 1, accent.withAlpha(pitch % 12 == 0 ? 0.08 : 0.04)))
        }
        shapes.append(.rect(Rect(x: 0, y: keysTop, width: width, height: scene.bands.notesBottom - keysTop), KeyShading.bed))
        for pitch in keys where !PianoKeys.isBlack(pitch) { appendKey(pitch, lit: nil, to: &shapes) }
        for pitch in keys where PianoKeys.isBlack(pitch) { appendKey(pitch, lit: nil, to: &shapes) }
        let felt = scene.settings.scheme.color(at: 0.12)
        shapes.append(.rect(Rect(x: 0, y: keysTop, width: width, height: feltHeight), felt.scaled(0.8)))
        for pitch in keys where pitch % 12 == 0 { appendOctaveName(pitch, to: &shapes) }
    }

    /// The octave name on a C key, when the keys are wide enough to read it.
    private func appendOctaveName(_ pitch: Int, to shapes: inout [Shape]) {
        let labelSize = Float(TextSize.small.pixelSize(canvasSide: scene.settings.textSide))
        guard whiteKeyWidth >= labelSize * 1.5 else { return }
        let span = keySpan(pitch)
        shapes.append(
            .text(
                .noteName(UInt8(pitch)), .small, center: Point((span.left + span.right) / 2, keysBottom - whiteKeyLength * 0.14 - labelSize),
                KeyShading.label))
    }

    /// One key, at rest or lit in a note's colour.
    private func appendKey(_ pitch: Int, lit: RGBA?, to shapes: inout [Shape]) {
        let span = keySpan(pitch)
        let black = PianoKeys.isBlack(pitch)
        let top = keysTop + feltHeight
        let length = black ? (whiteKeyLength * PianoKeys.blackKeyLength).rounded() : whiteKeyLength
        let gap: Float = black ? 0 : max(1, (whiteKeyWidth * 0.04).rounded())
        let lip = black ? max(2, (length * 0.08).rounded()) : max(2, (length * 0.05).rounded())
        let colors = KeyShading.colors(black: black, lit: lit)
        let rect = Rect(x: span.left + gap / 2, y: top, width: span.right - span.left - gap, height: length - lip)
        let radius = min(rect.width * 0.12, 3)
        shapes.append(.roundedRect(rect, radius: black ? radius : 0, top: colors.top, bottom: colors.bottom))
        shapes.append(
            .roundedRect(
                Rect(x: rect.minX, y: rect.maxY, width: rect.width, height: lip), radius: radius,
                top: colors.lip, bottom: colors.lip.scaled(0.85)))
    }

    // MARK: frames

    func append(at seconds: Double, to shapes: inout [Shape]) {
        var visible = VisibleNotes()
        _ = append(at: seconds, to: &shapes, layered: false, notes: .all, visible: &visible)
    }

    /// The falling shapes (bar lines, and of the notes `drawn` picks the notes and what the
    /// pedal holds), whole (the layer's rows that show are the notes' area), then the drum
    /// lane, lit keys, glows and sparks.
    func appendLayered(at seconds: Double, notes drawn: NotesDrawn, visible: inout VisibleNotes, to shapes: inout [Shape]) -> Int {
        append(at: seconds, to: &shapes, layered: true, notes: drawn, visible: &visible)
    }

    /// The bar and beat lines falling at `seconds`.
    private func appendBarLines(at seconds: Double, to shapes: inout [Shape]) {
        let accent = scene.settings.scheme.accent
        let window = scene.settings.windowSeconds
        scene.beatGrid.forEachLine(in: seconds...(seconds + window)) { line in
            guard line.isBarStart || scene.settings.grid else { return }
            let y = (keysTop - Float(line.seconds - seconds) * pixelsPerSecond).rounded()
            guard y > notesTop, y < keysTop - 1 else { return }
            shapes.append(.line(from: Point(0, y), to: Point(width, y), lineWidth: 1, accent.withAlpha(line.isBarStart ? 0.10 : 0.04)))
        }
    }

    /// The shapes of the moment `seconds`; `layered`, falling ones first, unclipped (their
    /// count is returned), of the notes `drawn` picks.
    private func append(at seconds: Double, to shapes: inout [Shape], layered: Bool, notes drawn: NotesDrawn, visible: inout VisibleNotes) -> Int {
        let start = shapes.count
        let accent = scene.settings.scheme.accent
        appendBarLines(at: seconds, to: &shapes)
        let notes = scene.song.notes
        let lane = DrumLane(scene: scene, centerY: notesTop + height * 0.07)
        var lit = LitKeys()
        var impacts: [(pitch: Int, strength: Float, color: RGBA)] = []
        var sparks: [(note: Note, color: RGBA)] = []
        // On a layer the drums are drawn over the falling notes.
        var drums: [Shape] = []
        for index in candidates(at: seconds, for: drawn, layered: layered, visible: &visible) {
            let note = notes[index]
            if note.channel == Scene.drumChannel {
                if layered { lane.append(note, index: index, at: seconds, to: &drums) } else { lane.append(note, index: index, at: seconds, to: &shapes) }
                continue
            }
            guard keys.contains(Int(note.pitch)) else { continue }
            let color = scene.colors.color(of: note)
            let soundingEnd = scene.soundingEnd(index)
            if drawn.draws(
                region: { fallingRegion(note, until: soundingEnd, at: seconds) },
                live: { note.startSeconds <= seconds && seconds < soundingEnd })
            {
                appendFalling(note, color: color, soundingEnd: soundingEnd, at: seconds, whole: layered, to: &shapes)
            }
            guard note.startSeconds <= seconds else { continue }
            let since = seconds - note.startSeconds
            if scene.settings.effects, Sparks.isLive(note, at: seconds) { sparks.append((note, color)) }
            if since < Self.impactSeconds {
                let remaining = Float(1 - since / Self.impactSeconds)
                impacts.append((Int(note.pitch), remaining * remaining * NoteColors.intensity(note.velocity), color))
            }
            if note.endSeconds > seconds {
                lit.light(Int(note.pitch), color, velocity: note.velocity, start: note.startSeconds)
            } else if soundingEnd > seconds {
                // Released under the pedal: still sounding, lit dimmer (a held note outshines it).
                lit.light(Int(note.pitch), color.scaled(0.55), velocity: note.velocity / 2, start: note.startSeconds)
            }
        }
        let falling = shapes.count - start
        shapes.append(contentsOf: drums)
        if scene.pedal.isDown(at: seconds) {
            // The felt between the notes and the keys lights while a pedal is down.
            shapes.append(.rect(Rect(x: 0, y: keysTop, width: width, height: feltHeight), accent.withAlpha(0.9)))
        }
        appendLitKeys(lit, to: &shapes)
        // A key's glows share a centre and radius: where `GlowBudget` will keep only its last
        // few (it limits frames of at least `Occlusion.fewestShapes` shapes, and those it sees
        // already number that many), the others are not made: a dense song strikes a key
        // dozens of times while a glow lasts.
        var glowsLeft = [Int](repeating: GlowBudget.perCentre, count: 256)
        var kept = [Bool](repeating: false, count: impacts.count)
        var keptCount = 0
        for index in impacts.indices.reversed() where glowsLeft[impacts[index].pitch] > 0 {
            glowsLeft[impacts[index].pitch] -= 1
            kept[index] = true
            keptCount += 1
        }
        let budgeted = shapes.count - (layered ? start + falling : 0) + keptCount >= Occlusion.fewestShapes
        // In a dense song a key's kept glows are drawn as one (`GlowBudget.Stack`), where its last is.
        let stacks = scene.isDense && budgeted
        var stacked = stacks ? [GlowBudget.Stack](repeating: GlowBudget.Stack(), count: 256) : []
        var lastKept = stacks ? [Int](repeating: -1, count: 256) : []
        if stacks { for index in impacts.indices where kept[index] { lastKept[impacts[index].pitch] = index } }
        for (index, impact) in impacts.enumerated() where kept[index] || !budgeted {
            var color = impact.color.mixed(with: RGBA(1, 1, 1), 0.3).withAlpha(0.7 * impact.strength)
            if stacks {
                stacked[impact.pitch].add(color)
                guard lastKept[impact.pitch] == index else { continue }
                color = stacked[impact.pitch].color
            }
            let span = keySpan(impact.pitch)
            shapes.append(
                .glow(
                    center: Point((span.left + span.right) / 2, keysTop), radius: max(whiteKeyWidth * 1.6, height * 0.025), hole: 0, color))
        }
        let (sparking, share) = Sparks.chosen(sparks)
        for spark in sparking {
            let span = keySpan(Int(spark.note.pitch))
            let burst = Sparks.Burst(
                origin: Point((span.left + span.right) / 2, keysTop), direction: Point(0, -1), spread: 0.8,
                speed: height * 0.8, gravity: height * 2.0, lineWidth: max(2, height * 0.003))
            Sparks.append(for: spark.note, at: seconds, burst: burst, color: spark.color, most: share, to: &shapes)
        }
        return layered ? falling : 0
    }

    /// Appends the falling shapes at `seconds` that differ from those at `earlier` moved down
    /// `shift` pixels: those of the notes that came into view or left it, or started or
    /// stopped sounding (their colour) in between, and the bar lines that came or went (both
    /// where they were and where they are). Everywhere else the layer at `seconds` is the one at
    /// `earlier` moved: a note moves by exactly the layer's pixels (`fall(to:from:)`, checked) and
    /// `Occlusion` leaves out only what could not show, so a note looks the same whatever comes
    /// and goes around it. False when that cannot be told (then nothing is appended).
    func appendLayerChanges(from earlier: Double, to seconds: Double, shift: Int, visible: inout VisibleNotes, to shapes: inout [Shape]) -> Bool {
        // The notes move by the frames' places apart: the layer's move only when that is exactly
        // `shift` pixels (at 29.97 fps the speed is not a whole number of 256ths a frame, and
        // now and then a frame's place is one 256th off).
        guard movesOnLayer, earlier <= seconds, gridPlace(seconds) - gridPlace(earlier) == Double(256 * shift) else { return false }
        var before: [Shape] = [], after: [Shape] = []
        appendBarLines(at: earlier, to: &before)
        appendBarLines(at: seconds, to: &after)
        var moved: [Shape] = []
        for line in before {
            guard let line = line.shifted(by: Shape.Offset(dx: 0, dy: shift)) else { return false }
            moved.append(line)
        }
        shapes.append(contentsOf: moved.filter { !after.contains($0) })
        shapes.append(contentsOf: after.filter { !moved.contains($0) })
        let notes = scene.song.notes
        let span = Self.visibleSpan(settings: scene.settings)
        func isBetween(_ moment: Double) -> Bool { earlier < moment && moment <= seconds }
        func appendChanged(_ index: Int, _ note: Note) {
            guard note.channel != Scene.drumChannel, keys.contains(Int(note.pitch)) else { return }
            appendFalling(note, color: scene.colors.color(of: note), soundingEnd: scene.soundingEnd(index), at: seconds, whole: true, to: &shapes)
        }
        for index in visible.at(seconds, in: scene.index) {
            let note = notes[index]
            if isBetween(note.startSeconds) || isBetween(note.endSeconds) || isBetween(span(note, scene.soundingEnd(index)).from) {
                appendChanged(index, note)
            }
        }
        for index in visible.at(earlier, in: scene.index) {
            let note = notes[index]
            if span(note, scene.soundingEnd(index)).until < seconds { appendChanged(index, note) }
        }
        return true
    }

    /// A note's falling shapes: what the pedal holds after it, the note, its name.
    private func appendFalling(_ note: Note, color: RGBA, soundingEnd: Double, at seconds: Double, whole: Bool, to shapes: inout [Shape]) {
        if soundingEnd > note.endSeconds { appendSustain(note, until: soundingEnd, color: color, at: seconds, whole: whole, to: &shapes) }
        appendNote(note, color: color, at: seconds, whole: whole, to: &shapes)
    }

    /// The visible notes `append` goes through, in the order they came into view: all of them,
    /// or on a layer drawn only where its tiles say (`NotesDrawn.lying`), only those started
    /// (struck, sounding, glowing, sparking, a drum hit flashing in its lane) and those whose
    /// `fallingRegion` may touch a band of marked tiles.
    private func candidates(at seconds: Double, for drawn: NotesDrawn, layered: Bool, visible: inout VisibleNotes) -> [Int] {
        guard layered, movesOnLayer, pixelsPerSecond > 0, case .lying(let tiles?, _) = drawn else {
            return visible.at(seconds, in: scene.index)
        }
        // The index's `from` is a note's start less the window; its `until` is at least its
        // end, what the pedal holds and its shortest bar's top. Some room for rounding.
        let window = scene.settings.windowSeconds, perSecond = Double(pixelsPerSecond), slack = 1e-6
        func part(begunBy: Double, lastingUntil: Double) -> NoteIndex.Part {
            NoteIndex.Part(begunBy: min(seconds, begunBy + slack), lastingUntil: max(seconds, lastingUntil - slack))
        }
        let started = part(begunBy: seconds - window, lastingUntil: seconds)
        // A region's bottom lies at most 2 pixels below its start's place, its top at most 2
        // above its top's: 4 pixels more to spare, and the shortest bar's length.
        let spare = 6.0, below = Double(Self.shortestNotePixels)
        let lying = tiles.markedBandRuns.map { rows in
            part(
                begunBy: seconds + (Double(keysTop) + spare - Double(rows.lowerBound)) / perSecond - window,
                lastingUntil: seconds + (Double(keysTop) - spare - below - Double(rows.upperBound)) / perSecond)
        }
        return scene.index.indices(inAnyOf: [started] + lying)
    }

    /// Where a note's falling shapes (whole: its bar, what the pedal holds, its name) may lie
    /// at `seconds`: its rows with a pixel to spare (a name lies within its bar's rows), its
    /// key's columns with two, and with names a text's height more (whether a name fits is
    /// estimated, not measured).
    private func fallingRegion(_ note: Note, until soundingEnd: Double, at seconds: Double) -> Rect {
        // `noteRect`'s bottom, and its top before the gap pulls it in.
        let landing = keysTop - fall(to: note.startSeconds, from: seconds)
        let top = min(landing - noteLength(note), keysTop - fall(to: soundingEnd, from: seconds)).rounded(.down) - 1
        let bottom = landing.rounded(.up) + 1
        let span = keySpan(Int(note.pitch))
        let spare = 2 + (scene.labeler.isOn ? scene.labeler.pixels : 0)
        return Rect(x: span.left - spare, y: top, width: span.right - span.left + 2 * spare, height: bottom - top)
    }

    /// What the pedal holds after a note's release: a fainter, narrower bar above the note, up
    /// to the pedal's lift; clipped to the notes' area unless `whole`.
    private func appendSustain(_ note: Note, until end: Double, color: RGBA, at seconds: Double, whole: Bool, to shapes: inout [Shape]) {
        let full = noteRect(note, now: seconds)
        let top = whole ? keysTop - fall(to: end, from: seconds) : max(keysTop - fall(to: end, from: seconds), clipTop)
        let bottom = whole ? keysTop - fall(to: note.endSeconds, from: seconds) : min(keysTop - fall(to: note.endSeconds, from: seconds), keysTop)
        guard bottom - top >= 1, top < keysTop else { return }
        let inset = full.width * 0.3
        shapes.append(
            .rect(
                Rect(x: full.minX + inset, y: top, width: full.width - 2 * inset, height: bottom - top),
                color.scaled(scene.colors.brightness(note.velocity)).withAlpha(0.35)))
    }

    /// A falling note, clipped to the notes' area unless `whole`.
    private func appendNote(_ note: Note, color: RGBA, at seconds: Double, whole: Bool, to shapes: inout [Shape]) {
        let full = noteRect(note, now: seconds)
        let top = whole ? full.minY : max(full.minY, clipTop), bottom = whole ? full.maxY : min(full.maxY, keysTop)
        // Whole, once sunk into the keys it shows no more.
        guard bottom - top >= 1, top < keysTop else { return }
        let rect = Rect(x: full.minX, y: top, width: full.width, height: bottom - top)
        let base = color.scaled(scene.colors.brightness(note.velocity))
        let white = RGBA(1, 1, 1)
        let radius = along(min(full.width * 0.25, height * 0.006))
        let sounding = note.startSeconds <= seconds && seconds < note.endSeconds
        let bottomColor = sounding ? base.mixed(with: white, 0.15) : base.scaled(0.72)
        shapes.append(
            .roundedRect(
                rect, radius: radius,
                top: sounding ? base.mixed(with: white, 0.35) : base.mixed(with: white, 0.1),
                bottom: bottomColor))
        // The name near the note's lower edge, the end that lands first.
        let capHeight = scene.labeler.capHeight
        guard scene.labeler.isOn, rect.height >= capHeight * 1.8,
            let label = scene.labeler.label(note.pitch, at: note.startSeconds, room: rect.width - 2)
        else { return }
        let y = rect.maxY - max(2, capHeight * 0.4) - capHeight / 2
        shapes.append(.text(label, .small, center: Point(rect.minX + rect.width / 2, y), NoteLabeler.ink(on: bottomColor)))
    }

    /// Lit keys over the keyboard (`PianoKeys.keysToRedraw`), with their octave names, or
    /// with `--labels` their names.
    private func appendLitKeys(_ litKeys: LitKeys, to shapes: inout [Shape]) {
        let lit = litKeys.colors
        for pitch in PianoKeys.keysToRedraw(in: keys, lit: lit) { appendKey(pitch, lit: lit[pitch], to: &shapes) }
        guard scene.labeler.isOn else {
            for pitch in keys where pitch % 12 == 0 && lit[pitch] != nil { appendOctaveName(pitch, to: &shapes) }
            return
        }
        for pitch in keys {
            guard let color = lit[pitch] else { continue }
            let span = keySpan(pitch)
            let black = PianoKeys.isBlack(pitch)
            guard let label = scene.labeler.label(UInt8(pitch), at: litKeys.starts[pitch], room: span.right - span.left - 2) else { continue }
            let y =
                black
                ? keysTop + feltHeight + (whiteKeyLength * PianoKeys.blackKeyLength).rounded() * 0.72
                : keysBottom - whiteKeyLength * 0.14 - scene.labeler.pixels
            let face = KeyShading.colors(black: black, lit: color).bottom
            shapes.append(.text(label, .small, center: Point((span.left + span.right) / 2, y), NoteLabeler.ink(on: face)))
        }
    }
}

extension RenderSettings.Style {
    public static let keyboard = Self(registered: KeyboardLayout.self)
}
