import ArgumentParser
import Foundation
import MIDIVizCore
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

    func validate() throws {
        guard (0...9).contains(pngLevel) else { throw ValidationError("--png-level must be 0 to 9") }
    }

    func run() throws {
        let loaded = try loadSongOrExit(song)
        let settings = look.settings(for: loaded)
        let fonts = try loadFontsOrExit(look.font, canvasSide: settings.textSide)
        let scene = Scene(song: loaded, settings: settings)
        let renderer = FrameRenderer(scene: scene, fonts: fonts)
        var workspace = renderer.makeWorkspace()
        renderer.render(at: at.seconds, in: &workspace)
        do {
            try PNGWriter(level: pngLevel).writeAtomically(workspace.canvas, to: output)
        } catch {
            throw fail(error.description, code: ExitCodes.cannotCreate)
        }
    }
}
