import MIDIVizCore

/// `--from` / `--to`: seconds (`12.5`), `mm:ss.fff`, or a bar (`bar:17`, counted with the
/// song's time signatures).
public enum TimeSpec: OptionValue {
    case seconds(Double)
    case bar(Int)

    /// What a time option takes, for the message refusing another text.
    public static let expected = "a time: seconds (0 or more), mm:ss.fff or bar:N"

    public init?(optionText: String) {
        if optionText.lowercased().hasPrefix("bar:") {
            guard let number = Int(optionText.dropFirst(4)), number >= 1 else { return nil }
            self = .bar(number)
        } else if let seconds = SongTime.seconds(optionText) {
            self = .seconds(seconds)
        } else {
            return nil
        }
    }

    public var optionText: String {
        switch self {
        case .seconds(let seconds): return String(seconds)
        case .bar(let number): return "bar:\(number)"
        }
    }

    /// Seconds in `song`, or nil for a bar the song cannot count (SMPTE division).
    public func seconds(in song: Song) -> Double? {
        switch self {
        case .seconds(let seconds): return seconds
        case .bar(let number): return song.startSeconds(ofBar: number)
        }
    }
}

/// A time in the song as typed: seconds (`12.5`) or `mm:ss.fff`.
public enum SongTime {
    /// The seconds `text` names, or nil.
    public static func seconds(_ text: String) -> Double? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        switch parts.count {
        case 1:
            guard let value = Double(optionText: text), value.isFinite, value >= 0 else { return nil }
            return value
        case 2:
            // Digits only before the colon: `-0:01` is not one second.
            guard !parts[0].isEmpty, parts[0].allSatisfy({ $0.isASCII && $0.isNumber }), let minutes = Int(parts[0]),
                let rest = Double(optionText: String(parts[1])), rest >= 0, rest < 60
            else { return nil }
            return Double(minutes) * 60 + rest
        default:
            return nil
        }
    }
}
