import ArgumentParser
import Foundation
import MIDIVizCore
import MIDIVizEngine
import MIDIVizIO

/// `midiviz render SONG.mid [-o OUT.mp4]`: the song as a video with its sound.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a song into an MP4 (H.264 + AAC), and/or PNG frames and a WAV.",
        discussion:
            "Frame n (numbered from 1) shows the song at from + (n-1)/fps seconds, --from rounded to the nearest frame of the whole song (so a range's frames are the whole song's). Without --to, the video runs on until the last notes have faded and the sound has rung out."
    )

    @Argument(help: "The song: a Standard MIDI File (.mid, .midi, .kar, .rmi) or a score (.musicxml, .xml, .mxl, .mscz, .mscx).")
    var song: String

    @OptionGroup var outputs: OutputOptions
    @OptionGroup var renderArguments: AllRenderOptions

    /// The render options: config files, then the command line's.
    /// PNG frames and a WAV alone may have any size; a video's sides must be even.
    func renderOptions() throws -> RenderOptions { try renderArguments.resolved(forVideo: outputs.writesVideo) }

    func run() throws {
        let options = try renderOptions()
        if renderArguments.config.printConfig {
            print(ConfigFile.toml(options), terminator: "")
            return
        }
        try outputs.check(options)
        let segment = try outputs.segment?.resolve()
        let loaded = try loadSongOrExit(song)
        // A segment is named after its share unless -o says otherwise: SONG.part-K-of-N.mp4.
        let stem = URL(fileURLWithPath: song).deletingPathExtension()
        let video =
            outputs.noVideo || outputs.rawVideoOut != nil
            ? nil
            : outputs.output ?? (segment.map { stem.path + ".part-\($0.index)-of-\($0.count).mp4" } ?? stem.appendingPathExtension("mp4").path)
        try RenderRun(
            song: loaded, songPath: song, songName: song, videoPath: video, options: options, outputs: outputs,
            configFiles: renderArguments.config.config, segment: segment,
            soundOptionsGiven: renderArguments.sound.given.map(\.name), optionsGiven: renderArguments.givenNames
        ).run()
    }
}
