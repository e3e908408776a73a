/// `circles`: each sounding note is a glowing disc, x by pitch class (C … B across the width),
/// y by pitch (higher notes higher), radius and brightness from velocity, its name written on it.
/// A released note grows a little and fades out. Drums go to the drum lane at the bottom.
struct CirclesLayout: StyleLayout {
    static let name = "circles"
    static let helpText = "circles"
    static let lyricsNearTop = false

    static func visibleSpan(settings: RenderSettings) -> (Note, Double) -> (from: Double, until: Double) {
        stillNoteSpan(settings: settings)
    }

    let scene: Scene

    private var width: Float { Float(scene.settings.width) }
    private var height: Float { Float(scene.settings.height) }
    private var unit: Float { min(width, height) }

    func x(ofPitchClass pitchClass: Int) -> Float {
        width * (0.06 + 0.88 * (Float(pitchClass) + 0.5) / 12)
    }

    func y(ofPitch pitch: Int) -> Float {
        let range = scene.pitchRange
        let position = Float(pitch - range.lowerBound) / Float(range.upperBound - range.lowerBound)
        let bands = scene.bands
        guard !bands.isWholeFrame else { return height * (0.84 - 0.74 * position) }
        // Under a header or over a lyrics band, the highest and lowest circles keep their
        // largest glow's reach from it.
        let reach = unit * Self.largestReach
        let high = bands.notesTop > 0 ? bands.notesTop + reach : height * 0.10
        let low = bands.notesBottom < height ? bands.notesBottom - max(reach, height * 0.12) : height * 0.84
        return low - (low - high) * position
    }

    /// The largest glow's radius over the shorter side: the loudest note's circle, grown by its
    /// fade, and its glow around it.
    static let largestReach: Float = 0.058 * 1.3 * 1.6 + 0.004

    func appendBackdrop(to shapes: inout [Shape]) {
        if scene.settings.grid { appendGrid(to: &shapes) }
    }

    func append(at seconds: Double, to shapes: inout [Shape]) {
        let notes = scene.song.notes
        let lane = DrumLane(scene: scene, centerY: scene.bands.notesBottom - height * 0.06)
        // One circle per pitch: of the notes on one pitch (doublings across tracks, a note
        // fading under its repetition) only the most present is drawn; the rest would be
        // hidden under it. A fixed 128-slot table on the stack, no allocation.
        withUnsafeTemporaryAllocation(of: (note: Int32, presence: Float).self, capacity: 128) { table in
            table.initialize(repeating: (-1, 0))
            for index in scene.index.visible(at: seconds) {
                let note = notes[index]
                if note.channel == Scene.drumChannel {
                    lane.append(note, index: index, at: seconds, to: &shapes)
                    continue
                }
                // Outside `--keys LOW-HIGH`: not drawn.
                guard scene.pitchRange.contains(Int(note.pitch)) else { continue }
                let fade = scene.envelope(of: index, at: seconds).fade
                let presence = (1 - fade) * (1 - fade) * (1 + Float(note.velocity))
                let slot = Int(note.pitch & 0x7F)
                if presence > table[slot].presence { table[slot] = (Int32(index), presence) }
            }
            var struck: [(index: Int, center: Point, radius: Float)] = []
            for slot in 0..<128 where table[slot].note >= 0 {
                let index = Int(table[slot].note)
                let circle = appendCircle(for: index, at: seconds, to: &shapes)
                if scene.settings.effects, Sparks.isLive(notes[index], at: seconds), struck.count < Sparks.mostNotesPerFrame {
                    struck.append((index, circle.center, circle.radius))
                }
            }
            // `--effects`: sparks from the edge of each circle whose note just started (the
            // lowest `Sparks.mostNotesPerFrame`), after all circles.
            let share = Sparks.chosen(struck).sparksEach
            for circle in struck {
                let note = notes[circle.index]
                let burst = Sparks.Burst(
                    origin: circle.center, direction: Point(0, 0), spread: 1, speed: unit * 0.4, gravity: unit * 0.6,
                    lineWidth: max(2, unit * 0.003), startRadius: circle.radius)
                Sparks.append(for: note, at: seconds, burst: burst, color: scene.colors.color(of: note), most: share, to: &shapes)
            }
        }
    }

    /// Note `index`'s circle; where it is and how large (drawn or, faded out, not).
    @discardableResult
    private func appendCircle(for index: Int, at seconds: Double, to shapes: inout [Shape]) -> (center: Point, radius: Float) {
        let note = scene.song.notes[index]
        let (age, fade) = scene.envelope(of: index, at: seconds)
        let velocity = Float(note.velocity) / 127
        let attack = 0.75 + 0.25 * min(1, age / 0.06)
        let radius = unit * (0.02 + 0.038 * velocity) * attack * (1 + 0.3 * fade)
        let center = Point(x(ofPitchClass: Int(note.pitch) % 12), y(ofPitch: Int(note.pitch)))
        let alpha = (1 - fade) * (1 - fade)
        guard alpha > 0.004 else { return (center, radius) }
        let base = scene.colors.color(of: note)
        let intensity = scene.colors.brightness(note.velocity)
        let glowAlpha = 0.55 * alpha * intensity
        if glowAlpha > 0.03 {
            shapes.append(.glow(center: center, radius: radius * 1.6, hole: radius - 1, base.withAlpha(glowAlpha)))
        }
        // `--velocity`: the fill and its rim as bright as the note is loud.
        let shows = scene.settings.velocity
        let fill = base.scaled(shows ? intensity : 0.55 + 0.45 * intensity)
        shapes.append(.circle(center: center, radius: radius, fill.withAlpha(0.92 * alpha)))
        shapes.append(
            .ring(
                center: center, radius: radius, lineWidth: max(1.5, radius * 0.07),
                base.mixed(with: RGBA(1, 1, 1), 0.55).withAlpha(0.85 * alpha * (shows ? intensity : 1))))
        let size: TextSize = radius < unit * 0.03 ? .small : (radius < unit * 0.045 ? .medium : .large)
        let ink = fill.luma > 0.62 ? RGBA(0.04, 0.04, 0.07) : RGBA(1, 1, 1)
        shapes.append(
            .text(
                scene.labeler.name(note.pitch, at: note.startSeconds) ?? .noteName(note.pitch), size, center: center,
                ink.withAlpha(0.95 * alpha)))
        return (center, radius)
    }

    private func appendGrid(to shapes: inout [Shape]) {
        let line = scene.settings.scheme.accent.withAlpha(0.07)
        let top = scene.bands.notesTop + height * 0.06, bottom = scene.bands.notesBottom - height * 0.12
        for pitchClass in 0...12 {
            let x = width * (0.06 + 0.88 * Float(pitchClass) / 12)
            shapes.append(.line(from: Point(x, top), to: Point(x, bottom), lineWidth: 1, line))
        }
        let range = scene.pitchRange
        for pitch in stride(from: (range.lowerBound + 11) / 12 * 12, through: range.upperBound, by: 12) {
            let y = y(ofPitch: pitch)
            shapes.append(.line(from: Point(width * 0.06, y), to: Point(width * 0.94, y), lineWidth: 1, line))
            shapes.append(
                .text(
                    .noteName(UInt8(pitch)), .small, center: Point(width * 0.03, y),
                    scene.settings.scheme.accent.withAlpha(0.35)))
        }
        for pitchClass in 0..<12 {
            shapes.append(
                .text(
                    .pitchClass(UInt8(pitchClass)), .small,
                    center: Point(x(ofPitchClass: pitchClass), scene.bands.notesTop + height * 0.035),
                    scene.settings.scheme.accent.withAlpha(0.35)))
        }
    }
}

extension RenderSettings.Style {
    public static let circles = Self(registered: CirclesLayout.self)
}
