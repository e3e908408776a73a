/// The visualization model: from a song, settings and a frame index to the shapes of that
/// frame. Pure and deterministic; everything that does not depend on time is computed once here.
public struct Scene: Sendable {
    public let song: Song
    public let settings: RenderSettings
    /// The non-drum pitch range the layouts span (at least two octaves).
    public let pitchRange: ClosedRange<Int>
    let colors: NoteColors
    let index: NoteIndex
    let background: (top: RGBA, bottom: RGBA)

    public static let drumChannel: UInt8 = 9

    public init(song: Song, settings: RenderSettings) {
        self.song = song
        self.settings = settings
        let pitches = song.notes.filter { $0.channel != Self.drumChannel }.map { Int($0.pitch) }
        pitchRange = Self.paddedRange(low: pitches.min() ?? 60, high: pitches.max() ?? 60)
        colors = NoteColors(song: song, settings: settings, pitchRange: pitchRange)
        let fade = settings.fadeSeconds, drum = settings.drumSeconds
        index = NoteIndex(notes: song.notes) { note in
            note.channel == Self.drumChannel ? note.startSeconds + drum : note.endSeconds + fade
        }
        if let color = settings.background {
            background = (color, color.scaled(0.35))
        } else {
            background = settings.scheme.background
        }
    }

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

    public var frameCount: Int { settings.frameCount(songDuration: song.durationSeconds) }

    /// The shapes that are the same in every frame (background, grid, bar slots, labels),
    /// drawn once into a backdrop that each frame starts from.
    public func makeBackdropShapes(into shapes: inout [Shape]) {
        shapes.removeAll(keepingCapacity: true)
        shapes.append(.background(top: background.top, bottom: background.bottom))
        switch settings.style {
        case .circles: CirclesLayout(scene: self).appendBackdrop(to: &shapes)
        case .bars: BarsLayout(scene: self).appendBackdrop(to: &shapes)
        }
    }

    /// Replaces `shapes` with what moves in frame `frameIndex` (0-based), at t = index / fps;
    /// drawn over the backdrop.
    public func makeShapes(ofFrame frameIndex: Int, into shapes: inout [Shape]) {
        makeShapes(at: settings.seconds(ofFrame: frameIndex), into: &shapes)
    }

    public func makeShapes(at seconds: Double, into shapes: inout [Shape]) {
        shapes.removeAll(keepingCapacity: true)
        switch settings.style {
        case .circles: CirclesLayout(scene: self).append(at: seconds, to: &shapes)
        case .bars: BarsLayout(scene: self).append(at: seconds, to: &shapes)
        }
    }

    /// Where a note is in its life at `seconds`: how long it has sounded and, once released,
    /// how far its fade has gone (0 at the release, 1 when gone).
    func envelope(of note: Note, at seconds: Double) -> (age: Float, fade: Float) {
        let age = Float(seconds - note.startSeconds)
        guard seconds > note.endSeconds else { return (age, 0) }
        return (age, Float(min(1, (seconds - note.endSeconds) / settings.fadeSeconds)))
    }
}
