import MIDIVizIO

/// `--loudness`: a number of LUFS to normalize the sound to, or `off`.
public enum LoudnessChoice: OptionValue {
    case target(Double)
    case off

    public init?(optionText: String) {
        if optionText.lowercased() == "off" { self = .off; return }
        guard let value = Double(optionText), value.isFinite else { return nil }
        self = .target(value)
    }

    public var optionText: String {
        switch self {
        case .target(let lufs): return lufs.optionText
        case .off: return "off"
        }
    }

    /// The normalization, or nil for none.
    public var target: LoudnessTarget? {
        if case .target(let lufs) = self { return LoudnessTarget(integratedLUFS: lufs) }
        return nil
    }
}
