import ArgumentParser
import MIDIVizEngine

/// A group of declared options as the command line gave them (`OptionArguments+Generated.swift`).
protocol GivenOptions {
    var given: [(name: String, texts: [String])] { get }
}

extension ArgumentHelp {
    /// A declared option's help, with its default as typed.
    static func declared(_ name: String) -> ArgumentHelp {
        guard let declaration = RenderOptions.declaration(name) else { return ArgumentHelp() }
        let text = declaration.defaultText.map { declaration.help + " (default: \($0))" } ?? declaration.help
        return ArgumentHelp(text, valueName: declaration.valueName)
    }

    /// The help of the flag that turns off a `no-` flag (`--with-reverb`), over a config file.
    static func inverse(of name: String) -> ArgumentHelp {
        ArgumentHelp("Undo --\(name) (set in a config file).")
    }
}

extension CompletionKind {
    /// What shells complete for a declared option: files, its choices, or anything.
    static func declared(_ name: String) -> CompletionKind {
        guard let declaration = RenderOptions.declaration(name) else { return .default }
        if declaration.isPath { return .file() }
        return declaration.choices.isEmpty ? .default : .list(declaration.choices)
    }
}

/// `--config` and `--print-config`, taken by every command that takes render options.
struct ConfigArguments: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Read options from this TOML file (their long names as keys, e.g. style = \"keyboard\"; relative paths from the file's folder); repeatable, later files win; the command line wins over all.",
            valueName: "file"))
    var config: [String] = []

    @Flag(name: .customLong("print-config"), help: "Print the options in effect as TOML for --config, and render nothing.")
    var printConfig = false

    func validate() throws {
        if config.contains("") { throw ValidationError("--config needs a file's name, not an empty one") }
    }

    /// The render options: the defaults, then each config file, then the command line's
    /// options; all checked. Prints the error and exits 64 (66 for an unreadable file).
    /// - Parameter forVideo: whether the frames go to a video, whose sides must be even.
    func options(_ groups: [any GivenOptions], forVideo: Bool = true) throws -> RenderOptions {
        var options = RenderOptions()
        var origins: [String: String] = [:]
        do {
            for file in config { try ConfigFile.apply(file, to: &options, origins: &origins) }
        } catch {
            throw fail(error.description, code: error.exitCode)
        }
        // The options the command line gave, which win over the files'.
        let given = Set(groups.flatMap { $0.given.map(\.name) })
        do throws(OptionError) {
            for group in groups {
                for (name, texts) in group.given {
                    guard let declaration = RenderOptions.declaration(name) else { throw .unknown(name) }
                    try declaration.set(texts, in: &options)
                }
            }
            // The command line wins over the files: an option a file set that contradicts one
            // given here is put back to its default (a file's `background-image` under
            // `--background transparent`).
            try options.settle(preferring: given, forVideo: forVideo)
        } catch {
            // A value only a file gave, refused with the others: named as the file names it.
            let option = OptionError.optionName(error.option)
            if !given.contains(option), let origin = origins[option] {
                throw fail("\(origin): \(error.message(prefix: ""))", code: 64)
            }
            throw fail(error.message(prefix: "--"), code: 64)
        }
        return options
    }
}

/// Every render option and `--config`: what `render`, `demo` and `batch` take.
struct AllRenderOptions: ParsableArguments {
    @OptionGroup var config: ConfigArguments
    @OptionGroup var look: LookArguments
    @OptionGroup var sound: SoundArguments
    @OptionGroup var render: RenderArguments
    @OptionGroup var limits: LimitsArguments

    /// The render options: config files, then the command line's.
    func resolved(forVideo: Bool = true) throws -> RenderOptions { try config.options([look, sound, render, limits], forVideo: forVideo) }

    /// The names of the render options the command line gave.
    var givenNames: [String] { ([look, sound, render, limits] as [any GivenOptions]).flatMap { $0.given.map(\.name) } }
}
