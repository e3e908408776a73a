/// The time base of a Standard MIDI File, from the header's division word.
package enum Division: Sendable, Equatable {
    /// Metrical time: ticks per quarter note; the tempo map turns ticks into seconds.
    case ticksPerQuarter(Int)
    /// SMPTE time: a fixed number of ticks per frame at a frame rate; tempo events are ignored.
    case smpte(framesPerSecond: Double, ticksPerFrame: Int)

    /// Decodes the header's 16-bit division word, or returns nil when it cannot be used.
    package init?(word: UInt16) {
        if word & 0x8000 == 0 {
            guard word > 0 else { return nil }
            self = .ticksPerQuarter(Int(word))
            return
        }
        let frameCode = 256 - Int(word >> 8)
        let ticksPerFrame = Int(word & 0xFF)
        guard ticksPerFrame > 0 else { return nil }
        switch frameCode {
        case 24, 25, 30: self = .smpte(framesPerSecond: Double(frameCode), ticksPerFrame: ticksPerFrame)
        case 29: self = .smpte(framesPerSecond: 30000.0 / 1001.0, ticksPerFrame: ticksPerFrame)
        default: return nil
        }
    }

    package var description: String {
        switch self {
        case .ticksPerQuarter(let ticks): return "\(ticks) ticks per quarter note"
        case .smpte(let fps, let ticks):
            let rate = fps == 30000.0 / 1001.0 ? "29.97" : String(Int(fps))
            return "SMPTE \(rate) fps, \(ticks) ticks per frame"
        }
    }
}
