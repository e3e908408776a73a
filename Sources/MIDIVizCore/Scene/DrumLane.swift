/// Drums (channel 10) are not placed by pitch, which for drums names an instrument, not a
/// height: each hit is an expanding ring in a lane of six fixed slots (kick, snare, toms,
/// hi-hat, cymbals, other percussion), brightness from velocity, gone after `drumSeconds`.
struct DrumLane {
    let scene: Scene
    let centerY: Float

    /// The slot of a General MIDI drum key.
    static func slot(ofKey key: UInt8) -> Int {
        switch key {
        case 35, 36: return 0  // kicks
        case 37, 38, 39, 40: return 1  // snares, claps
        case 41, 43, 45, 47, 48, 50: return 2  // toms
        case 42, 44, 46: return 3  // hi-hats
        case 49, 51, 52, 53, 55, 57, 59: return 4  // cymbals
        default: return 5  // everything else
        }
    }

    static let slotCount = 6

    func x(ofSlot slot: Int) -> Float {
        Float(scene.settings.width) * (0.5 + (Float(slot) - 2.5) * 0.09)
    }

    /// In a dense song, hits of one slot struck less than this after the slot's last drawn hit
    /// are drawn as that hit (`drawnVelocities`).
    static let mergeSeconds = 0.025

    /// For each of `notes` (sorted by start), the velocity its hit is drawn with: 0 for a hit
    /// drawn as an earlier one of its slot, struck less than `mergeSeconds` after it; that one
    /// takes the loudest velocity of those it stands for. Other notes keep their own. A dense
    /// song strikes a slot a hundred times a second or more: each hit drawn alone, some 60
    /// expanding rings at one place, costs more than the rest of the frame.
    static func drawnVelocities(of notes: [Note], drumChannel: UInt8) -> [UInt8] {
        var velocities = notes.map(\.velocity)
        var last = [Int](repeating: -1, count: slotCount)
        for (index, note) in notes.enumerated() where note.channel == drumChannel {
            let slot = slot(ofKey: note.pitch)
            let kept = last[slot]
            if kept >= 0, note.startSeconds - notes[kept].startSeconds < mergeSeconds {
                velocities[kept] = max(velocities[kept], note.velocity)
                velocities[index] = 0
            } else {
                last[slot] = index
            }
        }
        return velocities
    }

    /// The hit of `note`, the song's note `index`.
    func append(_ note: Note, index: Int, at seconds: Double, to shapes: inout [Shape]) {
        let progress = Float((seconds - note.startSeconds) / scene.settings.drumSeconds)
        guard progress >= 0, progress < 1 else { return }
        let drawnVelocity = scene.drumVelocities?[index] ?? note.velocity
        guard drawnVelocity > 0 else { return }
        let unit = Float(min(scene.settings.width, scene.settings.height))
        let velocity = Float(drawnVelocity) / 127
        let remaining = 1 - progress
        let center = Point(x(ofSlot: Self.slot(ofKey: note.pitch)), centerY)
        let radius = unit * (0.012 + 0.03 * progress) * (0.6 + 0.4 * velocity)
        let accent = scene.settings.scheme.accent
        shapes.append(.glow(center: center, radius: radius * 1.8, hole: 0, accent.withAlpha(0.25 * remaining * velocity)))
        shapes.append(
            .ring(
                center: center, radius: radius, lineWidth: max(1.2, unit * 0.005 * remaining),
                accent.withAlpha(remaining * remaining * (0.4 + 0.6 * velocity))))
        shapes.append(.circle(center: center, radius: unit * 0.006, accent.withAlpha(remaining * remaining * remaining)))
    }
}
