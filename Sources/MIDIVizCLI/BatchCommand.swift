import ArgumentParser
import Foundation
import MIDIVizEngine
import MIDIVizIO

/// `midiviz batch INPUT... --output-dir DIR`: many songs in one command, past bad files, with a
/// report, up-to-date songs skipped, and a share of the songs per machine (`--shard`).
struct BatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Render many songs: files and folders (searched for .mid, .midi, .kar, .rmi, and scores: .musicxml, .mxl, .mscz, .mscx) into --output-dir.",
        discussion: """
            Each song becomes DIR/<its path under the folder given>.mp4, with NAME.mp4.midiviz.json beside it recording \
            what made it; a song whose output and record match (the same SHA-256 of the input, SoundFont, font and \
            background image, the same options and midiviz version) is skipped unless --force. Every render option \
            applies to every song, except those naming outputs. \
            Exit status: 0 when every song was rendered or skipped, 1 when any failed (the report says which and why), \
            64 for bad arguments, 130/143/129 when interrupted (finished outputs stay, none is left partial).
            """)

    @Argument(help: "Song files, folders and .jsonl manifests (with --merge-reports: the shards' JSON reports).")
    var inputs: [String]

    @Option(name: .customLong("output-dir"), help: "Where the videos go (created if needed).")
    var outputDirectoryOption: String?

    @Flag(name: .customLong("merge-reports"), help: "Join the shards' JSON reports given as inputs into one, written to -o (and --junit).")
    var mergeReports = false

    @Option(help: "Also write a JSON report: each song's status, exit code, message, output, duration, frames and wall time, and the totals.")
    var report: String?

    @Option(help: "Also write the report as JUnit XML (test results in GitHub Actions, GitLab and Jenkins).")
    var junit: String?

    @Option(
        help: ArgumentHelp(
            "Render only share K of N (from 1), balanced by song length; or auto: from GitLab's CI_NODE_INDEX/CI_NODE_TOTAL, a Slurm array's SLURM_ARRAY_TASK_ID/MIN/MAX/STEP/COUNT, a Kubernetes Indexed Job's JOB_COMPLETION_INDEX with MIDIVIZ_SHARD_COUNT, or MIDIVIZ_SHARD=K/N.",
            valueName: "K/N|auto"))
    var shard: ShardSpec?

    @Flag(help: "Render songs even when their outputs are up to date.")
    var force = false

    @Option(name: .shortAndLong, help: "With --merge-reports: the merged JSON report to write.")
    var output: String?

    @OptionGroup var reporting: ReportingOptions
    @OptionGroup var renderArguments: AllRenderOptions

    var outputDirectory: String { outputDirectoryOption ?? "" }

    func validate() throws {
        if mergeReports {
            guard output != nil || junit != nil else { throw ValidationError("--merge-reports writes to -o FILE.json (and/or --junit FILE.xml)") }
            guard outputDirectoryOption == nil else { throw ValidationError("--merge-reports renders nothing: --output-dir does not apply") }
            // Taken and dropped, an option would look as if it had done something.
            if let unused = unusedWhenMerging.first { throw ValidationError("--merge-reports renders nothing: --\(unused) does not apply") }
            return
        }
        guard outputDirectoryOption != nil || renderArguments.config.printConfig else { throw ValidationError("batch needs --output-dir DIR for the videos") }
        guard outputDirectoryOption != "" else { throw ValidationError("--output-dir needs a folder's name, not an empty one") }
        if output != nil {
            throw ValidationError("batch names each song's video itself under --output-dir: -o is for --merge-reports")
        }
    }

    /// The options given that only a render uses, which merging reports would ignore.
    private var unusedWhenMerging: [String] {
        let settings: [(name: String, given: Bool)] = [
            ("config", !renderArguments.config.config.isEmpty), ("print-config", renderArguments.config.printConfig),
            ("report", report != nil), ("shard", shard != nil), ("force", force),
        ]
        return settings.filter(\.given).map(\.name) + renderArguments.givenNames
    }

    /// The render options: config files, then the command line's.
    func renderOptions() throws -> RenderOptions { try renderArguments.resolved() }

    func run() throws {
        let options: RenderOptions
        do {
            options = try renderOptions()
        } catch {
            if !mergeReports { Self.removeEarlierReports(report: report, junit: junit) }
            throw error
        }
        if renderArguments.config.printConfig {
            print(ConfigFile.toml(options), terminator: "")
            return
        }
        if mergeReports { return try merge() }
        signal(SIGPIPE, SIG_IGN)
        var plan: BatchPlan
        do throws(BatchError) {
            plan = try BatchPlan.make(inputs: inputs, outputDirectory: outputDirectory, options: options, configFiles: renderArguments.config.config)
            // The reports replace no song, manifest or other output.
            try plan.check(reports: [report, junit].compactMap { $0 }, configFiles: renderArguments.config.config)
            // Sharding reads the songs' lengths: scores through MuseScore.
            if let shard {
                let share = try shard.resolve()
                plan = Interruption.stoppingScoreTools { [plan] in plan.sharded(share) }
            }
        } catch {
            Self.removeEarlierReports(report: report, junit: junit)
            throw fail(error.message, code: error.exitCode)
        }
        let job = BatchJob(plan: plan, force: force, describe: { $0.message })
        // What every song needs (the font, SoundFont, background, ffmpeg): one error, not one a
        // song, and the reports say it of each.
        do throws(RenderError) {
            try plan.checkSetup()
        } catch {
            try writeReports(job.report(everySongFailed: error.exitCode, error.message))
            throw error.reported
        }
        // A batch stopped between songs is still interrupted: the rest were not made. The
        // signal's exit waits (a while) for the reports of the songs finished before it.
        let reportsWritten = DispatchSemaphore(value: 0)
        let interruption = Interruption {
            job.stop(signal: $0)
            ToolRuns.shared.stopAll()  // a song's score being read or engraved
            _ = reportsWritten.wait(timeout: .now() + 10)
            return false
        }
        defer { interruption.cancel() }
        // Until the batch ends, its reports say that no song has finished. Written once the
        // signals are caught: a signal right after it still ends the batch as interrupted.
        try writeReports(job.unfinishedReport)
        let total = plan.songs.count
        let summary = job.run { [reporting] result, number in Self.announce(result, number: number, of: total, reporting: reporting) }
        // Written before a signal's exit, whenever it came (its cleanup waits for them).
        let written = Result { try writeReports(summary) }
        sayTotals(of: summary)
        reportsWritten.signal()
        interruption.yieldIfInterrupted()
        try written.get()
        if summary.count(.failed) > 0 { throw ExitCode(1) }
    }

    /// The batch's last line: its songs by how they went.
    private func sayTotals(of summary: BatchReport) {
        guard !reporting.quiet else { return }
        FileHandle.standardError.write(
            Data(
                String(
                    format: "midiviz batch: %d song%@: %d rendered, %d up to date, %d failed, in %.1f s\n",
                    summary.songs.count, summary.songs.count == 1 ? "" : "s", summary.count(.rendered), summary.count(.skipped),
                    summary.count(.failed), summary.totals.wallSeconds
                ).utf8))
    }

    /// A batch refused before any work leaves no earlier run's report where its own would go (a
    /// CI step publishing it would show that run): a regular file there that is a midiviz report
    /// (a batch's JSON, `midiviz batch`'s JUnit XML) is removed; anything else is left as it is.
    static func removeEarlierReports(report: String?, junit: String?) {
        func isRegularFile(_ path: String) -> Bool {
            var status = stat()
            return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
        }
        if let report, isRegularFile(report), (try? BatchReport.read(report)) != nil { unlink(report) }
        if let junit, isRegularFile(junit), let data = FileManager.default.contents(atPath: junit),
            let text = String(data: data, encoding: .utf8), text.hasPrefix("<?xml"), text.contains("<testsuite name=\"midiviz batch")
        {
            unlink(junit)
        }
    }

    /// `removeEarlierReports` for arguments that did not parse: the `--report` and `--junit`
    /// they name (`--report FILE` or `--report=FILE`, before any `--`).
    static func removeEarlierReports(givenIn arguments: [String]) {
        guard !arguments.contains("--merge-reports") else { return }
        var named: [String: String] = [:]
        var index = arguments.startIndex
        while index < arguments.endIndex, arguments[index] != "--" {
            let argument = arguments[index]
            for option in ["report", "junit"] {
                if argument == "--" + option, index + 1 < arguments.endIndex {
                    named[option] = arguments[index + 1]
                } else if argument.hasPrefix("--\(option)=") {
                    named[option] = String(argument.dropFirst(option.count + 3))
                }
            }
            index += 1
        }
        removeEarlierReports(report: named["report"], junit: named["junit"])
    }

    /// Writes `summary` as the `--report` and `--junit` files asked for.
    private func writeReports(_ summary: BatchReport) throws {
        do throws(BatchError) {
            if let report { try summary.writeJSON(to: report) }
            if let junit { try summary.writeJUnit(to: junit) }
        } catch {
            throw fail(error.message, code: error.exitCode)
        }
    }

    /// `--merge-reports`: the shards' reports as one.
    private func merge() throws {
        do {
            try OutputChecks.check(files: [output, junit].compactMap { $0 }, inputs: inputs.map { ($0, "report of a shard, one of those merged") })
        } catch {
            throw error.reported
        }
        let merged: BatchReport
        do throws(BatchError) {
            merged = try BatchReport.merge(inputs)
            if let output { try merged.writeJSON(to: output) }
            if let junit { try merged.writeJUnit(to: junit) }
        } catch {
            throw fail(error.message, code: error.exitCode)
        }
        if reporting.progress == .json {
            // The merged totals as one JSON line, as a batch's songs are with --progress json.
            print(String(decoding: BatchReport.encoded(merged.totals), as: UTF8.self))
        } else if !reporting.quiet {
            FileHandle.standardError.write(Data("midiviz batch: \(inputs.count) reports, \(merged.songs.count) songs, \(merged.count(.failed)) failed\n".utf8))
        }
        if merged.count(.failed) > 0 { throw ExitCode(1) }
    }

    /// One line a song: on stderr, or a JSON line on stdout with `--progress json`.
    private static func announce(_ result: BatchResult, number: Int, of total: Int, reporting: ReportingOptions) {
        guard !reporting.quiet else { return }
        if reporting.progress == .json {
            print(result.jsonLine)
            fflush(nil)  // all streams: `stdout` is a C global Swift 6 will not read
        } else {
            let what =
                result.status == .failed ? "FAILED: \(result.message)" : result.status == .skipped ? "up to date" : result.outputs.joined(separator: ", ")
            say(String(format: "[%d/%d] %@: %@ (%.1f s)", number, total, result.input, what, result.wallSeconds))
            printWarnings(result.warnings.map { "\(result.input): \($0)" })
        }
    }
}
