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
            "The parts are concatenated without re-encoding, in the order given; the sound is bounced once for the whole song. Give the song, --speed and the sound options the segments were rendered with: the parts must hold exactly the frames of the song rendered whole (exit 65 otherwise)."
    )

    @Argument(help: "The segments' MP4s, in order (part-1.mp4 part-2.mp4 ...).")
    var parts: [String]

    @Option(help: "The Standard MIDI File the segments show.")
    var song: String

    @Option(name: .shortAndLong, help: "The MP4 to write.")
    var output: String

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    @Option(help: ArgumentHelp("The segments' --preroll (default: the style's lead-in, as they had).", valueName: "seconds"))
    var preroll: Double?

    @Option(help: ArgumentHelp("The segments' --postroll.", valueName: "seconds"))
    var postroll: Double = 0

    @OptionGroup var config: ConfigArguments
    @OptionGroup var look: LookArguments
    @OptionGroup var sound: SoundArguments

    /// The render options: config files, then the command line's.
    func renderOptions() throws -> RenderOptions { try config.options([look, sound]) }

    func run() throws {
        let options = try renderOptions()
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
                settings: try options.settings(for: loaded), sound: options.soundSettings, output: output)
        } catch {
            throw error.reported
        }
        request.prerollSeconds = preroll
        request.postrollSeconds = postroll
        let job: JoinJob
        do { job = try JoinJob(request) } catch { throw error.reported }
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
            FileHandle.standardError.write(
                Data(
                    String(
                        format: "midiviz: %@: %@ from %d parts, %d frames, in %.1f s\n", output,
                        SongClock.text(summary.durationSeconds), parts.count, summary.frames,
                        Date().timeIntervalSince(started)
                    ).utf8))
        }
    }
}
