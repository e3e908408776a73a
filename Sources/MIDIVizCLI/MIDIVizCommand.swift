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

    /// Runs the command line, a bare `--labels` completed first. A file name beginning with `-`
    /// before `--` is refused (exit 64): the parser would read it as options.
    public static func mainExpandingBareOptions() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let name = DashedFileName.first(in: arguments) {
            Foundation.exit(fail(DashedFileName.message(name), code: 64).rawValue)
        }
        let expanded = BareOptions.expand(arguments)
        var command: any ParsableCommand
        do {
            command = try parseAsRoot(expanded)
        } catch {
            // A batch refused for its arguments leaves no earlier run's report.
            if expanded.first == "batch", exitCode(for: error) != .success {
                BatchCommand.removeEarlierReports(givenIn: Array(expanded.dropFirst()))
            }
            exitSaying(error)
        }
        do {
            try command.run()
        } catch {
            exitSaying(error)
        }
    }

    /// `exit(withError:)`, an error's lines written through `say` (an argument's escape
    /// sequence shown as spaces); help and the version as ArgumentParser prints them.
    private static func exitSaying(_ error: any Error) -> Never {
        let code = exitCode(for: error)
        guard code != .success else { exit(withError: error) }
        let message = fullMessage(for: error)
        if !message.isEmpty {
            for line in message.trimmingCharacters(in: .newlines).split(separator: "\n", omittingEmptySubsequences: false) { say(String(line)) }
        }
        Foundation.exit(code.rawValue)
    }
}
