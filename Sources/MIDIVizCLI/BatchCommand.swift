import ArgumentParser
import Foundation
import MIDIVizCore
import MIDIVizEngine
import MIDIVizIO

/// `midiviz batch INPUT... --output-dir DIR`: many songs in one command, past bad files, with a
/// report, up-to-date songs skipped, and a share of the songs per machine (`--shard`).
struct BatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Render many songs: files and folders (searched for .mid, .midi, .kar, .rmi) into --output-dir.",
        discussion: """
            Each song becomes DIR/<its path under the folder given>.mp4, with NAME.mp4.midiviz.json beside it recording \
            what made it; a song whose output and record match (same input bytes, options and midiviz version) is \
            skipped unless --force. Every render option applies to every song, except those naming outputs. \
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

    @Option(help: ArgumentHelp("Render only share K of N (from 1), balanced by song length; or auto: from GitLab's CI_NODE_INDEX/CI_NODE_TOTAL, a Slurm array's SLURM_ARRAY_TASK_ID/COUNT, a Kubernetes Indexed Job's JOB_COMPLETION_INDEX with MIDIVIZ_SHARD_COUNT, or MIDIVIZ_SHARD=K/N.", valueName: "K/N|auto"))
    var shard: ShardSpec?

    @Flag(help: "Render songs even when their outputs are up to date.")
    var force = false

    @Option(name: .shortAndLong, help: "With --merge-reports: the merged JSON report to write.")
    var output: String?

    @OptionGroup var reporting: ReportingOptions
    @OptionGroup var config: ConfigArguments
    @OptionGroup var look: LookArguments
    @OptionGroup var sound: SoundArguments
    @OptionGroup var render: RenderArguments
    @OptionGroup var limits: LimitsArguments

    var outputDirectory: String { outputDirectoryOption ?? "" }

    func validate() throws {
        if mergeReports {
            guard output != nil || junit != nil else { throw ValidationError("--merge-reports writes to -o FILE.json (and/or --junit FILE.xml)") }
            guard outputDirectoryOption == nil else { throw ValidationError("--merge-reports renders nothing: --output-dir does not apply") }
            return
        }
        guard outputDirectoryOption != nil || config.printConfig else { throw ValidationError("batch needs --output-dir DIR for the videos") }
        if output != nil {
            throw ValidationError("batch names each song's video itself under --output-dir: -o is for --merge-reports")
        }
    }

    /// The render options: config files, then the command line's.
    func renderOptions() throws -> RenderOptions { try config.options([look, sound, render, limits]) }

    func run() throws {
        let options = try renderOptions()
        if config.printConfig {
            print(ConfigFile.toml(options), terminator: "")
            return
        }
        if mergeReports {
            do {
                try OutputChecks.check(files: [output, junit].compactMap { $0 }, inputs: inputs.map { ($0, "report") })
            } catch {
                throw error.reported
            }
            let merged: BatchReport.Merged
            do { merged = try BatchReport.merge(inputs) } catch { throw fail(error.message, code: 65) }
            do {
                if let path = output { try BatchReport.write(merged.json.text + "\n", to: path) }
                if let junit { try BatchReport.write(merged.junit, to: junit) }
            } catch {
                throw fail(error.message, code: 73)
            }
            if !reporting.quiet {
                FileHandle.standardError.write(Data("midiviz batch: \(inputs.count) reports, \(merged.songs.count) songs, \(merged.failed) failed\n".utf8))
            }
            if merged.failed > 0 { throw ExitCode(1) }
            return
        }
        signal(SIGPIPE, SIG_IGN)
        let started = Date()
        let songs: [BatchSong]
        let shardNumbers: (index: Int, count: Int)?
        do throws(BatchError) {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: outputDirectory, isDirectory: &isFolder), !isFolder.boolValue {
                throw BatchError.usage("--output-dir \(outputDirectory) is not a folder")
            }
            var all = try BatchInputs.songs(inputs, outputDirectory: outputDirectory,
                                            base: options)
            guard !all.isEmpty else { throw BatchError.usage("no songs (.mid, .midi, .kar, .rmi) in \(inputs.joined(separator: ", "))") }
            // The reports replace no song, manifest or other output.
            let reads = all.map { ($0.input, "input song") } + inputs.filter(BatchManifest.isManifest).map { ($0, "manifest") }
                + all.map { ($0.output, "song's video") }
            do throws(RenderError) {
                try OutputChecks.check(files: [report, junit].compactMap { $0 }, inputs: reads)
            } catch {
                throw BatchError.usage(error.description)
            }
            shardNumbers = try shard?.resolve()
            if let (index, count) = shardNumbers {
                let durations = all.map { (try? SongLoader.load(path: $0.input).durationSeconds) ?? 0 }
                all = ShardSpec.share(all, durations: durations, index: index, count: count, name: \.relativePath)
            }
            songs = all
        } catch {
            throw fail(error.message, code: 64)
        }
        let runner = BatchRunner(songs: songs, options: options, songsAtOnce: max(1, options.jobs ?? 1), force: force, reporting: reporting)
        // A batch stopped between songs is still interrupted: the rest were not made.
        let interruption = Interruption { runner.stop(signal: $0); return false }
        defer { interruption.cancel() }
        let results = runner.run()
        interruption.yieldIfInterrupted()
        let summary = BatchReport(results: results, shard: shardNumbers, wallSeconds: Date().timeIntervalSince(started))
        do {
            if let report { try BatchReport.write(summary.json.text + "\n", to: report) }
            if let junit { try BatchReport.write(summary.junit, to: junit) }
        } catch {
            throw fail(error.message, code: 73)
        }
        if !reporting.quiet {
            FileHandle.standardError.write(Data(String(format: "midiviz batch: %d songs: %d rendered, %d up to date, %d failed, in %.1f s\n",
                                                       results.count, summary.count(.rendered), summary.count(.skipped),
                                                       summary.count(.failed), summary.wallSeconds).utf8))
        }
        if summary.count(.failed) > 0 { throw ExitCode(1) }
    }
}

extension BatchError {
    var message: String {
        switch self {
        case .usage(let message): return message
        }
    }
}

/// Renders a batch's songs, several at once, and stops them all on a signal.
final class BatchRunner: @unchecked Sendable {
    private let songs: [BatchSong]
    /// The command line's options, for songs without their own.
    private let options: RenderOptions
    private let songsAtOnce: Int
    private let force: Bool
    private let reporting: ReportingOptions
    private let lock = NSLock()
    private var next = 0
    private var stopped = false
    private var active: [Int: RenderJob] = [:]
    private var results: [BatchResult?]
    private var finished = 0

    init(songs: [BatchSong], options: RenderOptions, songsAtOnce: Int, force: Bool, reporting: ReportingOptions) {
        self.songs = songs
        self.options = options
        self.songsAtOnce = songsAtOnce
        self.force = force
        self.reporting = reporting
        results = Array(repeating: nil, count: songs.count)
    }

    func run() -> [BatchResult] {
        let workers = min(songsAtOnce, max(1, songs.count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while let index = claim() {
                let result = render(index, workers: workers)
                let number = lock.withLock {
                    results[index] = result
                    active[index] = nil
                    finished += 1
                    return finished
                }
                announce(result, number: number)
            }
        }
        return results.compactMap { $0 }
    }

    /// Stops every song being rendered (each removes its temporaries) and starts no more.
    func stop(signal: Int32) {
        let jobs = lock.withLock {
            stopped = true
            return Array(active.values)
        }
        for job in jobs { job.stop(signal: signal) }
    }

    private func claim() -> Int? {
        lock.withLock {
            guard !stopped, next < songs.count else { return nil }
            defer { next += 1 }
            return next
        }
    }

    private func render(_ index: Int, workers: Int) -> BatchResult {
        let song = songs[index]
        let started = Date()
        func failed(_ code: Int32, _ message: String) -> BatchResult {
            BatchResult(song: song, status: .failed, exitCode: code, message: message, durationSeconds: 0, frames: 0,
                        wallSeconds: Date().timeIntervalSince(started))
        }
        let bytes: [UInt8]
        let loaded: Song
        do throws(LoadError) {
            bytes = try SongLoader.readFile(song.input)
            loaded = try SongLoader.load(bytes: bytes, name: song.input)
        } catch {
            return failed(error.exitCode, error.description)
        }
        var options = song.options ?? self.options
        // `--jobs` is songs at once: each song renders on the cores left to it.
        options.jobs = max(1, ProcessInfo.processInfo.activeProcessorCount / workers)
        let request: RenderRequest
        do {
            request = try RenderRequest(song: loaded, songPath: song.input, songName: song.input, options: options,
                                        outputs: [.video(path: song.output, container: .mp4, crf: options.crf, preset: options.preset)],
                                        defaultJobs: 1)
        } catch {
            return failed(error.exitCode, error.message)
        }
        var record = BatchRecord(input: bytes, options: options)
        if !force, record.isUpToDate(output: song.output) {
            return BatchResult(song: song, status: .skipped, exitCode: 0, message: "up to date", durationSeconds: loaded.durationSeconds,
                               frames: 0, wallSeconds: Date().timeIntervalSince(started))
        }
        let folder = URL(fileURLWithPath: song.output).deletingLastPathComponent().path
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            return failed(73, "cannot create \(folder): \(error.localizedDescription)")
        }
        let job: RenderJob
        do { job = try RenderJob(request) } catch { return failed(error.exitCode, error.message) }
        let mayStart = lock.withLock {
            if !stopped { active[index] = job }
            return !stopped
        }
        guard mayStart else { return failed(130, "interrupted") }
        let summary: RenderSummary
        do { summary = try job.run() } catch { return failed(error.exitCode, error.message) }
        record.outputBytes = ((try? FileManager.default.attributesOfItem(atPath: song.output))?[.size] as? Int) ?? 0
        // Under the lock, and not once stopped: a signal never cuts a record short (a video
        // without its record is only rendered again).
        let written: Result<Void, Error> = lock.withLock {
            guard !stopped else { return .success(()) }
            return Result { try record.write(for: song.output) }
        }
        if case .failure(let error) = written {
            return failed(73, (error as? BatchError)?.message ?? "cannot write \(BatchRecord.path(of: song.output))")
        }
        return BatchResult(song: song, status: .rendered, exitCode: 0, message: "", durationSeconds: summary.durationSeconds,
                           frames: summary.frames, wallSeconds: Date().timeIntervalSince(started))
    }

    /// One line a song: on stderr, or a JSON line on stdout with `--progress json`.
    private func announce(_ result: BatchResult, number: Int) {
        guard !reporting.quiet else { return }
        if reporting.progress == .json {
            print(result.json.text)
            fflush(stdout)
        } else {
            let what = result.status == .failed ? "FAILED: \(result.message)" : result.status == .skipped ? "up to date" : "\(result.song.output)"
            FileHandle.standardError.write(Data(String(format: "[%d/%d] %@: %@ (%.1f s)\n", number, songs.count,
                                                       result.song.relativePath, what, result.wallSeconds).utf8))
        }
    }
}
