import ArgumentParser
import Foundation
import MIDIVizCore
import MIDIVizEngine
import MIDIVizIO

/// `midiviz join part-*.mp4 --song SONG -o SONG.mp4`: the segments of one song, rendered on
/// several machines with `render --segment K/N`, as one video with the song's sound.
struct JoinCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "join",
        abstract: "Join the segments of a song (render --segment K/N) into one video with its sound.",
        discussion:
            "The parts are concatenated without re-encoding, in the order of their segments whatever the order given; the sound is bounced once for the whole song. Give the song and the look and sound options (and --preroll, --postroll) the segments were rendered with: every segment K of N must be there once, each a segment of this song with these options, whole (exit 65 otherwise, naming the part and the cause). Writes MP4 only."
    )

    @Argument(help: "The segments' MP4s, in any order (part-*.mp4).")
    var parts: [String]

    @Option(help: "The song the segments show (a Standard MIDI File or a score).")
    var song: String

    @Option(name: .shortAndLong, help: "The MP4 to write (.mp4: the parts' H.264 is copied, not re-encoded).")
    var output: String

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    @Option(help: ArgumentHelp("The segments' --preroll (default: the style's lead-in, as they had).", valueName: "seconds"))
    var preroll: Double?

    @Option(help: ArgumentHelp("The segments' --postroll (default: 0).", valueName: "seconds"))
    var postroll: Double?

    @OptionGroup var config: ConfigArguments
    @OptionGroup var look: LookArguments
    @OptionGroup var sound: SoundArguments

    /// The render options: config files, then the command line's.
    func renderOptions() throws -> RenderOptions { try config.options([look, sound]) }

    func run() throws {
        var options = try renderOptions()
        // The segments' preroll and postroll are part of the options they were made with.
        if let preroll { options.preroll = preroll }
        if let postroll { options.postroll = postroll }
        if config.printConfig {
            print(ConfigFile.toml(options), terminator: "")
            return
        }
        signal(SIGPIPE, SIG_IGN)
        let started = Date()
        let loaded = try loadSongOrExit(song)
        var request: JoinRequest
        do {
            request = JoinRequest(
                parts: parts, song: options.heard(loaded), songPath: song, songName: song,
                settings: try Interruption.stoppingScoreTools { () throws(RenderError) in try options.settings(for: loaded) }, sound: options.soundSettings,
                optionsSHA256: try options.segmentOptionsDigest(withSound: true), output: output)
        } catch {
            throw error.reported
        }
        request.prerollSeconds = options.preroll
        request.postrollSeconds = options.postroll
        let job: JoinJob
        do { job = try JoinJob(request) } catch { throw error.reported }
        if !quiet { printWarnings([options.sampleRateWarning(for: .mp4)].compactMap { $0 }) }
        let interruption = Interruption { job.stop(signal: $0) }
        defer { interruption.cancel() }
        let summary: RenderSummary
        do {
            summary = try job.run()
        } catch {
            interruption.yieldIfInterrupted()
            throw error.reported
        }
        if !quiet {
            say(
                String(
                    format: "midiviz: %@: %@ from %d parts, %d frames, in %.1f s", output, SongClock.text(summary.durationSeconds), parts.count,
                    summary.frames, Date().timeIntervalSince(started)))
        }
    }
}
