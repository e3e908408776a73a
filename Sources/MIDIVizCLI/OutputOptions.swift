import ArgumentParser
import Foundation
import MIDIVizEngine

/// Where the outputs go and how the run reports, shared by `render` and `demo`.
struct OutputOptions: ParsableArguments {
    @Option(name: .shortAndLong, help: "The video to write, by its extension: .mp4 (H.264 + AAC), .mov (ProRes + PCM), .webm (VP9 + Opus) or .gif (default: the song's name with .mp4, next to it).")
    var output: String?

    @Flag(name: .customLong("no-video"), help: "Write no MP4 (only --frames-dir and/or --audio).")
    var noVideo = false

    @Flag(name: .customLong("no-audio"), help: "A silent video: no SoundFont needed.")
    var noAudio = false

    @Option(name: .customLong("frames-dir"), help: "Also write frame_000001.png, frame_000002.png, ... into this folder (created if needed).")
    var framesDirectory: String?

    @Option(help: "x264 constant rate factor (0-51; lower is better and bigger).")
    var crf: Int = 20

    @Option(help: "x264 preset: ultrafast, superfast, veryfast, faster, fast, medium, slow, slower, veryslow.")
    var preset: String = "veryfast"

    @Option(name: .customLong("from"), help: "Start at this time (the nearest frame): seconds, mm:ss.fff or bar:N.")
    var from: TimeSpec?

    @Option(name: .customLong("to"), help: "End at this time: seconds, mm:ss.fff or bar:N (default: the end plus the release tail).")
    var to: TimeSpec?

    @Option(help: ArgumentHelp("Seconds of picture (and silence) before the start (default: for a whole song, the time notes take to reach the keys or playhead, so the first frame shows no note; none with --from).", valueName: "seconds"))
    var preroll: Double?

    @Option(help: ArgumentHelp("Seconds of picture after the end.", valueName: "seconds"))
    var postroll: Double = 0

    @Option(help: ArgumentHelp("Render only share K of N of the whole song's frames, silent, for `midiviz join` (one song across machines).", valueName: "K/N"))
    var segment: SegmentSpec?

    @Option(name: .customLong("png-level"), help: "zlib level 0-9 for --frames-dir (1: fast, about 84 KB a 1080p frame).")
    var pngLevel: Int = 1

    @Option(name: .customLong("jobs"), help: ArgumentHelp("Render on this many cores (default: all of them).", valueName: "n"))
    var jobsOption: Int?

    @OptionGroup var limits: SongLimitOptions

    @Option(help: "How to report progress: bar (on stderr, when it is a terminal) or json (one JSON line a second on stdout).")
    var progress: ProgressStyle = .bar

    @Option(name: .customLong("stall-timeout"),
            help: ArgumentHelp("Fail when ffmpeg takes no frame for this many seconds (default: 60).", valueName: "seconds"))
    var stallTimeoutOption: Double?

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    @Option(help: ArgumentHelp("Read options from this TOML file (their long names as keys, e.g. style = \"keyboard\"); the command line wins.", valueName: "file"))
    var config: String?

    @Flag(name: .customLong("print-config"), help: "Print the settings in effect as TOML for --config, and render nothing.")
    var printConfig = false

    @Option(name: .customLong("raw-video-out"), help: .hidden)
    var rawVideoOut: String?

    var jobs: Int { jobsOption ?? ProcessInfo.processInfo.activeProcessorCount }
    var maxDuration: Double { limits.maxDuration }
    var stallTimeout: Double { stallTimeoutOption ?? 60 }

    static let presets: Set<String> = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow"]

    func validate() throws {
        guard (0...9).contains(pngLevel) else { throw ValidationError("--png-level must be 0 to 9, not \(pngLevel)") }
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
        guard stallTimeout > 0, stallTimeout.isFinite else { throw ValidationError("--stall-timeout must be a positive number of seconds") }
        guard (0...51).contains(crf) else { throw ValidationError("--crf must be 0 to 51, not \(crf)") }
        guard Self.presets.contains(preset) else { throw ValidationError("--preset must be one of \(Self.presets.sorted().joined(separator: ", "))") }
        if let preroll, !RenderRequest.rollRange.contains(preroll) { throw ValidationError("--preroll must be between 0 and 600 seconds, not \(preroll)") }
        guard RenderRequest.rollRange.contains(postroll) else { throw ValidationError("--postroll must be between 0 and 600 seconds, not \(postroll)") }
        if noVideo && output != nil { throw ValidationError("--output and --no-video contradict each other") }
        if segment != nil && (from != nil || to != nil) { throw ValidationError("--segment takes a share of the whole song: --from and --to do not apply") }
    }
}

enum ProgressStyle: String, ExpressibleByArgument {
    case bar, json
}

/// `--segment K/N`.
struct SegmentSpec: ExpressibleByArgument {
    let segment: RenderSegment

    init?(argument: String) {
        let parts = argument.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]),
              let segment = RenderSegment(index: index, count: count) else { return nil }
        self.segment = segment
    }
}
