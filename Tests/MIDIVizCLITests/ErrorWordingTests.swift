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
        // Not cut to whole seconds: "lasts 179 s, more than 179 s" read as a contradiction.
        (.songTooLong(song: "s.mid", seconds: 179.999, maximumSeconds: 179.9), ["lasts 179.999 s", "--max-duration 179.9 s"]),
        (.segmentContainer(path: "p.webm"), ["p.webm", "--segment", ".mp4"]),
        (.joinContainer(path: "x.webm"), ["x.webm", ".mp4"]),
        (.badPart(path: "p-2.mp4", problem: .notASegment), ["p-2.mp4", "render --segment K/N"]),
        (.badPart(path: "p-2.mp4", problem: .otherOptions), ["p-2.mp4", "--style", "--preroll"]),
        (.badPart(path: "p-2.mp4", problem: .otherEncoding(than: "p-1.mp4")), ["p-2.mp4", "p-1.mp4", "--crf"]),
        (.badPart(path: "b.mp4", problem: .duplicate(of: "a.mp4", index: 2, count: 3)), ["b.mp4 and a.mp4 are both segment 2 of 3"]),
        (.badPart(path: "a.mp4", problem: .duplicate(of: "a.mp4", index: 2, count: 3)), ["a.mp4 is given twice"]),
        (.missingParts(indices: [2], count: 3), ["part 2 of 3 is missing"]),
        (.missingParts(indices: [2, 5], count: 7), ["parts 2 and 5 of 7 are missing"]),
        (.missingParts(indices: [2, 4, 5], count: 7), ["parts 2, 4 and 5 of 7 are missing"]),
        (.missingParts(indices: Array(2...30), count: 30), ["parts 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 and 19 more of 30 are missing"]),
    ])
    func namesTheFlags(error: RenderError, words: [String]) {
        for word in words { #expect(error.message.contains(word), "\(error.message)") }
        #expect(!error.description.contains("--"), "\(error.description)")
    }
}
