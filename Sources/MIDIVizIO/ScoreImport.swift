import Foundation
import MIDIVizCore

/// Reads a score (MusicXML `.musicxml`/`.xml`, compressed `.mxl`, MuseScore `.mscz`/`.mscx`)
/// through MuseScore 3: one run writes its MIDI, which is loaded as any MIDI file, and its
/// MusicXML, kept in the song for the sheet music. Notes, sound and sheet come from one score;
/// the song's title and its tracks' names from the MusicXML (`MusicXMLNames`).
package enum ScoreImport {
    /// Loads the score `bytes`; `name` (whose extension says the format) is used in messages.
    /// MuseScore's MIDI and MusicXML of it come from the cache when they are there
    /// (`ScoreToolCache`, keyed by the bytes, the format and MuseScore's identity).
    package static func load(bytes: [UInt8], name: String, cache: ScoreToolCache? = .fromEnvironment()) throws(LoadError) -> Song {
        if let problem = ScoreTools.setupProblem() { throw .toolMissing(path: name, reason: problem) }
        guard let museScore = ScoreTools.museScore() else { throw .toolMissing(path: name, reason: ScoreTools.museScoreMissing) }
        let format = URL(fileURLWithPath: name).pathExtension.lowercased()
        if WellFormedXML.extensions.contains(format) {
            if bytes.starts(with: ZippedScore.signature) {
                throw .invalid(path: name, reason: "a ZIP archive, not XML: a compressed score is named .mxl (MusicXML) or .mscz (MuseScore)")
            }
            if let problem = WellFormedXML.problem(bytes) { throw .invalid(path: name, reason: problem) }
            if format != "mscx", let problem = WellFormedXML.musicXMLProblem(bytes) { throw .invalid(path: name, reason: problem) }
        }
        if ZippedScore.extensions.contains(format) {
            if bytes.drop { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }.first == UInt8(ascii: "<") {
                throw .invalid(path: name, reason: "XML, not a ZIP archive: an uncompressed score is named .musicxml (MusicXML) or .mscx (MuseScore)")
            }
            if let problem = ZippedScore.problem(bytes) { throw .invalid(path: name, reason: problem) }
        }
        let key =
            cache == nil
            ? nil
            : ToolIdentity.museScore(museScore).map { ScoreToolCache.key("score", [Array("-j score.\(format) → mid, musicxml".utf8), Array($0.utf8), bytes]) }
        if let cache, let key, let stored = cache.read(key), let midi = stored["mid"], let musicXML = stored["musicxml"],
            var song = try? SongLoader.loadMIDI(bytes: midi, name: name), !song.notes.isEmpty
        {
            song.musicXML = musicXML
            MusicXMLNames(musicXML)?.name(&song)
            return song
        }
        let result: Result<Song, LoadError>
        do {
            result = try ScoreTools.withTemporaryFolder { folder -> Result<Song, LoadError> in
                let score = "\(folder)/score.\(format)", midi = "\(folder)/score.mid", musicXML = "\(folder)/score.musicxml"
                try Data(bytes).write(to: URL(fileURLWithPath: score))
                let job = [["in": score, "out": [midi, musicXML]]]
                try JSONSerialization.data(withJSONObject: job).write(to: URL(fileURLWithPath: "\(folder)/job.json"))
                let run = try MuseScore.run(museScore, ["-j", "\(folder)/job.json"], in: folder)
                if run.timedOut {
                    return .failure(.invalid(path: name, reason: "MuseScore did not finish reading it within \(ScoreTools.timeLimitText) s"))
                }
                if let crash = ScoreTools.crash(of: "MuseScore 3 (\(museScore))", run, doing: "reading it", path: name) { return .failure(crash) }
                // MuseScore names our copy of the score: name the user's file instead.
                let complaint = MuseScore.complaint(run.errorLines).map { $0.replacingOccurrences(of: score, with: name) }
                guard run.exitedCleanly, let midiBytes = FileManager.default.contents(atPath: midi) else {
                    if let broken = ScoreTools.brokenMuseScore(museScore, doing: "reading it", file: name) { return .failure(broken) }
                    return .failure(
                        .invalid(path: name, reason: "not a score MuseScore 3 (\(museScore)) can read" + (complaint.map { " (\($0))" } ?? "")))
                }
                var song: Song
                do throws(LoadError) { song = try SongLoader.loadMIDI(bytes: [UInt8](midiBytes), name: name) } catch { return .failure(error) }
                guard !song.notes.isEmpty else {
                    return .failure(.invalid(path: name, reason: "MuseScore 3 found no notes in it" + (complaint.map { " (\($0))" } ?? "")))
                }
                song.musicXML = FileManager.default.contents(atPath: musicXML).map { [UInt8]($0) }
                if let written = song.musicXML { MusicXMLNames(written)?.name(&song) }
                if let cache, let key, let musicXML = song.musicXML { cache.write(key, [("mid", [UInt8](midiBytes)), ("musicxml", musicXML)]) }
                return .success(song)
            }
        } catch {
            throw .invalid(path: name, reason: "cannot convert it with MuseScore 3: \(error.localizedDescription)")
        }
        return try result.get()
    }
}

/// Runs MuseScore 3 headless (`QT_QPA_PLATFORM=offscreen` through `env`), its settings, data,
/// cache and temporary files in the run's own folder: nothing written to the user's home or
/// left in /tmp, no two runs sharing a file.
package enum MuseScore {
    package static func run(
        _ museScore: String, _ arguments: [String], in folder: String, readsOutput: Bool = false, timeLimit: Double = ScoreTools.timeLimitSeconds
    ) throws -> ScoreTools.Run {
        let home = folder + "/musescore"
        try FileManager.default.createDirectory(atPath: home + "/runtime", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let environment = [
            "QT_QPA_PLATFORM=offscreen", "XDG_CONFIG_HOME=\(home)/config", "XDG_DATA_HOME=\(home)/data", "XDG_CACHE_HOME=\(home)/cache",
            "XDG_RUNTIME_DIR=\(home)/runtime", "TMPDIR=\(home)/runtime",  // its single-instance lock file goes to TMPDIR
        ]
        return try ScoreTools.run("/usr/bin/env", environment + [museScore] + arguments, readsOutput: readsOutput, timeLimit: timeLimit)
    }

    /// The line of MuseScore's stderr that says what was wrong, if any, without the HTML some of
    /// its messages carry for its dialogs (`<a href=…>MuseScore website</a>`).
    static func complaint(_ lines: [String]) -> String? {
        let noise = ["QStandardPaths", "convert <", "\tto <", "... success", "qt.qpa", "Warning: QT_DEVICE_PIXEL_RATIO"]
        // The noise as MuseScore writes it (`\tto <path>`), before the HTML is taken out.
        let said = lines.filter { line in !noise.contains { line.hasPrefix($0) } }
        let stripped = said.map { $0.replacingOccurrences(of: "<[^<>]*>", with: "", options: .regularExpression) }
        return stripped.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }
}
