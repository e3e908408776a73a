import ArgumentParser
import Foundation
import MIDIVizCore
import MIDIVizEngine
import MIDIVizIO

/// `midiviz demo [-o demo.mp4]`: the original app's built-in C-major arpeggio, no input file.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo", abstract: "Render the built-in C-major arpeggio demo to demo.mp4.")

    @OptionGroup var outputs: OutputOptions
    @OptionGroup var renderArguments: AllRenderOptions

    /// The render options: config files, then the command line's (any size without a video).
    func renderOptions() throws -> RenderOptions { try renderArguments.resolved(forVideo: outputs.writesVideo) }

    func run() throws {
        let options = try renderOptions()
        if renderArguments.config.printConfig {
            print(ConfigFile.toml(options), terminator: "")
            return
        }
        // Its parts could not be told apart (each would be demo.mp4), nor joined: `join --song`
        // needs the song's file. Said before what else --segment would contradict.
        if outputs.segment != nil {
            throw fail("demo renders the whole demo: --segment is for `midiviz render SONG`, whose parts `midiviz join` puts together", code: 64)
        }
        try outputs.check(options)
        let song: Song
        do {
            song = try SongLoader.load(bytes: DemoSong.midiBytes, name: DemoSong.name)
        } catch {
            throw fail(error.description, code: error.exitCode)
        }
        let video = outputs.noVideo || outputs.rawVideoOut != nil ? nil : outputs.output ?? "demo.mp4"
        try RenderRun(
            song: song, songPath: nil, songName: DemoSong.name, videoPath: video, options: options, outputs: outputs,
            configFiles: renderArguments.config.config, segment: try outputs.segment?.resolve(),
            soundOptionsGiven: renderArguments.sound.given.map(\.name), optionsGiven: renderArguments.givenNames
        ).run()
    }
}
