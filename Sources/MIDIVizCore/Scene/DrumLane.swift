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

    func append(_ note: Note, at seconds: Double, to shapes: inout [Shape]) {
        let progress = Float((seconds - note.startSeconds) / scene.settings.drumSeconds)
        guard progress >= 0, progress < 1 else { return }
        let unit = Float(min(scene.settings.width, scene.settings.height))
        let velocity = Float(note.velocity) / 127
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
