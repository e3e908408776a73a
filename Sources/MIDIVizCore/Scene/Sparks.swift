/// `--effects`: a burst of short glowing streaks thrown from where a note strikes. Each spark's
/// direction, speed and life come from a hash of the note, so a frame stays a pure function of
/// its time (byte-identical across runs, workers and segments).
struct Sparks {
    /// The longest a spark lives.
    static let lifeSeconds = 0.5
    /// At most this many notes throw sparks in one frame (the latest ones; in `circles`, the
    /// lowest), and about this many sparks are drawn: a dense song stays within the frame budget.
    static let mostNotesPerFrame = 48
    static let mostSparksPerFrame = 160

    /// Whether `note` throws sparks at `seconds`: in the life after its start.
    static func isLive(_ note: Note, at seconds: Double) -> Bool {
        note.startSeconds <= seconds && seconds - note.startSeconds < lifeSeconds
    }

    /// The notes struck this frame (in the order they came into view) that throw sparks: the
    /// latest `mostNotesPerFrame`; and how many sparks each may throw.
    static func chosen<Struck>(_ struck: [Struck]) -> (notes: ArraySlice<Struck>, sparksEach: Int) {
        let notes = struck.suffix(mostNotesPerFrame)
        return (notes, max(2, mostSparksPerFrame / max(1, notes.count)))
    }

    /// Where sparks come from and how they fly, in pixels and pixels per second.
    struct Burst {
        var origin: Point
        /// The mean direction (a unit vector; zero: any direction) and how far sparks stray
        /// from it (a random vector up to `spread` on each axis is added).
        var direction: Point
        var spread: Float
        var speed: Float
        /// Downward acceleration.
        var gravity: Float
        var lineWidth: Float
        /// How far from `origin` sparks start (the edge of a circle).
        var startRadius: Float = 0
    }

    /// Up to `most` sparks of `note` (3 to 8 by its velocity).
    static func append(for note: Note, at seconds: Double, burst: Burst, color: RGBA, most: Int = .max, to shapes: inout [Shape]) {
        let age = seconds - note.startSeconds
        guard age >= 0, age < lifeSeconds else { return }
        var seed =
            UInt64(truncatingIfNeeded: note.startSeconds.bitPattern) ^ UInt64(note.pitch) << 56
            ^ UInt64(note.channel) << 48 ^ UInt64(note.track) << 32
        let count = min(most, 3 + Int(note.velocity) / 24)
        let intensity = NoteColors.intensity(note.velocity)
        let bright = color.mixed(with: RGBA(1, 1, 1), 0.55)
        for _ in 0..<count {
            var x = burst.direction.x + burst.spread * (2 * unit(&seed) - 1)
            var y = burst.direction.y + burst.spread * (2 * unit(&seed) - 1)
            let length = (x * x + y * y).squareRoot()
            if length < 1e-3 { x = 0; y = -1 } else { x /= length; y /= length }
            let speed = burst.speed * (0.45 + 0.75 * unit(&seed))
            let life = lifeSeconds * Double(0.45 + 0.55 * unit(&seed))
            guard age < life else { continue }
            let remaining = Float(1 - age / life)
            let velocity = Point(x * speed, y * speed)
            let start = Point(burst.origin.x + x * burst.startRadius, burst.origin.y + y * burst.startRadius)
            // The streak runs from where the spark was a moment ago to where it is.
            let head = position(start, burst.gravity, velocity, Float(age))
            let tail = position(start, burst.gravity, velocity, Float(max(0, age - 0.05)))
            shapes.append(.line(from: tail, to: head, lineWidth: burst.lineWidth, bright.withAlpha(remaining * (0.4 + 0.6 * intensity))))
        }
    }

    private static func position(_ start: Point, _ gravity: Float, _ velocity: Point, _ t: Float) -> Point {
        Point(start.x + velocity.x * t, start.y + velocity.y * t + 0.5 * gravity * t * t)
    }

    /// The next number of a SplitMix64 sequence, in 0..<1.
    private static func unit(_ state: inout UInt64) -> Float {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Float(z >> 40) / Float(1 << 24)
    }
}
