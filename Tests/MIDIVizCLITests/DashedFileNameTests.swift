import Testing

@testable import MIDIVizCLI

/// `render -dash.mid` printed the help and exited 0: the parser read `-d -a -s -h`. A file
/// name beginning with `-` before `--` is found first and refused.
@Suite(.timeLimit(.minutes(30)))
struct DashedFileNameTests {
    @Test func namesBeforeTheDashesAreFoundAndValuesAreNot() {
        #expect(DashedFileName.first(in: ["render", "-dash.mid"]) == "-dash.mid")
        #expect(DashedFileName.first(in: ["render", "song.mid", "-o", "-x.mp4"]) == "-x.mp4")
        #expect(DashedFileName.first(in: ["batch", "-a.KAR", "--output-dir", "v"]) == "-a.KAR")
        #expect(DashedFileName.first(in: ["render", "--", "-dash.mid"]) == nil)
        #expect(DashedFileName.first(in: ["render", "./-dash.mid", "--output=-x.mp4"]) == nil)
        #expect(DashedFileName.first(in: ["render", "s.mid", "--loudness", "-23.5", "--gain", "-3", "-o", "a.mp4", "-h"]) == nil)
        #expect(DashedFileName.message("-dash.mid").contains("./-dash.mid"))
    }
}
