import ArgumentParser
import Foundation
import MIDIVizCore

/// The `midiviz` command line.
public struct MIDIVizCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "midiviz",
        abstract: "Render a Standard MIDI File into a music-visualization video, offline.",
        version: MIDIVizVersion.current,
        subcommands: [RenderCommand.self, BatchCommand.self, JoinCommand.self, DemoCommand.self, FrameCommand.self, InfoCommand.self])

    public init() {}

    /// Runs the command line, `--config` files read first (and a bare `--labels` completed).
    public static func mainExpandingConfig() {
        do {
            main(BareOptions.expand(try ConfigFile.expand(Array(CommandLine.arguments.dropFirst()))))
        } catch {
            FileHandle.standardError.write(Data("midiviz: \(error.description)\n".utf8))
            Foundation.exit(error.exitCode)
        }
    }
}
