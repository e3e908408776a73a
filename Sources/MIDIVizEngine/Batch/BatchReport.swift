import Foundation
import MIDIVizIO

/// How one song of a batch went: a JSON object of the report (`--report`, and a `--progress
/// json` line), by the keys `input`, `path`, `status`, `exit_code`, `message`, `warnings`,
/// `outputs`, `duration_s`, `frames`, `wall_s` and `options`.
public struct BatchResult: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable { case rendered, skipped, failed }

    /// The song's name: its path under the folder it was found in.
    public var input: String
    /// The song's file.
    public var path: String
    public var status: Status
    /// What `midiviz render` of the song alone would exit with (0 unless failed).
    public var exitCode: Int32
    /// Why it failed, "up to date" when skipped, else empty.
    public var message: String
    /// What the loader repaired in the song and what its render leaves out, as `render` says
    /// them before it starts (`midiviz: warning: ...`); empty when none, or not loaded.
    public var warnings: [String]
    /// The files written (or up to date); none when failed.
    public var outputs: [String]
    public var durationSeconds: Double
    public var frames: Int
    public var wallSeconds: Double
    /// How the song was made: the options that shape its output and differ from the defaults,
    /// by declared name, as texts (files as absolute paths).
    public var options: [String: [String]]

    enum CodingKeys: String, CodingKey {
        case input, path, status, exitCode = "exit_code", message, warnings, outputs, durationSeconds = "duration_s", frames
        case wallSeconds = "wall_s", options
    }

    public init(
        input: String, path: String, status: Status, exitCode: Int32, message: String, warnings: [String] = [], outputs: [String],
        durationSeconds: Double, frames: Int, wallSeconds: Double, options: [String: [String]]
    ) {
        self.input = input
        self.path = path
        self.status = status
        self.exitCode = exitCode
        self.message = message
        self.warnings = warnings
        self.outputs = outputs
        self.durationSeconds = durationSeconds
        self.frames = frames
        self.wallSeconds = wallSeconds
        self.options = options
    }

    /// How `song` went: its output among the outputs unless it failed.
    public init(
        song: BatchSong, status: Status, exitCode: Int32, message: String, warnings: [String] = [], durationSeconds: Double, frames: Int,
        wallSeconds: Double
    ) {
        self.init(
            input: song.relativePath, path: song.input, status: status, exitCode: exitCode, message: message, warnings: warnings,
            outputs: status == .failed ? [] : [song.output], durationSeconds: durationSeconds, frames: frames,
            wallSeconds: wallSeconds, options: song.options.shapingTexts(changedOnly: true))
    }

    /// Reads a song of a report, of this version or an earlier one (without `options` or `warnings`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        input = try container.decode(String.self, forKey: .input)
        path = try container.decodeIfPresent(String.self, forKey: .path) ?? input
        status = try container.decode(Status.self, forKey: .status)
        exitCode = try container.decodeIfPresent(Int32.self, forKey: .exitCode) ?? (status == .failed ? 1 : 0)
        message = try container.decodeIfPresent(String.self, forKey: .message) ?? ""
        warnings = try container.decodeIfPresent([String].self, forKey: .warnings) ?? []
        outputs = try container.decodeIfPresent([String].self, forKey: .outputs) ?? []
        durationSeconds = try container.decodeIfPresent(Double.self, forKey: .durationSeconds) ?? 0
        frames = try container.decodeIfPresent(Int.self, forKey: .frames) ?? 0
        wallSeconds = try container.decodeIfPresent(Double.self, forKey: .wallSeconds) ?? 0
        options = try container.decodeIfPresent([String: [String]].self, forKey: .options) ?? [:]
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(input, forKey: .input)
        try container.encode(path, forKey: .path)
        try container.encode(status, forKey: .status)
        try container.encode(exitCode, forKey: .exitCode)
        try container.encode(message, forKey: .message)
        try container.encode(warnings, forKey: .warnings)
        try container.encode(outputs, forKey: .outputs)
        try container.encodeNumber(durationSeconds, forKey: .durationSeconds)
        try container.encode(frames, forKey: .frames)
        try container.encodeNumber(BatchReport.milliseconds(wallSeconds), forKey: .wallSeconds)
        try container.encode(options, forKey: .options)
    }

    /// The result as one line of JSON (a `--progress json` line), without its line end.
    public var jsonLine: String { String(decoding: BatchReport.encoded(self), as: UTF8.self) }
}

/// A batch's totals: songs by status, the music's seconds and frames, the wall time. A merged
/// report adds the machines' time (`machine_s`: every shard's wall time) and the shards.
public struct BatchTotals: Codable, Sendable, Equatable {
    public var songs: Int
    public var rendered: Int
    public var skipped: Int
    public var failed: Int
    public var durationSeconds: Double
    public var frames: Int
    /// The batch's wall time; merged, the longest shard's (they run at once).
    public var wallSeconds: Double
    /// Merged reports only: the shards' wall times added up.
    public var machineSeconds: Double?
    /// Merged reports only: how many reports were merged.
    public var shards: Int?

    enum CodingKeys: String, CodingKey {
        case songs, rendered, skipped, failed, durationSeconds = "duration_s", frames, wallSeconds = "wall_s"
        case machineSeconds = "machine_s", shards
    }

    /// The totals of `results`, over `wallSeconds`.
    public init(results: [BatchResult], wallSeconds: Double) {
        songs = results.count
        rendered = results.filter { $0.status == .rendered }.count
        skipped = results.filter { $0.status == .skipped }.count
        failed = results.filter { $0.status == .failed }.count
        durationSeconds = results.reduce(0) { $0 + $1.durationSeconds }
        frames = results.reduce(0) { $0 + $1.frames }
        self.wallSeconds = wallSeconds
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        songs = try container.decodeIfPresent(Int.self, forKey: .songs) ?? 0
        rendered = try container.decodeIfPresent(Int.self, forKey: .rendered) ?? 0
        skipped = try container.decodeIfPresent(Int.self, forKey: .skipped) ?? 0
        failed = try container.decodeIfPresent(Int.self, forKey: .failed) ?? 0
        durationSeconds = try container.decodeIfPresent(Double.self, forKey: .durationSeconds) ?? 0
        frames = try container.decodeIfPresent(Int.self, forKey: .frames) ?? 0
        wallSeconds = try container.decodeIfPresent(Double.self, forKey: .wallSeconds) ?? 0
        machineSeconds = try container.decodeIfPresent(Double.self, forKey: .machineSeconds)
        shards = try container.decodeIfPresent(Int.self, forKey: .shards)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(songs, forKey: .songs)
        try container.encode(rendered, forKey: .rendered)
        try container.encode(skipped, forKey: .skipped)
        try container.encode(failed, forKey: .failed)
        try container.encodeNumber(durationSeconds, forKey: .durationSeconds)
        try container.encode(frames, forKey: .frames)
        try container.encodeNumber(BatchReport.milliseconds(wallSeconds), forKey: .wallSeconds)
        if let machineSeconds { try container.encodeNumber(BatchReport.milliseconds(machineSeconds), forKey: .machineSeconds) }
        try container.encodeIfPresent(shards, forKey: .shards)
    }
}

/// A batch's report: each song, then the totals, and the share when sharded; as JSON
/// (`--report`, read back by `merge`) and JUnit XML (`--junit`).
public struct BatchReport: Codable, Sendable, Equatable {
    public var songs: [BatchResult]
    public var totals: BatchTotals
    public var shard: BatchShard?
    /// The identity of the batch's plan (`BatchPlan.identity`): the same in every shard's report.
    public var plan: String?
    /// How many songs the batch (its share, when sharded) had to render: each is in `songs`,
    /// so that merging finds a report that has lost some.
    public var plannedSongs: Int?

    enum CodingKeys: String, CodingKey {
        case songs, totals, shard, plan
        case plannedSongs = "planned_songs"
    }

    public init(songs: [BatchResult], wallSeconds: Double, shard: BatchShard? = nil, plan: String? = nil) {
        self.songs = songs
        totals = BatchTotals(results: songs, wallSeconds: wallSeconds)
        self.shard = shard
        self.plan = plan
        plannedSongs = songs.count
    }

    /// How many songs went so.
    public func count(_ status: BatchResult.Status) -> Int { songs.filter { $0.status == status }.count }

    /// The report as JSON, keys sorted, with a line end.
    public var json: Data { Self.encoded(self) + Data("\n".utf8) }

    /// Writes the JSON report to `path` whole (under a temporary name, then renamed).
    public func writeJSON(to path: String) throws(BatchError) { try BatchFile.write(json, to: path, makingFolder: true) }

    /// Writes the JUnit XML report to `path` whole.
    public func writeJUnit(to path: String) throws(BatchError) { try BatchFile.write(Data(junit.utf8), to: path, makingFolder: true) }

    /// Reads a JSON report (`--report`) back, refusing numbers no batch writes.
    public static func read(_ path: String) throws(BatchError) -> BatchReport {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .missingReport("\(path): cannot read the report: \(RegularFile.problem(at: path) ?? "unreadable")")
        }
        guard let report = try? JSONDecoder().decode(BatchReport.self, from: data) else {
            throw .badReport("\(path): not a midiviz batch report")
        }
        for song in report.songs {
            let problem =
                !(0...255).contains(song.exitCode)
                ? "exit code \(song.exitCode)"
                : !(0...Self.largestCount).contains(song.frames)
                    ? "\(song.frames) frames"
                    : !(0...Self.longestSeconds).contains(song.durationSeconds)
                        ? "a duration of \(song.durationSeconds) s"
                        : !(0...Self.longestSeconds).contains(song.wallSeconds) ? "a wall time of \(song.wallSeconds) s" : nil
            if let problem { throw .badReport("\(path): \(song.input) has \(problem), which no batch writes") }
        }
        guard (0...Self.longestSeconds).contains(report.totals.wallSeconds) else {
            throw .badReport("\(path): a wall time of \(report.totals.wallSeconds) s, which no batch writes")
        }
        guard report.songs.count <= Self.largestSongCount else {
            throw .badReport("\(path): \(report.songs.count) songs, more than a batch renders (\(Self.largestSongCount))")
        }
        return report
    }

    /// Bounds on what a report read back may say (far beyond any real batch), so that totals
    /// cannot overflow.
    static let largestCount = 1 << 40
    static let largestSongCount = 1 << 20
    static let longestSeconds = 1e12

    /// The shards' reports joined: every song once, sorted by name, the totals added up (wall
    /// time: the longest shard's, as they run at once; machine time: all of them). Refuses
    /// reports that are not shards (`--shard`) of one batch (the same plan and N), a shard
    /// given twice, a shard missing, and a song in two reports.
    /// - Parameter reports: each report with the name errors use for it (its path).
    public static func merge(_ reports: [(name: String, report: BatchReport)]) throws(BatchError) -> BatchReport {
        guard let (firstName, first) = reports.first else { throw .usage("no reports to merge") }
        var byIndex: [Int: String] = [:]
        for (name, report) in reports {
            guard let shard = report.shard else {
                throw .badReport("\(name) is not a shard's report (its batch was not sharded): there is nothing to merge it with")
            }
            guard let plan = report.plan else {
                throw .badReport("\(name) does not say which batch it is from (written before midiviz 0.3.0): render its shard again")
            }
            guard plan == first.plan else {
                throw .badReport("\(name) and \(firstName) are shards of different batches (other songs or options)")
            }
            guard shard.count == first.shard?.count else {
                throw .badReport("\(name) is shard \(shard) but \(firstName) is shard \(first.shard.map(\.description) ?? "none")")
            }
            if let other = byIndex[shard.index] { throw .badReport("\(other) and \(name) are both shard \(shard)") }
            byIndex[shard.index] = name
            if let planned = report.plannedSongs, planned != report.songs.count {
                throw .badReport(
                    "\(name) lists \(report.songs.count) song\(report.songs.count == 1 ? "" : "s"), but its shard had \(planned): it has been cut or edited")
            }
        }
        let count = first.shard?.count ?? 0
        if byIndex.count < count {
            // The first few missing, found without walking all N (N may be huge).
            var missing: [Int] = []
            var index = 1
            while missing.count < 10 && index <= count {
                if byIndex[index] == nil { missing.append(index) }
                index += 1
            }
            let more = count - byIndex.count > missing.count
            let shown = missing.map(String.init).joined(separator: ", ") + (more ? ", ..." : "")
            let one = count - byIndex.count == 1
            throw .badReport("\(one ? "shard" : "shards") \(shown) of \(count) \(one ? "is" : "are") missing: merge every shard's report")
        }
        var songs: [BatchResult] = []
        var seen: [String: String] = [:]
        var frames = 0
        for (name, report) in reports {
            for song in report.songs {
                if let other = seen[song.path] { throw .badReport("\(song.path) is in two reports: \(other) and \(name)") }
                seen[song.path] = name
                songs.append(song)
                let (sum, overflow) = frames.addingReportingOverflow(song.frames)
                guard !overflow, sum <= largestCount else { throw .badReport("\(name): the songs' frames add up past any batch") }
                frames = sum
            }
        }
        songs.sort { $0.input < $1.input }
        let walls = reports.map(\.report.totals.wallSeconds)
        var merged = BatchReport(songs: songs, wallSeconds: walls.max() ?? 0, plan: first.plan)
        merged.totals.machineSeconds = walls.reduce(0, +)
        merged.totals.shards = reports.count
        return merged
    }

    /// Reads the reports `paths` and merges them.
    public static func merge(_ paths: [String]) throws(BatchError) -> BatchReport {
        var reports: [(name: String, report: BatchReport)] = []
        for path in paths { reports.append((path, try read(path))) }
        return try merge(reports)
    }

    /// JUnit XML as GitHub Actions, GitLab and Jenkins read it: a test case per song, a
    /// failure for each failed song, skipped for each up-to-date one.
    public var junit: String {
        func escaped(_ text: String) -> String {
            var out = ""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "&": out += "&amp;"
                case "<": out += "&lt;"
                case ">": out += "&gt;"
                case "\"": out += "&quot;"
                case "\n": out += "&#10;"
                default:
                    // Characters XML 1.0 cannot hold at all.
                    if scalar.value < 0x20 && scalar != "\t" && scalar != "\r" { out += "?" } else { out.unicodeScalars.append(scalar) }
                }
            }
            return out
        }
        let wallSeconds = totals.wallSeconds
        let name = shard.map { "midiviz batch (shard \($0.index)/\($0.count))" } ?? "midiviz batch"
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites tests=\"\(songs.count)\" failures=\"\(count(.failed))\" time=\"\(String(format: "%.3f", wallSeconds))\">\n"
        xml +=
            "  <testsuite name=\"\(escaped(name))\" tests=\"\(songs.count)\" failures=\"\(count(.failed))\" skipped=\"\(count(.skipped))\" time=\"\(String(format: "%.3f", wallSeconds))\">\n"
        for result in songs {
            xml += "    <testcase classname=\"midiviz.batch\" name=\"\(escaped(result.input))\" time=\"\(String(format: "%.3f", result.wallSeconds))\""
            // The warnings as `render` prints them, on the test case's standard error.
            let warnings =
                result.warnings.isEmpty
                ? "" : "      <system-err>\(escaped(result.warnings.map { "midiviz: warning: \($0)\n" }.joined()))</system-err>\n"
            switch result.status {
            case .rendered: xml += warnings.isEmpty ? "/>\n" : ">\n" + warnings + "    </testcase>\n"
            case .skipped: xml += ">\n      <skipped message=\"up to date\"/>\n" + warnings + "    </testcase>\n"
            case .failed:
                xml +=
                    ">\n      <failure message=\"\(escaped(result.message))\" type=\"exit \(result.exitCode)\">\(escaped(result.message))</failure>\n"
                    + warnings + "    </testcase>\n"
            }
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    /// A value as JSON, compact on one line, keys sorted, slashes as they are.
    package static func encoded<Value: Encodable>(_ value: Value) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)) ?? Data("{}".utf8)
    }

    /// Seconds to the millisecond, as reports give wall times.
    static func milliseconds(_ seconds: Double) -> Double { (seconds * 1000).rounded() / 1000 }
}

extension KeyedEncodingContainer {
    /// A number as reports write it: to 9 decimals, so that binary noise (0.30000000000000004)
    /// stays out of them; null when not finite.
    mutating func encodeNumber(_ value: Double, forKey key: Key) throws {
        let rounded = (value * 1e9).rounded() / 1e9
        if !value.isFinite {
            try encodeNil(forKey: key)
        } else {
            try encode(rounded.isFinite ? rounded : value, forKey: key)
        }
    }
}
