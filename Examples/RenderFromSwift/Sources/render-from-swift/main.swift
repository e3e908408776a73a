// render-from-swift [SONG.mid] [FRAME.png] [VIDEO.mp4]: one frame of the song as a PNG and its
// first 3 seconds as a silent MP4 (defaults: the built-in demo song, frame.png, video.mp4).
import Foundation
import MIDIVizCore  // Song, DemoSong
import MIDIVizEngine  // RenderOptions, PosterRender, RenderRequest, RenderJob, RenderError
import MIDIVizIO  // SongLoader

let arguments = Array(CommandLine.arguments.dropFirst())
let songPath = arguments.count > 0 ? arguments[0] : nil
let framePath = arguments.count > 1 ? arguments[1] : "frame.png"
let videoPath = arguments.count > 2 ? arguments[2] : "video.mp4"

do {
    let song: Song
    if let songPath {
        song = try SongLoader.load(path: songPath)
    } else {
        song = try SongLoader.load(bytes: DemoSong.midiBytes, name: DemoSong.name)
    }

    var options = RenderOptions()
    options.style = .keyboard
    options.size = FrameSize(width: 1280, height: 720)
    options.to = .seconds(3)  // the song's first 3 seconds,
    options.preroll = 0  // without the style's lead-in before them
    options.noAudio = true  // a silent video: no SoundFont needed

    // One frame, 1 s into the song.
    try PosterRender.render(song: song, songPath: songPath, options: options, atSeconds: 1, to: framePath)
    print("wrote \(framePath)")

    // The video. Nothing appears at videoPath unless the whole render succeeds.
    let request = try RenderRequest(
        song: song, songPath: songPath, songName: songPath ?? DemoSong.name, options: options,
        outputs: [.mp4(path: videoPath)], defaultJobs: ProcessInfo.processInfo.activeProcessorCount)
    let summary = try RenderJob(request).run()
    print("wrote \(videoPath): \(summary.frames) frames, \(String(format: "%.2f", summary.durationSeconds)) s")
} catch {
    // RenderError and LoadError: the line and the exit code the midiviz command gives.
    FileHandle.standardError.write(Data("render-from-swift: \(error)\n".utf8))
    exit((error as? RenderError)?.exitCode ?? (error as? LoadError)?.exitCode ?? 1)
}
