import ArgumentParser
import Foundation
import MIDIVizCore
import MIDIVizIO

/// Loads a song for a command; on failure prints one line naming the file and the cause to
/// stderr and exits with the error's code (65 bad data, 66 unreadable).
func loadSongOrExit(_ path: String) throws -> Song {
    do {
        return try Interruption.stoppingScoreTools { () throws(LoadError) in try SongLoader.load(path: path) }
    } catch {
        // A name that is not UTF-8 reaches us with U+FFFD for its bytes: no path names it.
        let hint = path.contains("\u{FFFD}") && !FileManager.default.fileExists(atPath: path) ? " (its name as given is not UTF-8: rename it)" : ""
        throw fail(error.description + hint, code: error.exitCode)
    }
}
