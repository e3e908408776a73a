import ArgumentParser
import Foundation
import MIDIVizCore
import MIDIVizEngine
import MIDIVizIO

/// `midiviz frame SONG.mid --at TIME -o poster.png`
struct FrameCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "frame", abstract: "Render one frame of a song as a PNG (a poster).",
        discussion: "A config file may hold any render option (one file serves render and frame); a frame uses the look options.")

    @Argument(help: "The song: a Standard MIDI File (.mid, .midi, .kar, .rmi) or a score (.musicxml, .xml, .mxl, .mscz, .mscx).")
    var song: String

    @Option(parsing: .unconditional, help: "The time to show: seconds (12.5), mm:ss.fff or bar:N (the bar's first beat).")
    var at: AtTime

    @Option(name: .shortAndLong, help: "The PNG to write.")
    var output: String

    @Option(name: .customLong("png-level"), help: "zlib compression level 0-9.")
    var pngLevel: Int = 6

    @OptionGroup var config: ConfigArguments
    @OptionGroup var look: LookArguments
    @OptionGroup var limits: LimitsArguments

    func validate() throws {
        guard (0...9).contains(pngLevel) else { throw ValidationError("--png-level must be 0 to 9, not \(pngLevel)") }
        _ = try at.time()
    }

    /// The render options: config files, then the command line's.
    func renderOptions() throws -> RenderOptions { try config.options([look, limits], forVideo: false) }

    func run() throws {
        let options = try renderOptions()
        if config.printConfig {
            print(ConfigFile.toml(options), terminator: "")
            return
        }
        let loaded = try loadSongOrExit(song)
        let time = try at.time()
        guard let seconds = time.seconds(in: loaded) else {
            throw RenderError.noBarsToCount(option: "at", time: time.optionText, song: song).reported
        }
        let warnings: [String]
        do {
            // Engraving sheet music runs the score tools.
            warnings = try Interruption.stoppingScoreTools { () throws(RenderError) in
                try PosterRender.render(
                    song: loaded, songPath: song, options: options, atSeconds: seconds, to: output, pngLevel: pngLevel,
                    configFiles: config.config)
            }
        } catch {
            throw error.reported(at: at.text)
        }
        printWarnings(warnings)
    }
}
