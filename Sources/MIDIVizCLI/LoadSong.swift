import ArgumentParser
import Foundation
import MIDIVizCore
import MIDIVizIO

/// Loads a song for a command; on failure prints one line naming the file and the cause to
/// stderr and exits with the error's code (65 bad data, 66 unreadable).
func loadSongOrExit(_ path: String) throws -> Song {
    do {
        return try SongLoader.load(path: path)
    } catch {
        throw fail(error.description, code: error.exitCode)
    }
}

/// The glyphs for a canvas height from `--font`; a font that cannot be read is bad input.
func loadFontsOrExit(_ path: String, canvasSide: Int) throws -> TextFonts {
    do {
        return try FontRasterizer(path: path).textFonts(canvasSide: canvasSide)
    } catch {
        let missing = !FileManager.default.fileExists(atPath: path)
        throw fail(error.description, code: missing ? ExitCodes.noInput : ExitCodes.dataError)
    }
}
