/// `bars`: one vertical bar per pitch over the song's range (or per pitch class), rising from a
/// baseline to a height set by the loudest sounding note, and sinking as it fades after release.
/// Bars are labelled below the baseline (every bar when there is room, else every C). Drums go to
/// the drum lane at the top.
struct BarsLayout: StyleLayout {
    static let name = "bars"
    static let helpText = "bars"
    static let lyricsNearTop = true

    static func visibleSpan(settings: RenderSettings) -> (Note, Double) -> (from: Double, until: Double) {
        stillNoteSpan(settings: settings)
    }

    let scene: Scene

    private var width: Float { Float(scene.settings.width) }
    private var height: Float { Float(scene.settings.height) }

    private var isPitchClass: Bool { scene.settings.barsLayout == .pitchClass }
    private var barCount: Int { isPitchClass ? 12 : scene.pitchRange.count }
    /// The bars stand on this line, over their labels; the drum lane and the bars' glow keep
    /// 0.16 of the height over them, under the overlays' bands.
    private var baseline: Float { scene.bands.notesBottom == height ? height * 0.86 : scene.bands.notesBottom - height * 0.14 }
    private var maximumHeight: Float { scene.bands.isWholeFrame ? height * 0.70 : baseline - scene.bands.notesTop - height * 0.16 }
    private var slotWidth: Float { width * 0.92 / Float(barCount) }

    func slot(ofPitch pitch: Int) -> Int {
        isPitchClass ? pitch % 12 : pitch - scene.pitchRange.lowerBound
    }

    func centerX(ofSlot slot: Int) -> Float { width * 0.04 + slotWidth * (Float(slot) + 0.5) }

    /// Each bar's level (0...1) and the colour of the note that sets it, at `seconds`.
    func levels(at seconds: Double) -> [(level: Float, color: RGBA, velocity: UInt8)] {
        var bars = [(level: Float, color: RGBA, velocity: UInt8)](repeating: (0, RGBA(0, 0, 0, 0), 0), count: barCount)
        let notes = scene.song.notes
        for index in scene.index.visible(at: seconds) {
            let note = notes[index]
            guard note.channel != Scene.drumChannel else { continue }
            let (age, fade) = scene.envelope(of: index, at: seconds)
            let attack = min(1, age / 0.05)
            let level = (0.3 + 0.7 * Float(note.velocity) / 127) * attack * (1 - fade) * (1 - fade)
            let slot = slot(ofPitch: Int(note.pitch))
            if slot >= 0, slot < bars.count, level > bars[slot].level {
                let color =
                    isPitchClass && scene.settings.colorBy == .pitch
                    ? scene.colors.color(ofPitchClass: slot) : scene.colors.color(of: note)
                bars[slot] = (level, color.scaled(scene.colors.brightness(note.velocity)), note.velocity)
            }
        }
        return bars
    }

    private var barWidth: Float { slotWidth * 0.78 }
    private var cornerRadius: Float { min(barWidth * 0.3, height * 0.008) }

    func appendBackdrop(to shapes: inout [Shape]) {
        let accent = scene.settings.scheme.accent
        if scene.settings.grid {
            for step in 1...4 {
                let y = baseline - maximumHeight * Float(step) / 4
                shapes.append(.line(from: Point(width * 0.04, y), to: Point(width * 0.96, y), lineWidth: 1, accent.withAlpha(0.07)))
            }
        }
        shapes.append(
            .line(
                from: Point(width * 0.04, baseline + 2), to: Point(width * 0.96, baseline + 2), lineWidth: 1.5,
                accent.withAlpha(0.18)))
        for slot in 0..<barCount {
            let x = centerX(ofSlot: slot) - barWidth / 2
            let restColor = isPitchClass ? scene.colors.color(ofPitchClass: slot) : scene.colors.color(ofPitch: scene.pitchRange.lowerBound + slot)
            shapes.append(
                .roundedRect(
                    Rect(x: x, y: baseline - maximumHeight, width: barWidth, height: maximumHeight),
                    radius: cornerRadius, top: restColor.withAlpha(0.02), bottom: restColor.withAlpha(0.08)))
        }
        appendLabels(to: &shapes)
    }

    func append(at seconds: Double, to shapes: inout [Shape]) {
        let bars = levels(at: seconds)
        for (slot, bar) in bars.enumerated() where bar.level > 0.002 {
            // `--velocity`: a softer note's bar is narrower.
            let thickness = scene.colors.thickness(bar.velocity)
            let width = thickness < 1 ? barWidth * thickness : barWidth
            let x = centerX(ofSlot: slot) - width / 2
            let barHeight = max(barWidth * 0.3, maximumHeight * bar.level)
            let rect = Rect(x: x, y: baseline - barHeight, width: width, height: barHeight)
            let alpha = min(1, 0.35 + bar.level)
            shapes.append(
                .glow(
                    center: Point(x + width / 2, rect.minY), radius: max(barWidth * 1.4, height * 0.03), hole: 0,
                    bar.color.withAlpha(0.4 * bar.level)))
            shapes.append(
                .roundedRect(
                    rect, radius: cornerRadius,
                    top: bar.color.mixed(with: RGBA(1, 1, 1), 0.15).withAlpha(alpha),
                    bottom: bar.color.scaled(0.5).withAlpha(alpha)))
        }
        let lane = DrumLane(scene: scene, centerY: scene.bands.notesTop + height * 0.07)
        let notes = scene.song.notes
        var struck: [Note] = []
        for index in scene.index.visible(at: seconds) {
            let note = notes[index]
            if note.channel == Scene.drumChannel {
                lane.append(note, index: index, at: seconds, to: &shapes)
            } else if scene.settings.effects, Sparks.isLive(note, at: seconds) {
                struck.append(note)
            }
        }
        // `--effects`: sparks off the top of a bar as its note starts.
        let (sparking, share) = Sparks.chosen(struck)
        for note in sparking {
            let slot = slot(ofPitch: Int(note.pitch))
            guard slot >= 0, slot < bars.count else { continue }
            let top = baseline - max(barWidth * 0.3, maximumHeight * bars[slot].level)
            let burst = Sparks.Burst(
                origin: Point(centerX(ofSlot: slot), top), direction: Point(0, -1), spread: 0.7, speed: height * 0.45,
                gravity: height * 2, lineWidth: max(2, height * 0.003))
            Sparks.append(for: note, at: seconds, burst: burst, color: scene.colors.color(of: note), most: share, to: &shapes)
        }
    }

    /// The labels under the bars are drawn once: with `--labels`, spelled by the song's first
    /// key signature.
    private var namingTime: Double { scene.song.keySignatures.first?.seconds ?? 0 }

    private func appendLabels(to shapes: inout [Shape]) {
        let y = baseline + height * 0.035
        let color = scene.settings.scheme.accent.withAlpha(0.7)
        if isPitchClass {
            for slot in 0..<12 {
                shapes.append(
                    .text(
                        scene.labeler.name(UInt8(60 + slot), at: namingTime, octave: false) ?? .pitchClass(UInt8(slot)), .medium,
                        center: Point(centerX(ofSlot: slot), y), color))
            }
            return
        }
        // Every bar is labelled when a three-character name fits its slot, else only the Cs.
        let everyBar = slotWidth >= height * 0.021 * 2.0
        for slot in 0..<barCount {
            let pitch = scene.pitchRange.lowerBound + slot
            guard everyBar || pitch % 12 == 0 else { continue }
            shapes.append(
                .text(
                    scene.labeler.name(UInt8(pitch), at: namingTime) ?? .noteName(UInt8(pitch)), everyBar ? .small : .medium,
                    center: Point(centerX(ofSlot: slot), y),
                    pitch % 12 == 0 ? color : color.withAlpha(0.45)))
        }
    }
}

extension RenderSettings.Style {
    public static let bars = Self(registered: BarsLayout.self)
}
