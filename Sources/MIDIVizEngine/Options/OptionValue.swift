import MIDIVizCore

/// A value an option holds, read from and written as the text a user types (`1080p`, `#ff8800`,
/// `bar:17`). One text form serves the command line, config files, manifests and records.
public protocol OptionValue: Sendable, Equatable {
    /// Reads the text a user typed; nil when it is not a value of this kind.
    init?(optionText: String)
    /// The text that reads back as this value.
    var optionText: String { get }
    /// How a config file writes the value: a TOML number for numbers, else a string.
    static var isNumber: Bool { get }
}

extension OptionValue {
    public static var isNumber: Bool { false }
}

extension Int: OptionValue {
    public init?(optionText: String) { self.init(optionText) }
    public var optionText: String { String(self) }
    public static var isNumber: Bool { true }
}

extension Double: OptionValue {
    public init?(optionText: String) { self.init(optionText) }
    /// Whole numbers without `.0`, as typed: `3600`, `0.4`.
    public var optionText: String { self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self) }
    public static var isNumber: Bool { true }
}

extension String: OptionValue {
    public init?(optionText: String) { self = optionText }
    public var optionText: String { self }
}

/// A choice among names: its raw values are the texts.
public protocol OptionChoice: OptionValue, RawRepresentable<String>, CaseIterable {}

extension OptionChoice {
    public init?(optionText: String) { self.init(rawValue: optionText) }
    public var optionText: String { rawValue }
}

extension RenderSettings.Style: OptionChoice {}
extension RenderSettings.ColorBy: OptionChoice {}
extension RenderSettings.BarsLayout: OptionChoice {}
extension RenderSettings.KeyRange: OptionChoice {}
extension RenderSettings.Labels: OptionChoice {}
extension ColorScheme: OptionChoice {}
