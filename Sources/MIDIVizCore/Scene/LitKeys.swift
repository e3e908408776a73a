/// The colour each key is lit with in a frame: that of the loudest note sounding on it.
struct LitKeys {
    /// By pitch; nil for a key at rest.
    private(set) var colors = [RGBA?](repeating: nil, count: 128)
    /// By pitch: when the note lighting the key started (its name is spelled as of then).
    private(set) var starts = [Double](repeating: 0, count: 128)
    private var velocities = [UInt8](repeating: 0, count: 128)

    /// Lights `pitch` in `color` for a note that started at `start`, unless a louder note
    /// already lights it.
    mutating func light(_ pitch: Int, _ color: RGBA, velocity: UInt8, start: Double) {
        guard velocity > velocities[pitch] else { return }
        colors[pitch] = color
        velocities[pitch] = velocity
        starts[pitch] = start
    }
}
