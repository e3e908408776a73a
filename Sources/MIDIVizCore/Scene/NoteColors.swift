/// The colour of each note from the scheme and `--color-by`, before velocity and fading.
struct NoteColors: Sendable {
    private let scheme: ColorScheme
    private let colorBy: RenderSettings.ColorBy
    private let pitchRange: ClosedRange<Int>
    private let channelPositions: [Float]
    private let trackPositions: [Float]
    private let look: TrackLook
    /// `--split`: each note's hand, and the two hands' colours.
    private let hands: HandSplitter?
    let leftHand: RGBA
    let rightHand: RGBA
    /// `--velocity`: brightness (and the thickness of bars) over the whole range of velocities.
    private let showsVelocity: Bool
    /// The colour of each pitch, channel and track, worked out once (a dense frame asks for
    /// tens of thousands): the chosen colours included.
    private var pitchColors: [RGBA] = []
    private var channelColors: [RGBA] = []
    private var trackColors: [RGBA] = []

    init(song: Song, settings: RenderSettings, pitchRange: ClosedRange<Int>) {
        scheme = settings.scheme
        colorBy = settings.colorBy
        look = settings.trackLook
        self.pitchRange = pitchRange
        let channels = Set(song.notes.map { Int($0.channel) }).sorted()
        let tracks = Set(song.notes.map(\.track)).sorted()
        hands = settings.split.map { HandSplitter(split: $0, song: song, drumChannel: Scene.drumChannel) }
        (leftHand, rightHand) = Self.handColors(settings.scheme)
        showsVelocity = settings.velocity
        channelPositions = Self.positions(of: channels, count: 16, wraps: settings.scheme == .rainbow)
        trackPositions = Self.positions(of: tracks, count: max(song.tracks.count, 1), wraps: settings.scheme == .rainbow)
        pitchColors = (0..<128).map { workColor(ofPitch: $0) }
        channelColors = (0..<16).map { workColor(ofChannel: $0) }
        trackColors = trackPositions.indices.map { workColor(ofTrack: $0) }
    }

    /// Spreads the used indices evenly over 0...1 (a hue wheel wraps, so it stops short of 1).
    private static func positions(of used: [Int], count: Int, wraps: Bool) -> [Float] {
        var positions = [Float](repeating: 0, count: count)
        let divisor = Float(wraps ? max(used.count, 1) : max(used.count - 1, 1))
        for (order, index) in used.enumerated() where index < count { positions[index] = Float(order) / divisor }
        return positions
    }

    /// Whether notes are coloured by hand (`--split`).
    var splitsHands: Bool { hands != nil }

    /// The hands' colours in a scheme: blue and orange in `rainbow`, a low and a high colour in
    /// the others.
    static func handColors(_ scheme: ColorScheme) -> (left: RGBA, right: RGBA) {
        scheme == .rainbow ? (scheme.color(at: 0.68), scheme.color(at: 0.07)) : (scheme.color(at: 0.3), scheme.color(at: 0.88))
    }

    func color(of note: Note) -> RGBA {
        if let hands {
            // A colour chosen for the note's track or channel comes in two shades: darker for
            // the left hand, lighter for the right.
            let left = hands.isLeft(note)
            if let chosen = look.color(of: note) { return left ? chosen.scaled(0.62) : chosen.mixed(with: RGBA(1, 1, 1), 0.35) }
            return left ? leftHand : rightHand
        }
        if let chosen = look.color(of: note) { return chosen }
        switch colorBy {
        case .pitch: return color(ofPitch: Int(note.pitch))
        case .channel: return color(ofChannel: Int(note.channel))
        case .track: return color(ofTrack: note.track)
        }
    }

    /// The colour of a channel (0-based) under `--color-by channel`, or the one chosen for it.
    func color(ofChannel channel: Int) -> RGBA {
        channel >= 0 && channel < channelColors.count ? channelColors[channel] : workColor(ofChannel: channel)
    }

    /// The colour of a track (0-based) under `--color-by track`, or the one chosen for it.
    func color(ofTrack track: Int) -> RGBA {
        track >= 0 && track < trackColors.count ? trackColors[track] : workColor(ofTrack: track)
    }

    /// Rainbow runs around the colour wheel by pitch class;
    /// fire and ocean run from low (dark) to high (bright) pitches.
    func color(ofPitch pitch: Int) -> RGBA {
        pitch >= 0 && pitch < pitchColors.count ? pitchColors[pitch] : workColor(ofPitch: pitch)
    }

    private func workColor(ofChannel channel: Int) -> RGBA {
        look.channelColors[channel + 1] ?? scheme.color(at: channelPositions[channel & 15])
    }

    private func workColor(ofTrack track: Int) -> RGBA {
        look.trackColors[track] ?? scheme.color(at: track >= 0 && track < trackPositions.count ? trackPositions[track] : 0)
    }

    private func workColor(ofPitch pitch: Int) -> RGBA {
        if scheme == .rainbow { return scheme.color(at: Float(pitch % 12) / 12) }
        let span = Float(max(pitchRange.upperBound - pitchRange.lowerBound, 1))
        return scheme.color(at: Float(pitch - pitchRange.lowerBound) / span)
    }

    /// The colour of a pitch class (C = 0) over the whole scheme, for `--bars pitch-class`.
    func color(ofPitchClass pitchClass: Int) -> RGBA {
        scheme.color(at: Float(pitchClass % 12) / (scheme == .rainbow ? 12 : 11))
    }

    /// Velocity as intensity: 0.45 for the softest note, 1 for the loudest.
    static func intensity(_ velocity: UInt8) -> Float { 0.45 + 0.55 * Float(velocity) / 127 }

    /// A note's brightness from its velocity: `intensity`, or with `--velocity` 0.12 for the
    /// softest note to 1 for the loudest.
    func brightness(_ velocity: UInt8) -> Float { showsVelocity ? 0.12 + 0.88 * Float(velocity) / 127 : Self.intensity(velocity) }

    /// How much of its width (its height in the roll) a note's bar takes: all of it, or with
    /// `--velocity` from 0.3 for the softest note to all for the loudest.
    func thickness(_ velocity: UInt8) -> Float { showsVelocity ? 0.3 + 0.7 * Float(velocity) / 127 : 1 }
}
