import ArgumentParser
import Foundation
import MIDIVizEngine

/// Where a render's outputs go and how it reports, for `render` and `demo` (not declared
/// options: a batch names each song's outputs itself).
struct OutputOptions: ParsableArguments {
    @Option(
        name: .shortAndLong,
        help:
            "The video to write, by its extension: .mp4 (H.264 + AAC), .mov (ProRes + PCM), .webm (VP9 + Opus) or .gif (default: the song's name with .mp4, next to it; for demo, demo.mp4 in the current folder)."
    )
    var output: String?

    @Flag(name: .customLong("no-video"), help: "Write no video (only --frames-dir and/or --audio).")
    var noVideo = false

    @Option(name: .customLong("frames-dir"), help: "Also write frame_000001.png, frame_000002.png, ... into this folder (created if needed).")
    var framesDirectory: String?

    @Option(name: .customLong("png-level"), help: "zlib level 0-9 for --frames-dir (1: fast, about 84 KB a 1080p frame).")
    var pngLevel: Int = 1

    @Option(help: "Also write the sound as this WAV (16-bit stereo).")
    var audio: String?

    @Option(
        help: ArgumentHelp(
            "Render only share K of N (1 <= K <= N <= \(RenderSegment.maximumCount)) of the whole song's frames, as a silent MP4 for `midiviz join` (one song across machines; without -o: SONG.part-K-of-N.mp4); or auto: K and N from a Slurm array, GitLab parallel:, a Kubernetes Indexed Job or MIDIVIZ_SHARD=K/N, as batch --shard auto.",
            valueName: "K/N|auto"))
    var segment: SegmentSpec?

    @OptionGroup var reporting: ReportingOptions

    @Option(name: .customLong("raw-video-out"), help: .hidden)
    var rawVideoOut: String?

    /// Whether the frames go to a video (or raw yuv420p), whose sides must be even.
    var writesVideo: Bool { !noVideo || rawVideoOut != nil }

    func validate() throws {
        guard (0...9).contains(pngLevel) else { throw ValidationError("--png-level must be 0 to 9, not \(pngLevel)") }
        if noVideo && output != nil { throw ValidationError("--output and --no-video contradict each other") }
        if rawVideoOut != nil && output != nil { throw ValidationError("--raw-video-out writes the frames alone, not a video: it takes no --output") }
        if noVideo && framesDirectory == nil && audio == nil {
            throw ValidationError("--no-video leaves nothing to write: add --frames-dir DIR and/or --audio FILE.wav")
        }
        if segment != nil && audio != nil { throw ValidationError("a segment is silent: `midiviz join` adds the whole song's sound") }
        // `-` is standard output elsewhere; here it would be a file of that name.
        for (option, path) in [("--output", output), ("--audio", audio), ("--frames-dir", framesDirectory)] where path == "-" {
            throw ValidationError("\(option) -: midiviz writes files, not to standard output; name one (a video needs its whole file to be seekable)")
        }
        if pngLevel != 1 && framesDirectory == nil { throw ValidationError("--png-level is for --frames-dir, which is not given") }
    }

    /// What the options say together with the render options (config files included).
    func check(_ options: RenderOptions) throws {
        if options.noAudio && audio != nil { throw fail("--no-audio and --audio contradict each other", code: 64) }
        if segment != nil && options.noAudio {
            throw fail("--segment and --no-audio contradict each other: a segment's frames follow the whole song's sound, which join adds", code: 64)
        }
        if segment != nil && (options.from != nil || options.to != nil) {
            throw fail("--segment takes a share of the whole song: --from and --to do not apply", code: 64)
        }
    }
}

/// How a run reports: a progress bar or JSON lines, or nothing.
struct ReportingOptions: ParsableArguments {
    @Option(help: "How to report progress: bar (on stderr, when it is a terminal) or json (one JSON line a second on stdout).")
    var progress: ProgressStyle = .bar

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    func validate() throws {
        if quiet && progress == .json {
            throw ValidationError("--quiet and --progress json contradict each other: --quiet prints nothing but errors")
        }
    }
}
