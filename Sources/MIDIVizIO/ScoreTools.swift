import Foundation
import MIDIVizCore

/// The programs that read and engrave scores, found on `PATH` or through a variable, and run
/// as children with a time limit in a private temporary folder.
///
/// - MuseScore 3 (Debian `musescore3`; `$MIDIVIZ_MUSESCORE`): scores to MIDI and MusicXML, MIDI
///   to MusicXML. Run with `QT_QPA_PLATFORM=offscreen`, no display needed.
/// - Python 3 with Verovio (PyPI `verovio`, `scripts/requirements-sheet.txt`; `$MIDIVIZ_PYTHON`):
///   MusicXML to SVG and its timemap (`SheetEngraver`).
package enum ScoreTools {
    /// The longest a tool may run on one song: 120 s, or `$MIDIVIZ_SCORE_TIMEOUT` seconds (any
    /// other value is refused before a tool runs: `setupProblem`).
    package static let timeLimitSeconds: Double = givenTimeLimit() ?? 120

    /// `$MIDIVIZ_SCORE_TIMEOUT` as a number of seconds above 0; nil when it is unset, blank or
    /// not such a number.
    static func givenTimeLimit(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Double? {
        guard let text = environment["MIDIVIZ_SCORE_TIMEOUT"], let seconds = Double(text.trimmingCharacters(in: .whitespaces)), seconds > 0,
            seconds.isFinite
        else { return nil }
        return seconds
    }

    /// Why the score tools cannot run as the environment sets them up, if they cannot: a time
    /// limit that is not a number of seconds above 0 (`10m`, `0`) would otherwise be 120 s
    /// unsaid. (A tool variable naming no program is said where the tool is looked for.)
    package static func setupProblem(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        guard let text = environment["MIDIVIZ_SCORE_TIMEOUT"], !text.trimmingCharacters(in: .whitespaces).isEmpty, givenTimeLimit(environment) == nil
        else { return nil }
        return "MIDIVIZ_SCORE_TIMEOUT=\(text) is not a number of seconds above 0 (the score tools' time limit; 120 when unset)"
    }

    /// The extensions read as scores.
    package static let scoreExtensions: Set<String> = ["musicxml", "xml", "mxl", "mscz", "mscx"]

    /// Whether `path` names a score (by its extension).
    package static func isScore(_ path: String) -> Bool {
        scoreExtensions.contains(URL(fileURLWithPath: path).pathExtension.lowercased())
    }

    /// MuseScore 3's path: `$MIDIVIZ_MUSESCORE`, else `musescore3` or `mscore3` on PATH.
    package static func museScore(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let path = environment["MIDIVIZ_MUSESCORE"], !path.isEmpty {
            return ChildProcess.locate(path, variable: "MIDIVIZ_MUSESCORE", environment: environment)
        }
        return ChildProcess.locate("musescore3", variable: "MIDIVIZ_MUSESCORE", environment: environment)
            ?? ChildProcess.locate("mscore3", variable: "MIDIVIZ_MUSESCORE", environment: environment)
    }

    /// Python's path: `$MIDIVIZ_PYTHON`, else `python3` on PATH.
    package static func python(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        ChildProcess.locate("python3", variable: "MIDIVIZ_PYTHON", environment: environment)
    }

    package static var museScoreMissing: String {
        "MuseScore 3 is not installed (Debian package musescore3, or set MIDIVIZ_MUSESCORE\(ChildProcess.unrunnable("MIDIVIZ_MUSESCORE")))"
    }
    package static let verovioMissing =
        "Verovio is not installed (pip install verovio, as scripts/requirements-sheet.txt pins it; or set MIDIVIZ_PYTHON to a python3 that has it)"
    /// No python3 to run Verovio with: what the variable names, when set, runs nothing.
    package static var pythonMissing: String {
        verovioMissing.dropLast() + ChildProcess.unrunnable("MIDIVIZ_PYTHON") + ")"
    }

    /// What a tool did: how it ended, and the last lines of its stderr.
    package struct Run {
        package var exitedCleanly: Bool
        package var timedOut: Bool
        /// The signal that ended it, when one did.
        package var signal: Int32? = nil
        package var errorLines: [String]
        package var output: Data
    }

    /// `timeLimitSeconds` as messages say it: to the millisecond, without trailing zeros.
    package static var timeLimitText: String { SongClock.seconds(timeLimitSeconds) }

    /// The failure of a tool a signal ended: `tool` (as said in messages, with its path) crashed
    /// while `doing`, not the file's fault.
    package static func crash(of tool: String, _ run: Run, doing: String, path: String) -> LoadError? {
        guard let signal = run.signal else { return nil }
        return .toolFailed(path: path, reason: "\(tool) crashed (killed by signal \(signal)) while \(doing)")
    }

    /// The failure of MuseScore at `path` that exited with an error while `doing`, when it cannot
    /// even say its version (`--version`): a program that is not MuseScore 3, or one that cannot
    /// start here, not the file's fault (a hostile pass found `MIDIVIZ_MUSESCORE=/bin/false`
    /// blaming a good score). Nil when it can: then the file is what it could not read.
    package static func brokenMuseScore(_ path: String, doing: String, file: String) -> LoadError? {
        guard ToolIdentity.museScore(path) == nil else { return nil }
        return .toolMissing(
            path: file,
            reason:
                "MuseScore 3 (\(path)) failed while \(doing), and cannot say its version either: it is not MuseScore 3, or does not run here (set MIDIVIZ_MUSESCORE to MuseScore 3)"
        )
    }

    /// Runs `executable` with `arguments` and waits at most `timeLimitSeconds`; stopped then.
    /// A signal stops it too (`ToolRuns`).
    package static func run(_ executable: String, _ arguments: [String], readsOutput: Bool = false, timeLimit: Double = timeLimitSeconds) throws -> Run {
        let child = try ToolRuns.shared.start { try ChildProcess(executable: executable, arguments: arguments, readsOutput: readsOutput) }
        defer { ToolRuns.shared.finished(child) }
        guard let termination = child.waitForExit(timeoutSeconds: timeLimit) else {
            child.stop()
            return Run(exitedCleanly: false, timedOut: true, errorLines: child.lastErrorLines(5), output: Data())
        }
        var signal: Int32?
        if case .signalled(let number) = termination { signal = number }
        return Run(
            exitedCleanly: termination == .exited(0), timedOut: false, signal: signal, errorLines: child.lastErrorLines(8),
            output: child.standardOutput)
    }

    /// A new private folder under the temporary directory, removed after `body` (or by a
    /// signal, `ToolRuns`). The corresponding C function is `mkdtemp`.
    package static func withTemporaryFolder<Result>(_ body: (String) throws -> Result) throws -> Result {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        let folder = try ToolRuns.shared.makePath {
            // A TMPDIR that is not there or cannot be written: /tmp, as the render's other steps.
            guard let made = UniquePath.folder("\(base)/midiviz-score-XXXXXX") ?? UniquePath.folder("/tmp/midiviz-score-XXXXXX") else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "cannot create a temporary folder in \(base): \(systemError())"])
            }
            return made
        }
        defer {
            try? FileManager.default.removeItem(atPath: folder)
            ToolRuns.shared.forget(folder)
        }
        return try body(folder)
    }
}
