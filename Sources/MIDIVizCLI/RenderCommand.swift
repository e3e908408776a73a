import ArgumentParser
import Foundation
import MIDIVizCore
import MIDIVizIO

/// `midiviz render SONG.mid [-o OUT.mp4]`: the song as a video with its sound.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a song into an MP4 (H.264 + AAC), and/or PNG frames and a WAV.",
        discussion: "Frame n (numbered from 1) shows the song at from + (n-1)/fps seconds, --from rounded to the nearest frame of the whole song (so a range's frames are the whole song's). Without --to, the video runs on until the last notes have faded and the sound has rung out.")

    @Argument(help: "The Standard MIDI File.")
    var song: String

    @OptionGroup var outputs: OutputOptions
    @OptionGroup var look: LookOptions
    @OptionGroup var sound: AudioOptions

    func validate() throws {
        if outputs.noVideo && outputs.framesDirectory == nil && sound.audio == nil {
            throw ValidationError("--no-video leaves nothing to write: add --frames-dir DIR and/or --audio FILE.wav")
        }
        if outputs.noAudio && sound.audio != nil { throw ValidationError("--no-audio and --audio contradict each other") }
        if outputs.segment != nil && sound.audio != nil { throw ValidationError("a segment is silent: `midiviz join` adds the whole song's sound") }
    }

    func run() throws {
        if outputs.printConfig {
            print(ConfigFile.toml(look: look, sound: sound, outputs: outputs), terminator: "")
            return
        }
        let loaded = try loadSongOrExit(song)
        let video = outputs.noVideo || outputs.rawVideoOut != nil ? nil
            : outputs.output ?? URL(fileURLWithPath: song).deletingPathExtension().appendingPathExtension("mp4").path
        try RenderRun(song: loaded, songPath: song, songName: song, videoPath: video, look: look, sound: sound, output: outputs).run()
    }
}
