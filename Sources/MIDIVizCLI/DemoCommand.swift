import ArgumentParser
import Foundation
import MIDIVizCore
import MIDIVizIO

/// `midiviz demo [-o demo.mp4]`: the original app's built-in C-major arpeggio, no input file.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo", abstract: "Render the built-in C-major arpeggio demo to demo.mp4.")

    @OptionGroup var outputs: OutputOptions
    @OptionGroup var look: LookOptions
    @OptionGroup var sound: AudioOptions

    func run() throws {
        if outputs.printConfig {
            print(ConfigFile.toml(look: look, sound: sound, outputs: outputs), terminator: "")
            return
        }
        let song: Song
        do {
            song = try SongLoader.load(bytes: DemoSong.midiBytes, name: DemoSong.name)
        } catch {
            throw fail(error.description, code: error.exitCode)
        }
        let video = outputs.noVideo || outputs.rawVideoOut != nil ? nil : outputs.output ?? "demo.mp4"
        try RenderRun(song: song, songPath: nil, songName: DemoSong.name, videoPath: video, look: look, sound: sound, output: outputs).run()
    }
}
