import MIDIVizCore

/// A value an option holds, read from and written as the text a user types (`1080p`, `#ff8800`,
/// `bar:17`). One text form serves the command line, config files, manifests and records.
package protocol OptionValue: Sendable, Equatable {
    /// Reads the text a user typed; nil when it is not a value of this kind.
    init?(optionText: String)
    /// The text that reads back as this value.
    var optionText: String { get }
    /// How a config file writes the value: a TOML number for numbers, else a string.
    static var isNumber: Bool { get }
    /// The value as a message quotes it, as a user would type it (`optionText` unless that is
    /// not how people write it).
    var messageText: String { get }
}

extension OptionValue {
    package static var isNumber: Bool { false }
    package var messageText: String { optionText }
}

extension Int: OptionValue {
    package init?(optionText: String) { self.init(optionText) }
    package var optionText: String { String(self) }
    package static var isNumber: Bool { true }
}

extension Double: OptionValue {
    /// Decimal and finite only: `1.5`, `-16`, `2e3`; not Swift's `0x10`, `inf`, `nan` or `1e999`.
    package init?(optionText: String) {
        guard optionText.allSatisfy({ $0.isASCII && ($0.isNumber || ".eE+-".contains($0)) }), let value = Double(optionText), value.isFinite
        else { return nil }
        self = value
    }
    /// Whole numbers without `.0`, as typed: `3600`, `0.4`.
    package var optionText: String { self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self) }
    package static var isNumber: Bool { true }
}

extension String: OptionValue {
    package init?(optionText: String) { self = optionText }
    package var optionText: String { self }
}

/// A choice among names: its raw values are the texts.
package protocol OptionChoice: OptionValue, RawRepresentable<String>, CaseIterable {}

extension OptionChoice {
    package init?(optionText: String) { self.init(rawValue: optionText) }
    package var optionText: String { rawValue }
}

extension RenderSettings.Style: OptionChoice {}
extension RenderSettings.ColorBy: OptionChoice {}
extension RenderSettings.BarsLayout: OptionChoice {}
extension RenderSettings.KeyRange: OptionChoice {}
extension RenderSettings.Labels: OptionChoice {}
extension RenderSettings.Direction: OptionChoice {}
extension BackgroundVideoEnd: OptionChoice {}
extension ColorScheme: OptionChoice {}

extension RenderSettings.HandSplit: OptionValue {
    package init?(optionText: String) { self.init(rawValue: optionText) }
    package var optionText: String { rawValue }
}

extension FrameRate: OptionValue {
    package init?(optionText: String) { self.init(text: optionText) }
    package var optionText: String { text }
    /// `30.5` as typed, not the `61/2` it is kept as (it reads back the same).
    package var messageText: String { description }
    /// A config file writes a whole rate as a TOML number, a fraction as a string.
    package static var isNumber: Bool { true }
}
