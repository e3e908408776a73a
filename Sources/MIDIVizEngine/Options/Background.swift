import MIDIVizCore

/// `--background`: `#RRGGBB` (a gradient from it to a darker shade) or `transparent`.
public enum Background: OptionValue {
    case color(RGBA)
    case transparent

    public init?(optionText: String) {
        if optionText.lowercased() == "transparent" { self = .transparent; return }
        guard let color = RGBA(hex: optionText) else { return nil }
        self = .color(color)
    }

    public var optionText: String {
        switch self {
        case .color(let color): return color.hex
        case .transparent: return "transparent"
        }
    }
}
