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

    /// Runs the command line, a bare `--labels` completed first.
    public static func mainExpandingBareOptions() {
        main(BareOptions.expand(Array(CommandLine.arguments.dropFirst())))
    }
}
