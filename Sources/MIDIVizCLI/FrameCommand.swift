import ArgumentParser
import Foundation
import MIDIVizCore
import MIDIVizEngine
import MIDIVizIO

/// `midiviz frame SONG.mid --at TIME -o poster.png`
struct FrameCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "frame", abstract: "Render one frame of a song as a PNG (a poster).")

    @Argument(help: "The Standard MIDI File.")
    var song: String

    @Option(help: "The time to show: seconds (12.5) or mm:ss.fff.")
    var at: SongTime

    @Option(name: .shortAndLong, help: "The PNG to write.")
    var output: String

    @Option(name: .customLong("png-level"), help: "zlib compression level 0-9.")
    var pngLevel: Int = 6

    @OptionGroup var look: LookOptions

    @OptionGroup var limits: SongLimitOptions

    func validate() throws {
        guard (0...9).contains(pngLevel) else { throw ValidationError("--png-level must be 0 to 9") }
    }

    func run() throws {
        let loaded = try loadSongOrExit(song)
        do {
            try PosterRender.render(song: loaded, songPath: song, settings: look.settings(for: loaded), fontPath: look.font,
                                    atSeconds: at.seconds, to: output, pngLevel: pngLevel, maximumSongSeconds: limits.maxDuration,
                                    backgroundImagePath: look.backgroundImage)
        } catch {
            throw error.reported
        }
    }
}
