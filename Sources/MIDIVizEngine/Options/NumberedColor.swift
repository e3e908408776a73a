import Foundation
import MIDIVizCore

/// `--track-color 2=#ff8800`, `--channel-color 10=#808080`: a number and a colour.
public struct NumberedColor: OptionValue {
    public var number: Int
    package var color: RGBA

    package init(number: Int, color: RGBA) {
        self.number = number
        self.color = color
    }

    public init?(optionText: String) {
        let parts = optionText.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let number = Int(parts[0]), let color = RGBA(hex: parts[1]) else { return nil }
        self.init(number: number, color: color)
    }

    /// As typed: `2=#FF8800`.
    public var optionText: String { "\(number)=" + color.hex }
}
