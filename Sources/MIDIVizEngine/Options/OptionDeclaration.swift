/// One option of `RenderOptions`, declared once: its name, kind, help, default, allowed range
/// and whether it may vary per song. Everything that reads or writes options goes through the
/// declarations: the command line, config files, manifests, `--print-config`, records, reports.
package struct OptionDeclaration: Sendable {
    /// A switch (`--grid`), one value (`--style bars`), or a repeatable value (`--hide-track 1 --hide-track 3`).
    package enum Kind: Sendable { case flag, value, list }

    /// Which part of a render the option shapes; commands take whole groups.
    package enum Group: String, Sendable, CaseIterable {
        /// How frames look.
        case look
        /// How the song sounds.
        case sound
        /// The video's encoding, time range and the run.
        case render
        /// The longest song taken.
        case limits
    }

    /// The value an option takes when given without one (`--labels` is `--labels names`), and
    /// its value for "none" (`labels = false` in a file).
    package struct BareValue: Sendable {
        package let value: String
        package let off: String
    }

    /// The long name, without dashes: `color-by`.
    package let name: String
    package let group: Group
    package let kind: Kind
    package let help: String
    /// The value's placeholder in help (`<seconds>`); nil for the property's own.
    package let valueName: String?
    /// The default as typed, said in help; nil where the help says it or there is none.
    package let defaultText: String?
    /// The values shells complete.
    package let choices: [String]
    /// A file: relative paths in a config file or manifest are from that file's folder.
    package let isPath: Bool
    /// May differ between the songs of one batch (a manifest line may set it).
    package let perSong: Bool
    /// A config file writes it as a TOML number.
    package let isNumber: Bool
    /// Takes a value that starts with `-` (`--loudness -16`), so `--speed -1` is told its range
    /// instead of a missing value: every number, and the times `--from` and `--to` (a list of
    /// numbers takes each of its values so too: `--hide-track -1`).
    package let mayBeNegative: Bool
    package let bare: BareValue?
    /// A value other than the default, as typed (in tests and docs).
    package let example: String
    /// Changes what a render writes (so an output made without it is out of date); false for
    /// how the run goes: cores, time limits.
    package let shapesOutput: Bool
    private let assign: @Sendable (inout RenderOptions, [String]) throws(OptionError) -> Void
    private let read: @Sendable (RenderOptions) -> [String]
    private let check: @Sendable (RenderOptions) -> OptionError?
    private let reset: @Sendable (inout RenderOptions) -> Void

    /// Sets the option from the texts given: one for a value, each item for a list, `true` or
    /// `false` for a flag.
    package func set(_ texts: [String], in options: inout RenderOptions) throws(OptionError) {
        try assign(&options, texts)
    }

    /// Sets the option from texts written in a file in `folder` (a config file, a manifest):
    /// a file's relative path is from that folder.
    package func set(_ texts: [String], in options: inout RenderOptions, pathsFrom folder: String) throws(OptionError) {
        try assign(&options, isPath ? texts.map { RenderOptions.resolvePath($0, from: folder) } : texts)
    }

    /// The option's value in `options` as texts that `set` reads back: none when unset (an
    /// optional without a value, an empty list), `true`/`false` for a flag.
    package func texts(of options: RenderOptions) -> [String] { read(options) }

    /// Puts the option back to its default in `options`.
    package func reset(in options: inout RenderOptions) { reset(&options) }

    /// Whether `options` holds this option's default.
    package func isDefault(in options: RenderOptions) -> Bool { read(options) == read(RenderOptions()) }

    /// What is wrong with the option's value alone, if anything. No value holds a NUL: a C
    /// string (a path, a TOML file's text) would end there.
    package func problem(in options: RenderOptions) -> OptionError? {
        if let text = read(options).first(where: { $0.unicodeScalars.contains("\0") }) {
            return .invalid(option: name, value: text, expected: "a text without NUL characters")
        }
        if isPath, read(options).contains("") { return .invalid(option: name, value: "", expected: "a file's path") }
        return check(options)
    }

    init(
        name: String, group: Group, kind: Kind, help: String, valueName: String?, defaultText: String?, choices: [String],
        isPath: Bool, perSong: Bool, isNumber: Bool, mayBeNegative: Bool, bare: BareValue?, example: String?, shapesOutput: Bool = true,
        reset: @escaping @Sendable (inout RenderOptions) -> Void,
        assign: @escaping @Sendable (inout RenderOptions, [String]) throws(OptionError) -> Void,
        read: @escaping @Sendable (RenderOptions) -> [String], check: @escaping @Sendable (RenderOptions) -> OptionError?
    ) {
        self.name = name
        self.group = group
        self.kind = kind
        self.help = help
        self.valueName = valueName
        self.defaultText = defaultText
        self.choices = choices
        self.isPath = isPath
        self.perSong = perSong
        self.isNumber = isNumber
        self.mayBeNegative = mayBeNegative || (isNumber && kind != .flag && bare == nil)
        self.bare = bare
        self.shapesOutput = shapesOutput
        let defaultTexts = read(RenderOptions())
        self.example = example ?? (kind == .flag ? "true" : choices.first { [$0] != defaultTexts } ?? "")
        self.assign = assign
        self.read = read
        self.check = check
        self.reset = reset
    }
}

extension OptionDeclaration {
    /// One value, always set (it has a default).
    static func value<T: OptionValue>(
        _ name: String, _ group: Group, _ keyPath: WritableKeyPath<RenderOptions, T> & Sendable, help: String,
        valueName: String? = nil, expected: String? = nil, showsDefault: Bool = true, choices: [String]? = nil,
        allowed: (@Sendable (T) -> Bool, String)? = nil, perSong: Bool = true, mayBeNegative: Bool = false, bare: BareValue? = nil,
        example: String? = nil, shapesOutput: Bool = true
    ) -> OptionDeclaration {
        OptionDeclaration(
            name: name, group: group, kind: .value, help: help, valueName: valueName,
            defaultText: showsDefault ? RenderOptions()[keyPath: keyPath].optionText : nil, choices: choices ?? Self.choices(T.self),
            isPath: false, perSong: perSong, isNumber: T.isNumber, mayBeNegative: mayBeNegative, bare: bare,
            example: example, shapesOutput: shapesOutput,
            reset: { $0[keyPath: keyPath] = RenderOptions()[keyPath: keyPath] },
            assign: { (options, texts) throws(OptionError) in
                options[keyPath: keyPath] = try parse(name, texts.last ?? "", as: T.self, expected: expected)
            },
            read: { [$0[keyPath: keyPath].optionText] },
            check: { options in
                let value = options[keyPath: keyPath]
                guard let (isAllowed, text) = allowed, !isAllowed(value) else { return nil }
                return .outOfRange(option: name, value: value.messageText, allowed: text)
            })
    }

    /// One value that may be unset (nil: the default the help describes).
    static func optional<T: OptionValue>(
        _ name: String, _ group: Group, _ keyPath: WritableKeyPath<RenderOptions, T?> & Sendable, help: String,
        valueName: String? = nil, expected: String? = nil, choices: [String]? = nil, allowed: (@Sendable (T) -> Bool, String)? = nil,
        isPath: Bool = false, perSong: Bool = true, mayBeNegative: Bool = false, example: String? = nil, shapesOutput: Bool = true
    ) -> OptionDeclaration {
        OptionDeclaration(
            name: name, group: group, kind: .value, help: help, valueName: valueName, defaultText: nil,
            choices: choices ?? Self.choices(T.self), isPath: isPath, perSong: perSong, isNumber: T.isNumber, mayBeNegative: mayBeNegative,
            bare: nil, example: example, shapesOutput: shapesOutput,
            reset: { $0[keyPath: keyPath] = RenderOptions()[keyPath: keyPath] },
            assign: { (options, texts) throws(OptionError) in
                options[keyPath: keyPath] = try parse(name, texts.last ?? "", as: T.self, expected: expected)
            },
            read: { options in options[keyPath: keyPath].map { [$0.optionText] } ?? [] },
            check: { options in
                guard let value = options[keyPath: keyPath], let (isAllowed, text) = allowed, !isAllowed(value) else { return nil }
                return .outOfRange(option: name, value: value.messageText, allowed: text)
            })
    }

    /// A switch, off by default.
    static func flag(
        _ name: String, _ group: Group, _ keyPath: WritableKeyPath<RenderOptions, Bool> & Sendable, help: String,
        perSong: Bool = true
    ) -> OptionDeclaration {
        OptionDeclaration(
            name: name, group: group, kind: .flag, help: help, valueName: nil, defaultText: nil, choices: [], isPath: false,
            perSong: perSong, isNumber: false, mayBeNegative: false, bare: nil, example: "true",
            reset: { $0[keyPath: keyPath] = RenderOptions()[keyPath: keyPath] },
            assign: { (options, texts) throws(OptionError) in
                switch texts.last {
                case "true", "1": options[keyPath: keyPath] = true
                case "false", "0": options[keyPath: keyPath] = false
                default: throw .wrongKind(option: name, expected: "a flag: true or false")
                }
            },
            read: { [String($0[keyPath: keyPath])] },
            check: { _ in nil })
    }

    /// A repeatable value; each item is checked.
    static func list<T: OptionValue>(
        _ name: String, _ group: Group, _ keyPath: WritableKeyPath<RenderOptions, [T]> & Sendable, help: String,
        valueName: String? = nil, expected: String? = nil, allowed: (@Sendable (T) -> Bool, String)? = nil, example: String
    ) -> OptionDeclaration {
        OptionDeclaration(
            name: name, group: group, kind: .list, help: help, valueName: valueName, defaultText: nil, choices: [],
            isPath: false, perSong: true, isNumber: T.isNumber, mayBeNegative: false, bare: nil, example: example,
            reset: { $0[keyPath: keyPath] = RenderOptions()[keyPath: keyPath] },
            assign: { (options, texts) throws(OptionError) in
                var values: [T] = []
                for text in texts { values.append(try parse(name, text, as: T.self, expected: expected)) }
                options[keyPath: keyPath] = values
            },
            read: { $0[keyPath: keyPath].map(\.optionText) },
            check: { options in
                guard let (isAllowed, text) = allowed,
                    let value = options[keyPath: keyPath].first(where: { !isAllowed($0) })
                else { return nil }
                return .outOfRange(option: name, value: value.messageText, allowed: text)
            })
    }

    private static func parse<T: OptionValue>(_ name: String, _ text: String, as type: T.Type, expected: String?) throws(OptionError) -> T {
        guard let value = T(optionText: text) else {
            throw .invalid(option: name, value: text, expected: expected ?? Self.expected(T.self))
        }
        return value
    }

    private static func choices<T: OptionValue>(_ type: T.Type) -> [String] {
        guard let choice = type as? any OptionChoice.Type else { return [] }
        return choice.names
    }

    private static func expected<T: OptionValue>(_ type: T.Type) -> String {
        if T.self == Int.self { return "a whole number" }
        if T.self == Double.self { return "a number" }
        let names = choices(type)
        return names.isEmpty ? "a value" : "one of " + names.joined(separator: ", ")
    }
}

extension OptionChoice {
    static var names: [String] { allCases.map(\.rawValue) }
}

/// `lower...upper` as an allowed range, with its text.
func between<T: Comparable & OptionValue>(_ range: ClosedRange<T>) -> (@Sendable (T) -> Bool, String) {
    ({ range.contains($0) }, "between \(range.lowerBound.optionText) and \(range.upperBound.optionText)")
}
