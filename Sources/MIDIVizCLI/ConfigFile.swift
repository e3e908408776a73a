import ArgumentParser
import Foundation
import MIDIVizCore
import MIDIVizIO
import TOMLKit

/// `--config look.toml`: `render` (and `demo`) options kept in a TOML file by their long names,
/// `style = "keyboard"`, `fps = 30`, `chords = true`. The file's options go before the command
/// line's, so a flag given on the command line wins. An unknown key, a value of the wrong kind
/// or one the option refuses names the file, the line and the key (exit 64).
enum ConfigFile {
    struct Failure: Error, CustomStringConvertible {
        var description: String
        /// 64 for a bad file, 66 for one that cannot be read.
        var exitCode: Int32 = 64
    }

    /// The options that name files: relative paths in a config file are from the file's folder.
    static let pathKeys: Set<String> = ["background-image", "font", "soundfont"]

    /// The subcommands that take `--config`.
    static let commands: [String: ParsableCommand.Type] = ["render": RenderCommand.self, "demo": DemoCommand.self,
                                                           "batch": BatchCommand.self]

    /// The arguments (without the program's name) with every `--config FILE` replaced by the
    /// file's options, put right after the subcommand.
    static func expand(_ arguments: [String]) throws(Failure) -> [String] {
        guard let name = arguments.first, let command = commands[name] else { return arguments }
        var rest: [String] = [], files: [String] = []
        var index = 1
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" { rest += arguments[index...]; break }
            if argument == "--config" {
                guard index + 1 < arguments.count else { throw Failure(description: "--config needs a file: --config look.toml") }
                files.append(arguments[index + 1])
                index += 2
                continue
            }
            if argument.hasPrefix("--config=") {
                files.append(String(argument.dropFirst("--config=".count)))
            } else {
                rest.append(argument)
            }
            index += 1
        }
        var fromFiles: [String] = []
        for file in files { fromFiles += try options(in: file, for: command) }
        return [name] + fromFiles + rest
    }

    /// `--key=value`; an empty value as its own argument (`--title ""`), since `--key=` would
    /// take the next argument as its value.
    static func option(_ key: String, _ value: String) -> [String] {
        value.isEmpty ? ["--" + key, ""] : ["--\(key)=" + value]
    }

    /// A file's options as command-line arguments, each checked on its own.
    static func options(in path: String, for command: ParsableCommand.Type) throws(Failure) -> [String] {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            let problem = RegularFile.problem(at: path)
            throw Failure(description: "cannot read config \(path): \(problem ?? "not UTF-8 text")", exitCode: problem == nil ? 64 : 66)
        }
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw Failure(description: "\(path):\(error.source.begin.line): not TOML: \(error.description)")
        } catch {
            throw Failure(description: "\(path): not TOML: \(error)")
        }
        let known = knownOptions(of: command)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        func line(of key: String) -> Int {
            let pattern = try? NSRegularExpression(pattern: "^\\s*[\"']?\(NSRegularExpression.escapedPattern(for: key))[\"']?\\s*=")
            for (number, line) in lines.enumerated() {
                let text = String(line)
                if pattern?.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil { return number + 1 }
            }
            return 1
        }
        var arguments: [String] = []
        for (key, value) in table {
            let place = "\(path):\(line(of: key)): \(key)"
            guard let kind = known[key] else {
                if value.table != nil { throw Failure(description: "\(place): tables are not options; write the keys at the top level") }
                throw Failure(description: "\(place): unknown key (keys are `\(commandName(command))` options by their long names, as in --help)")
            }
            var these: [String]
            switch (kind, value.type) {
            case (.flag, .bool):
                these = value.bool! ? ["--" + key] : []
            case (.flag, _):
                throw Failure(description: "\(place): a flag: true or false")
            // `--key=value`, so that a negative number is a value, not an option.
            case (.option, .string) where pathKeys.contains(key):
                let named = value.string!
                let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
                these = option(key, named.hasPrefix("/") || named.isEmpty ? named : folder.appendingPathComponent(named).path)
            case (.option, .string):
                these = option(key, value.string!)
            case (.option, .int):
                these = ["--\(key)=\(value.int!)"]
            case (.option, .double):
                these = ["--\(key)=\(value.double!)"]
            case (.option, .array):
                // A repeatable option: `hide-track = [1, 3]`.
                these = []
                for element in value.array! {
                    let item = element.tomlValue
                    switch item.type {
                    case .string: these += option(key, item.string!)
                    case .int: these.append("--\(key)=\(item.int!)")
                    case .double: these.append("--\(key)=\(item.double!)")
                    default: throw Failure(description: "\(place): a list of strings or numbers")
                    }
                }
            case (.option, .bool) where BareOptions.defaults["--" + key] != nil:
                // An option that may stand alone: `labels = true` as `--labels`, false as off.
                let bare = BareOptions.defaults["--" + key]!
                these = option(key, value.bool! ? bare.value : bare.off)
            case (.option, _):
                throw Failure(description: "\(place): a value: a string or a number")
            }
            // Each option is checked alone, with a stand-in song, so the error is the file's.
            if !these.isEmpty {
                do {
                    _ = try command.parseAsRoot((command == DemoCommand.self ? [] : ["song.mid"]) + these)
                } catch {
                    let message = command.message(for: error)
                    // A value's own error; what several options say together is the whole command line's.
                    if message.hasPrefix("The value ") || message.hasPrefix("--\(key) must") {
                        throw Failure(description: "\(place): \(message)")
                    }
                }
            }
            arguments += these
        }
        return arguments
    }

    enum Kind { case flag, option }

    /// The long names of a command's options and flags, from its help's own description.
    static func knownOptions(of command: ParsableCommand.Type) -> [String: Kind] {
        struct Dump: Decodable {
            struct Command: Decodable { var arguments: [Argument]? }
            struct Argument: Decodable {
                struct Name: Decodable { var kind: String; var name: String }
                var kind: String
                var names: [Name]?
            }
            var command: Command
        }
        guard let dump = try? JSONDecoder().decode(Dump.self, from: Data(command._dumpHelp().utf8)) else { return [:] }
        var known: [String: Kind] = [:]
        for argument in dump.command.arguments ?? [] where argument.kind != "positional" {
            for name in argument.names ?? [] where name.kind == "long" && !["config", "print-config", "help", "version"].contains(name.name) {
                known[name.name] = argument.kind == "flag" ? .flag : .option
            }
        }
        return known
    }

    private static func commandName(_ command: ParsableCommand.Type) -> String {
        command.configuration.commandName ?? "render"
    }

    /// The settings in effect, as a TOML file `--config` reads back: the look, the sound and
    /// the encoding (not the inputs, outputs or how the run reports).
    static func toml(look: LookOptions, sound: AudioOptions, outputs: OutputOptions) -> String {
        var lines = ["# midiviz render --config FILE: these options by their long names; the command line wins."]
        func add(_ key: String, _ value: String?) { if let value { lines.append("\(key) = \(value)") } }
        func text(_ value: String?) -> String? {
            value.map { "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
        }
        func number(_ value: Double?) -> String? { value.map { String($0) } }
        add("style", text(look.style.rawValue))
        add("scheme", text(look.scheme.rawValue))
        add("color-by", text(look.colorBy.rawValue))
        add("bars", text(look.bars.rawValue))
        add("size", text("\(look.size.width)x\(look.size.height)"))
        add("fps", String(look.fps))
        add("speed", number(look.speed))
        add("grid", String(look.grid))
        switch look.background {
        case .color(let color)?: add("background", text(color.hex))
        case .transparent?: add("background", text("transparent"))
        case nil: break
        }
        add("background-image", text(look.backgroundImage))
        add("background-dim", number(look.backgroundDim))
        add("window", number(look.window))
        add("keys", text(look.keys.rawValue))
        add("chords", String(look.chords))
        add("labels", text(look.labels.rawValue))
        add("lyrics", String(look.lyrics))
        add("effects", String(look.effects))
        add("title", text(look.title))
        func list(_ items: [String]) -> String? { items.isEmpty ? nil : "[" + items.joined(separator: ", ") + "]" }
        add("track-color", list(look.trackColor.map { text($0.text)! }))
        add("channel-color", list(look.channelColor.map { text($0.text)! }))
        add("hide-track", list(look.hideTrack.map(String.init)))
        add("hide-channel", list(look.hideChannel.map(String.init)))
        add("only-track", list(look.onlyTrack.map(String.init)))
        add("font", text(look.fontOption))
        add("soundfont", text(sound.soundfont))
        add("sample-rate", String(sound.sampleRate))
        add("gain", number(sound.gain))
        add("no-reverb", String(sound.noReverb))
        add("no-chorus", String(sound.noChorus))
        add("mute-hidden", String(sound.muteHidden))
        add("max-tail", number(sound.maxTailOption))
        switch sound.loudness {
        case .target(let lufs): add("loudness", number(lufs))
        case .off: add("loudness", text("off"))
        }
        add("crf", String(outputs.crf))
        add("preset", text(outputs.preset))
        add("preroll", number(outputs.preroll))
        add("postroll", number(outputs.postroll))
        add("no-audio", String(outputs.noAudio))
        return lines.joined(separator: "\n") + "\n"
    }
}
