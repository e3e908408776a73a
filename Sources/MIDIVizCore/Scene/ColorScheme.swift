/// A palette: the colour of a note from a position in 0...1 (pitch height, pitch class, or the
/// index of a channel or track), and the background behind the notes.
public enum ColorScheme: String, Sendable, CaseIterable {
    case rainbow, fire, ocean

    /// The colour at `position` in 0...1, at full intensity.
    package func color(at position: Float) -> RGBA {
        let u = max(0, min(1, position))
        switch self {
        case .rainbow:
            return RGBA.hsv(u * 0.92, 0.72, 1.0)
        case .fire:
            return Self.gradient(
                u,
                [
                    RGBA(0.62, 0.06, 0.04), RGBA(0.92, 0.22, 0.05), RGBA(1.0, 0.50, 0.08),
                    RGBA(1.0, 0.78, 0.25), RGBA(1.0, 0.95, 0.72),
                ])
        case .ocean:
            return Self.gradient(
                u,
                [
                    RGBA(0.10, 0.20, 0.62), RGBA(0.10, 0.42, 0.90), RGBA(0.08, 0.70, 0.82),
                    RGBA(0.35, 0.92, 0.85), RGBA(0.82, 1.0, 0.96),
                ])
        }
    }

    /// The background gradient, top to bottom.
    package var background: (top: RGBA, bottom: RGBA) {
        switch self {
        case .rainbow: return (RGBA(0.055, 0.05, 0.11), RGBA(0.012, 0.012, 0.03))
        case .fire: return (RGBA(0.11, 0.03, 0.02), RGBA(0.015, 0.005, 0.005))
        case .ocean: return (RGBA(0.01, 0.07, 0.13), RGBA(0.0, 0.012, 0.035))
        }
    }

    /// The colour of drum hits and other neutral marks.
    package var accent: RGBA {
        switch self {
        case .rainbow: return RGBA(0.92, 0.92, 1.0)
        case .fire: return RGBA(1.0, 0.88, 0.70)
        case .ocean: return RGBA(0.80, 0.97, 1.0)
        }
    }

    static func gradient(_ u: Float, _ stops: [RGBA]) -> RGBA {
        let scaled = u * Float(stops.count - 1)
        let index = min(Int(scaled), stops.count - 2)
        return stops[index].mixed(with: stops[index + 1], scaled - Float(index))
    }
}
