import Foundation
import MIDIVizCore

/// Why a song could not be loaded, naming the file; each case has its own exit code.
public enum LoadError: Error, CustomStringConvertible, Sendable {
    /// Missing, unreadable or not a regular file (exit 66).
    case unreadable(path: String, reason: String)
    /// Read, but not a usable MIDI file (exit 65).
    case invalid(path: String, reason: String)
    /// A tool reading it is missing: MuseScore for a score, Verovio for its sheet music; or the
    /// tools cannot run as the environment sets them up (exit 69).
    case toolMissing(path: String, reason: String)
    /// A tool reading it crashed (killed by a signal it was not sent): not the file's fault (exit 1).
    case toolFailed(path: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason), .invalid(let path, let reason), .toolMissing(let path, let reason):
            return "cannot read \(path): \(reason)"
        case .toolFailed(let path, let reason):
            return "cannot convert \(path): \(reason)"
        }
    }

    /// sysexits.h: EX_NOINPUT for unreadable input, EX_DATAERR for bad data.
    public var exitCode: Int32 {
        switch self {
        case .unreadable: return 66
        case .invalid: return 65
        case .toolMissing: return 69
        case .toolFailed: return 1
        }
    }
}

extension LoadError {
    /// For a path that names nothing: a hint when it came in a name that is not UTF-8, which
    /// reaches us with U+FFFD for its bytes (no path names such a file); else nothing.
    package static func notUTF8Hint(_ path: String) -> String {
        path.contains("\u{FFFD}") && !FileManager.default.fileExists(atPath: path) ? " (its name as given is not UTF-8: rename it)" : ""
    }
}
