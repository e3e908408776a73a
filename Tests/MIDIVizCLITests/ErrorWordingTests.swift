import Foundation
import MIDIVizEngine
import Testing

@testable import MIDIVizCLI

/// The command line words the engine's errors, which carry values, with its own flags: the one
/// place that knows them (`RenderError.message`).
@Suite(.timeLimit(.minutes(30)))
struct ErrorWordingTests {
    @Test(arguments: [
        (RenderError.noSoundFont(searched: ["/a.sf2"]), ["--soundfont", "--no-audio", "/a.sf2"]),
        (.ffmpegMissing, ["--frames-dir", "--no-video", "apt-get install ffmpeg"]),
        (.ffmpegStalled(doing: "accepted no frame", seconds: 1), ["ffmpeg accepted no frame for 1 s (--stall-timeout)"]),
        (.opaqueContainer(path: "x.mp4"), ["cannot write x.mp4", "--frames-dir"]),
        (
            .option(.outOfRange(option: "preroll", value: "700.0", allowed: "between 0 and 600 seconds")),
            ["--preroll must be between 0 and 600 seconds, not 700.0"]
        ),
        (.songTooLong(song: "s.mid", seconds: 10, maximumSeconds: 5), ["s.mid", "--max-duration 5 s"]),
    ])
    func namesTheFlags(error: RenderError, words: [String]) {
        for word in words { #expect(error.message.contains(word), "\(error.message)") }
        #expect(!error.description.contains("--"), "\(error.description)")
    }
}
