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
        throw fail(error.description + LoadError.notUTF8Hint(path), code: error.exitCode)
    }
}
