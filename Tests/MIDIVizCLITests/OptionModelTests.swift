import Foundation
import MIDIVizCore
import MIDIVizEngine
import PropertyBased
import Testing

@testable import MIDIVizCLI

/// Every declared option, walked from `RenderOptions.declarations` (no hand list): set by a
/// flag, a config file and a manifest line it gives the same options; `--print-config` reads
/// back as the same options.
@Suite(.timeLimit(.minutes(30)))
struct OptionModelTests {
    static let names = RenderOptions.declarations.map(\.name)

    /// A folder of its own, removed by the caller.
    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("midiviz-options-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The declaration's example, files as absolute paths (relative ones are tested apart).
    static func example(_ declaration: OptionDeclaration) -> String {
        declaration.isPath ? "/opt/midiviz-test/" + declaration.example : declaration.example
    }

    static func tomlLine(_ declaration: OptionDeclaration, _ text: String) -> String {
        // A number option's fraction (fps 30000/1001) is a string in TOML and JSON.
        let literal = declaration.isNumber && Double(text) != nil ? text : ConfigFile.quoted(text)
        switch declaration.kind {
        case .flag: return "\(declaration.name) = \(text)"
        case .value: return "\(declaration.name) = \(literal)"
        case .list: return "\(declaration.name) = [\(literal)]"
        }
    }

    static func jsonValue(_ declaration: OptionDeclaration, _ text: String) -> String {
        let literal = declaration.isNumber && Double(text) != nil || declaration.kind == .flag ? text : "\"\(text)\""
        return declaration.kind == .list ? "[\(literal)]" : literal
    }

    @Test(arguments: names)
    func anOptionByFlagConfigFileAndManifestGivesTheSameOptions(name: String) throws {
        let declaration = try #require(RenderOptions.declaration(name))
        let text = Self.example(declaration)
        var expected = RenderOptions()
        try declaration.set([text], in: &expected)
        #expect(expected != RenderOptions(), "the example of \(name) changes nothing")

        let flag = declaration.kind == .flag ? ["--\(name)"] : ["--\(name)=\(text)"]
        let command = try #require(try MIDIVizCommand.parseAsRoot(["render", "song.mid"] + flag) as? RenderCommand)
        #expect(try command.renderOptions() == expected, "by flag")

        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let config = folder + "/look.toml"
        try (Self.tomlLine(declaration, text) + "\n").write(toFile: config, atomically: true, encoding: .utf8)
        var fromFile = RenderOptions()
        try ConfigFile.apply(config, to: &fromFile)
        #expect(fromFile == expected, "by config file")

        let manifest = folder + "/songs.jsonl"
        // To a .webm, which carries alpha: `background = transparent` into an .mp4 is refused.
        try "{\"input\": \"song.mid\", \"output\": \"song.webm\", \"\(name)\": \(Self.jsonValue(declaration, text))}\n".write(
            toFile: manifest, atomically: true, encoding: .utf8)
        if declaration.perSong {
            let songs = try BatchPlan.make(inputs: [manifest], outputDirectory: folder + "/out", options: RenderOptions()).songs
            #expect(songs.count == 1 && songs.first?.options == expected, "by manifest line")
        } else {
            #expect(throws: BatchError.usage("\(manifest):1: \(name) applies to the whole run, not to one song")) {
                try BatchPlan.make(inputs: [manifest], outputDirectory: folder + "/out", options: RenderOptions())
            }
        }
    }

    /// Commands that take render options take them all the same way: every option of their
    /// groups by flag, and `--config`.
    @Test(arguments: [
        ["render", "song.mid"], ["demo"], ["batch", "in", "--output-dir", "out"], ["frame", "song.mid", "--at", "1", "-o", "x.png"],
        ["join", "p.mp4", "--song", "song.mid", "-o", "x.mp4"],
    ])
    func everyCommandTakesConfigFilesAndItsGroupsOptions(command: [String]) throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "style = \"keyboard\"\ngain = 0.5\n".write(toFile: folder + "/look.toml", atomically: true, encoding: .utf8)
        let parsed = try MIDIVizCommand.parseAsRoot(command + ["--config", folder + "/look.toml", "--speed", "1.5"])
        let options: RenderOptions
        switch parsed {
        case let render as RenderCommand: options = try render.renderOptions()
        case let demo as DemoCommand: options = try demo.renderOptions()
        case let batch as BatchCommand: options = try batch.renderOptions()
        case let frame as FrameCommand: options = try frame.renderOptions()
        case let join as JoinCommand: options = try join.renderOptions()
        default: Issue.record("\(command[0]) parsed as \(type(of: parsed))"); return
        }
        #expect(options.style == .keyboard && options.speed == 1.5 && options.gain == 0.5)
    }

    /// `--print-config` output read back with `--config` is the same options, for any
    /// combination: each option set to its example or left, a title of any characters.
    @Test func printedConfigReadsBackAsTheSameOptions() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let declarations = RenderOptions.declarations
        // Quotes, backslashes and line ends often; any ASCII and Latin-1; any scalar now and then.
        let specials: [Character] = ["\"", "\\", "\n", "\r\n", "\t", "'", "#", "="]
        let characters = Gen.int(in: 0...2_000).map { value -> Character in
            if value < 40 { return specials[value % specials.count] }
            if value < 300 { return Character(Unicode.Scalar(UInt8((value - 40) % 256))) }
            return Unicode.Scalar(UInt32(value * 557) % 0x11_0000).map(Character.init) ?? "x"
        }
        await propertyCheck(count: 150, input: Gen.bool.array(of: declarations.count), characters.array(of: 0...24)) { chosen, title in
            // PropertyBased 2.0.1 drops what the body throws (Swift 6.2 and later): recorded here.
            do {
                var options = RenderOptions()
                for (declaration, isSet) in zip(declarations, chosen) where isSet {
                    try declaration.set([Self.example(declaration)], in: &options)
                }
                options.title = String(title)
                // A NUL is refused (a C string would end there); the rest is any text.
                guard !options.title!.unicodeScalars.contains("\0") else {
                    #expect(throws: OptionError.self) { try options.validate() }
                    return
                }
                let file = folder + "/printed.toml"
                try ConfigFile.toml(options).write(toFile: file, atomically: true, encoding: .utf8)
                var read = RenderOptions()
                try ConfigFile.apply(file, to: &read)
                #expect(read == options, "\(ConfigFile.toml(options))")
            } catch {
                Issue.record(error, "threw")
            }
        }
    }

    /// Relative paths: in a config file from the file's folder, in a manifest from the
    /// manifest's folder; `--print-config` writes them absolute, so they read back the same.
    @Test func relativePathsAreFromTheFilesFolder() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/looks", withIntermediateDirectories: true)
        try "background-image = \"pictures/sky.png\"\nfont = \"../fonts/a.ttf\"\n".write(toFile: folder + "/looks/a.toml", atomically: true, encoding: .utf8)
        var options = RenderOptions()
        try ConfigFile.apply(folder + "/looks/a.toml", to: &options)
        #expect(options.backgroundImage == folder + "/looks/pictures/sky.png")
        #expect(options.font == folder + "/looks/../fonts/a.ttf")
        try "{\"input\": \"a.mid\", \"background-image\": \"sky.png\", \"soundfont\": \"/abs/gm.sf2\"}\n"
            .write(toFile: folder + "/looks/songs.jsonl", atomically: true, encoding: .utf8)
        let songs = try BatchPlan.make(inputs: [folder + "/looks/songs.jsonl"], outputDirectory: folder + "/out", options: RenderOptions()).songs
        #expect(songs.first?.options.backgroundImage == folder + "/looks/sky.png")
        #expect(songs.first?.options.soundFont == "/abs/gm.sf2")
        #expect(songs.first?.input == folder + "/looks/a.mid")

        var relative = RenderOptions()
        relative.backgroundImage = "sky.png"
        let printed = ConfigFile.toml(relative)
        #expect(printed.contains("background-image = \"\(FileManager.default.currentDirectoryPath)/sky.png\""), "\(printed)")
    }

    /// The command line wins over config files, and a later file over an earlier one.
    @Test func theCommandLineWinsOverConfigFiles() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "style = \"keyboard\"\nfps = 30\nhide-track = [1, 2]\n".write(toFile: folder + "/a.toml", atomically: true, encoding: .utf8)
        try "fps = 24\n".write(toFile: folder + "/b.toml", atomically: true, encoding: .utf8)
        let command = try #require(
            try MIDIVizCommand.parseAsRoot([
                "render", "s.mid", "--config", folder + "/a.toml", "--config", folder + "/b.toml",
                "--hide-track", "3",
            ]) as? RenderCommand)
        let options = try command.renderOptions()
        #expect(options.style == .keyboard && options.fps == FrameRate(24) && options.hiddenTracks == [3])
    }

    /// The command line's option groups are exactly the declarations:
    /// `OptionArguments+Generated.swift` is what `scripts/generate-options` writes now.
    @Test func theCommandLineListsEveryDeclaredOption() throws {
        let help = RenderCommand.helpMessage(columns: 200)
        for declaration in RenderOptions.declarations {
            #expect(help.contains("--\(declaration.name)"), "render --help lacks --\(declaration.name)")
        }
        let batchHelp = BatchCommand.helpMessage(columns: 200)
        for refused in ["--frames-dir", "--audio", "--no-video", "--segment", "--raw-video-out"] {
            #expect(!batchHelp.contains(refused), "batch --help lists \(refused)")
        }
    }

    /// An escaped NUL in a config's string is refused, naming the line (TOML's parser would end
    /// the string there); an escaped backslash before `u0000` is text.
    @Test func configRefusesAnEscapedNUL() throws {
        let folder = NSTemporaryDirectory() + "midiviz-nul-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/look.toml"
        for escape in [#"\u0000"#, #"\U00000000"#, #"\\\u0000"#] {
            try "fps = 30\ntitle = \"a\(escape)b\"\n".write(toFile: file, atomically: true, encoding: .utf8)
            var options = RenderOptions()
            do {
                try ConfigFile.apply(file, to: &options)
                Issue.record("accepted \(escape)")
            } catch {
                #expect(error.description == "\(file):2: a string holds \\u0000 (NUL), which no option takes")
            }
        }
        try "title = \"a\\\\u0000b\"\n".write(toFile: file, atomically: true, encoding: .utf8)
        var options = RenderOptions()
        try ConfigFile.apply(file, to: &options)
        #expect(options.title == #"a\u0000b"#)
    }
}
