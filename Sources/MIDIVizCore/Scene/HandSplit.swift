extension RenderSettings {
    /// `--split`: notes below a key are the left hand's, at or above it the right hand's, each
    /// hand in its own colour. `auto` finds the key over time.
    public enum HandSplit: RawRepresentable, Sendable, Hashable {
        /// A fixed key (MIDI number): `--split C4` is 60.
        case key(Int)
        /// A key that follows the hands, found every two seconds between the pitches sounding
        /// then (`HandSplitter`).
        case auto

        /// `auto` or a note name, middle C being C4.
        public init?(rawValue: String) {
            if rawValue == "auto" {
                self = .auto
            } else if let pitch = NoteName.pitch(named: rawValue) {
                self = .key(pitch)
            } else {
                return nil
            }
        }

        public var rawValue: String {
            switch self {
            case .auto: return "auto"
            case .key(let pitch): return NoteName.name(of: UInt8(clamping: max(0, pitch)))
            }
        }
    }
}

/// Which hand plays each note under `--split`: the split key in force when the note starts,
/// worked out once per scene (a frame stays a function of the song, the settings and its index).
/// With `auto`, the song is cut into windows of `windowSeconds`; in each, the pitches sounding
/// in it are split in two hands (`splitKey(in:)`). A window that
/// one hand can play keeps the split before it; a median over three windows smooths the result.
struct HandSplitter: Sendable, Equatable {
    static let windowSeconds = 2.0
    /// The split key of each window (one for a fixed key).
    let keys: [Int]

    init(split: RenderSettings.HandSplit, song: Song, drumChannel: UInt8) {
        switch split {
        case .key(let pitch):
            keys = [pitch]
        case .auto:
            keys = Self.autoKeys(song: song, drumChannel: drumChannel)
        }
    }

    /// The split key at `seconds`.
    func key(at seconds: Double) -> Int {
        guard keys.count > 1 else { return keys[0] }
        let window = Int((max(0, seconds) / Self.windowSeconds).rounded(.down))
        return keys[min(window, keys.count - 1)]
    }

    /// Whether `note` is played by the left hand.
    func isLeft(_ note: Note) -> Bool { Int(note.pitch) < key(at: note.startSeconds) }

    static func autoKeys(song: Song, drumChannel: UInt8) -> [Int] {
        let notes = song.notes.filter { $0.channel != drumChannel }
        let count = max(1, Int((song.durationSeconds / windowSeconds).rounded(.up)))
        var pitchesByWindow = [Set<Int>](repeating: [], count: count)
        for note in notes {
            let first = max(0, Int((note.startSeconds / windowSeconds).rounded(.down)))
            let last = min(count - 1, Int((note.endSeconds / windowSeconds).rounded(.down)))
            guard first <= last else { continue }
            for window in first...last { pitchesByWindow[window].insert(Int(note.pitch)) }
        }
        var found: [Int?] = pitchesByWindow.map { splitKey(in: $0.sorted()) }
        // A window without a gap keeps the split before it (or, at the start, the first found).
        let first = found.compactMap { $0 }.first ?? 60
        var last = first
        for index in found.indices {
            if let key = found[index] { last = key } else { found[index] = last }
        }
        let filled = found.map { $0 ?? first }
        return filled.indices.map { index in
            let around = [filled[max(0, index - 1)], filled[index], filled[min(filled.count - 1, index + 1)]].sorted()
            return around[1]
        }
    }

    /// The key that splits `pitches` (sorted, distinct) into two hands best: each hand's span
    /// as small as can be (the wider of the two counts), a wide gap between them, near middle C
    /// rather than far from it. Nil when all of them lie within one hand's reach
    /// (`oneHandSemitones`): one hand may be playing alone.
    static func splitKey(in pitches: [Int]) -> Int? {
        guard let lowest = pitches.first, let highest = pitches.last, highest - lowest > oneHandSemitones else { return nil }
        var best: (cost: Double, key: Int)? = nil
        for (low, high) in zip(pitches, pitches.dropFirst()) {
            let span = Double(max(low - lowest, highest - high))
            let cost = span - 0.5 * Double(high - low) + 0.15 * abs(Double(low + high) / 2 - 60)
            if cost < (best?.cost ?? .infinity) { best = (cost, low + (high - low + 1) / 2) }
        }
        return best?.key
    }

    /// What one hand can span: a tenth.
    static let oneHandSemitones = 16
}
