/// Why options were refused: the option's name (as declared, without dashes) and the values
/// involved. Where the options came from (a flag, a config file's line, a manifest's line) is
/// for the caller to say.
public enum OptionError: Error, Sendable, Equatable {
    /// A text that is not a value of the option: `expected` says what is.
    case invalid(option: String, value: String, expected: String)
    /// A value outside what the option allows: `allowed` says what is.
    case outOfRange(option: String, value: String, allowed: String)
    /// Two options that cannot go together.
    case contradiction(String, String)
    /// A name no option has.
    case unknown(String)
    /// An option that applies to a whole run, given for one song.
    case notPerSong(String)
    /// A value of the wrong kind in a file: `expected` says which kind.
    case wrongKind(option: String, expected: String)

    /// The option the error is about.
    public var option: String {
        switch self {
        case .invalid(let option, _, _), .outOfRange(let option, _, _), .notPerSong(let option), .unknown(let option),
            .wrongKind(let option, _), .contradiction(let option, _):
            return option
        }
    }

    /// The option's name alone: a contradiction's side is the option and its value
    /// (`background transparent`, `only-track 3`).
    public static func optionName(_ named: String) -> String { String(named.prefix { $0 != " " }) }

    /// One line, naming options as `prefix` + name (`--` on the command line, nothing in files).
    public func message(prefix: String) -> String {
        switch self {
        case .invalid(let option, let value, let expected):
            return "\(prefix)\(option): \(value.debugDescription) is not \(expected)"
        case .outOfRange(let option, let value, let allowed):
            return "\(prefix)\(option) must be \(allowed), not \(value)"
        case .contradiction(let first, let second):
            return "\(prefix)\(first) and \(prefix)\(second) contradict each other"
        case .unknown(let option):
            return "\(prefix)\(option): no such option"
        case .notPerSong(let option):
            return "\(prefix)\(option) applies to the whole run, not to one song"
        case .wrongKind(let option, let expected):
            return "\(prefix)\(option): \(expected)"
        }
    }
}
