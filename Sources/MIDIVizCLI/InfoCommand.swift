import ArgumentParser
import Foundation
import MIDIVizIO

/// `midiviz info SONG.mid [--json] [--notes]`
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Summarize a MIDI file: tracks, tempo map, signatures, duration, notes, warnings.",
        discussion: "Channels in the text summary are 1-based (drums are channel 10); in JSON they are 0-based (drums are 9).")

    @Argument(help: "The song: a Standard MIDI File (.mid, .midi, .kar, .rmi) or a score (.musicxml, .xml, .mxl, .mscz, .mscx).")
    var song: String

    @Flag(help: "Print one JSON object instead of the summary.")
    var json = false

    @Flag(help: "With --json, add every note as [start_s, end_s, pitch, velocity, channel, track].")
    var notes = false

    func validate() throws {
        if notes && !json { throw ValidationError("--notes needs --json") }
    }

    func run() throws {
        let loaded = try loadSongOrExit(song)
        let report = SongReport(song: loaded, path: song)
        // A full disk or a closed stdout: not a summary that looks written (exit 74).
        do {
            let output = FileHandle.standardOutput
            if json {
                try report.writeJSON(includingNotes: notes) { try output.write(contentsOf: $0) }
                try output.write(contentsOf: Data("\n".utf8))
            } else {
                try output.write(contentsOf: Data((report.text + "\n").utf8))
            }
        } catch {
            // Foundation wraps the write's errno.
            let cause = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError).flatMap { underlying in
                underlying.domain == NSPOSIXErrorDomain ? String(cString: strerror(Int32(underlying.code))) : nil
            }
            throw fail("cannot write the summary of \(song) to the standard output: \(cause ?? "it is closed or cannot be written")", code: 74)
        }
    }
}
