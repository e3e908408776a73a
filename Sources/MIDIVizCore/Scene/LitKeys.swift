/// The colour each key is lit with in a frame: that of the loudest note sounding on it.
struct LitKeys {
    /// By pitch; nil for a key at rest.
    private(set) var colors = [RGBA?](repeating: nil, count: 128)
    private var velocities = [UInt8](repeating: 0, count: 128)

    /// Lights `pitch` in `color` unless a louder note already lights it.
    mutating func light(_ pitch: Int, _ color: RGBA, velocity: UInt8) {
        guard velocity > velocities[pitch] else { return }
        colors[pitch] = color
        velocities[pitch] = velocity
    }
}
