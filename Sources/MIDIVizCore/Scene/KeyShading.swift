/// The colours of piano keys, at rest and lit by a sounding note: the key's face (top to
/// bottom for the keyboard style) and its lip, the edge nearest the player.
enum KeyShading {
    static let bed = RGBA(0.05, 0.05, 0.06)
    static let label = RGBA(0.35, 0.35, 0.4)

    struct Colors {
        var top: RGBA
        var bottom: RGBA
        var lip: RGBA
        /// One flat colour for the face, where a gradient would run across the key.
        var face: RGBA { top.mixed(with: bottom, 0.5) }
    }

    static func colors(black: Bool, lit: RGBA?) -> Colors {
        switch (black, lit) {
        case (false, nil): return Colors(top: RGBA(0.80, 0.80, 0.82), bottom: RGBA(0.97, 0.97, 0.98), lip: RGBA(0.70, 0.70, 0.73))
        case (true, nil): return Colors(top: RGBA(0.03, 0.03, 0.04), bottom: RGBA(0.17, 0.17, 0.19), lip: RGBA(0.24, 0.24, 0.27))
        case (false, let color?):
            return Colors(top: color.mixed(with: RGBA(1, 1, 1), 0.15), bottom: color.mixed(with: RGBA(1, 1, 1), 0.45), lip: color.scaled(0.6))
        case (true, let color?):
            return Colors(top: color.scaled(0.55), bottom: color.scaled(0.85), lip: color.mixed(with: RGBA(1, 1, 1), 0.3))
        }
    }
}
