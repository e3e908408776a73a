import Foundation
import MIDIVizCore

/// Loads a Standard MIDI File into a `Song`: the Swift front end validates and repairs the bytes,
/// libsmf parses the canonical result, and `SongBuilder` resolves it into seconds.
public enum SongLoader {
    /// Reads and loads the file at `path`.
    /// A score (`.musicxml`, `.xml`, `.mxl`, `.mscz`, `.mscx`) is read through MuseScore 3.
    public static func load(path: String) throws(LoadError) -> Song {
        try load(bytes: readFile(path), name: path)
    }

    /// Loads MIDI bytes, or a score's when `name` ends as a score does; `name` is used in messages.
    public static func load(bytes: consuming [UInt8], name: String) throws(LoadError) -> Song {
        if ScoreTools.isScore(name) { return try ScoreImport.load(bytes: bytes, name: name) }
        return try loadMIDI(bytes: bytes, name: name)
    }

    /// Loads MIDI bytes whatever `name` ends with. The file's bytes and their validated copy are
    /// let go before the song is built (a million-note file holds 7 MB of each), and the events
    /// read from it before its notes are sorted.
    package static func loadMIDI(bytes: consuming [UInt8], name: String) throws(LoadError) -> Song {
        let parsed = try parse(bytes: bytes, name: name)
        _ = consume bytes
        // The builder holds the only reference to the events, and lets them go before it sorts.
        let (format, division, trackCount, endTick, warnings) = (parsed.format, parsed.division, parsed.trackCount, parsed.endTick, parsed.warnings)
        let events = parsed.events
        _ = consume parsed
        return SongBuilder.build(
            format: format, division: division, trackCount: trackCount, events: consume events, endTick: endTick, warnings: warnings)
    }

    /// The file validated and read by libsmf: what `SongBuilder` needs, without the bytes.
    private struct Parsed {
        let format: Int
        let division: Division
        let trackCount: Int
        let events: MergedEvents
        let endTick: Int
        let warnings: [String]
    }

    private static func parse(bytes: borrowing [UInt8], name: String) throws(LoadError) -> Parsed {
        let validated: ValidatedSMF
        do {
            validated = try SMFFrontEnd.validate(copy bytes)
        } catch {
            throw .invalid(path: name, reason: error.description)
        }
        let (events, endTick, libraryWarnings) = try Self.parse(validated, name: name)
        return Parsed(
            format: validated.format, division: validated.division, trackCount: validated.trackCount, events: events, endTick: endTick,
            warnings: validated.warnings + libraryWarnings)
    }

    /// libsmf's reading of the canonical bytes, a track at a time: the merged events, the last
    /// tick and its warnings.
    private static func parse(_ validated: ValidatedSMF, name: String) throws(LoadError) -> (MergedEvents, Int, [String]) {
        let (read, length, lines) = StandardMIDIFile.readTracks(of: validated)
        guard let tracks = read else {
            throw .invalid(path: name, reason: "libsmf could not load it (\(lines.last ?? "libsmf gave no reason"))")
        }
        let libraryWarnings = lines.map { $0.hasPrefix("libsmf: ") ? $0 : "libsmf: \($0)" }
        guard tracks.count == validated.trackCount else {
            throw .invalid(path: name, reason: "libsmf read \(tracks.count) of \(validated.trackCount) tracks")
        }
        return (MergedEvents(tracks: tracks), length, libraryWarnings)
    }

    /// Reads a whole regular file, refusing special files (a FIFO would block) and sizes no MIDI
    /// file has, before allocating. The corresponding C functions are `open`, `fstat` and `read`.
    public static func readFile(_ path: String) throws(LoadError) -> [UInt8] {
        guard !path.isEmpty else { throw .unreadable(path: "\"\"", reason: "an input needs a name, not an empty one") }
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw .unreadable(path: path, reason: systemError())
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw .unreadable(path: path, reason: systemError())
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw .unreadable(path: path, reason: "not a regular file")
        }
        let size = Int(info.st_size)
        guard size <= SMFFrontEnd.maximumFileBytes else {
            throw .invalid(
                path: path,
                reason: "not a Standard MIDI File (\(size) bytes, more than the \(SMFFrontEnd.maximumFileBytes >> 20) MiB a MIDI file can plausibly be)")
        }
        var bytes = [UInt8](repeating: 0, count: size)
        var filled = 0
        while filled < size {
            let count = bytes.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress! + filled, size - filled)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, reason: systemError())
            }
            if count == 0 { break }
            filled += count
        }
        return Array(bytes.prefix(filled))
    }
}
