/// Why the bytes of a file cannot be read as a Standard MIDI File.
package enum SMFFormatError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bytes are not a MIDI file at all (no MThd header, empty file, RIFF without MIDI data).
    case notMIDI(String)
    /// The file is a MIDI file but damaged beyond a safe repair.
    case corrupt(String)
    /// A valid file that midiviz does not handle (e.g. an unknown format number).
    case unsupported(String)

    /// What is wrong, without the kind.
    package var reason: String {
        switch self {
        case .notMIDI(let reason), .corrupt(let reason), .unsupported(let reason): return reason
        }
    }

    package var description: String {
        switch self {
        case .notMIDI(let reason): return "not a Standard MIDI File (\(reason))"
        case .corrupt(let reason): return "corrupt MIDI file: \(reason)"
        case .unsupported(let reason): return "unsupported MIDI file: \(reason)"
        }
    }
}
