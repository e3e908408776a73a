import Foundation
import Testing

/// `midiviz info --json --notes` against an independent reference, `scripts/reference_notes.py`
/// (mido reads the file, pretty_midi maps ticks to seconds), on every corpus file.
@Suite(
    .enabled(
        if: TestEnvironment.oracleIsAvailable,
        "python3 with mido and pretty_midi is missing: pip install -r scripts/requirements-reference.txt (scripts/setup does)"),
    .timeLimit(.minutes(30)))
struct OracleAgreementTests {
    /// What we do with each file the oracle rejects, and why.
    enum Expected {
        case refused
        /// Loaded with a warning containing `warning`, with this many notes.
        case repaired(warning: String, notes: Int)
    }

    /// Keyed by the end of the file's path.
    static let oracleRejects: [String: Expected] = [
        "jazz-soft/test-empty-file.mid": .refused,
        "jazz-soft/test-not-a-midi-file.mid": .refused,
        // The last byte (of End-of-Track) is missing: every note is complete.
        "jazz-soft/test-corrupt-file-missing-byte.mid": .repaired(warning: "file is truncated", notes: 8),
        // Undefined status bytes inside the track are skipped; the file says "you must hear a C-major scale".
        "jazz-soft/test-illegal-message-f4.mid": .repaired(warning: "system message 0xF4", notes: 8),
        "jazz-soft/test-illegal-message-f5.mid": .repaired(warning: "system message 0xF5", notes: 8),
        "jazz-soft/test-illegal-message-f9.mid": .repaired(warning: "system message 0xF9", notes: 8),
        "jazz-soft/test-illegal-message-fd.mid": .repaired(warning: "system message 0xFD", notes: 8),
        "jazz-soft/test-illegal-message-all.mid": .repaired(warning: "system message 0xFE", notes: 8),
        // Running status continued after a SysEx, as the file's text expects (a C-major scale).
        "jazz-soft/test-running-status-sysex.mid": .repaired(warning: "running status used after a SysEx", notes: 8),
        // A time signature of 2 bytes instead of 4 is dropped; the notes stay.
        "fixtures/short-time-signature.mid": .repaired(warning: "time signature meta event of 2 bytes", notes: 16),
        // Cut inside the third of 30 promised tracks: what is complete is read.
        "fixtures/truncated-30-tracks.mid": .repaired(warning: "file is truncated", notes: 9),
        // The same two cases in files of the extra corpus, when it is there.
        "midly/Levels.mid": .repaired(warning: "time signature meta event of 2 bytes", notes: 280),
        "midly/PiDamaged.mid": .repaired(warning: "file is truncated", notes: 8532),
    ]

    static func rejectExpectation(_ file: String) -> Expected? {
        oracleRejects.first { file.hasSuffix($0.key) }?.value
    }

    struct OracleResult {
        var rejected: Bool
        var notes: [[Double]]
        var duration: Double
    }

    static let oracle: [String: OracleResult] = {
        let script = TestEnvironment.packageRoot.appendingPathComponent("scripts/reference_notes.py").path
        let paths = TestEnvironment.corpusFiles.map(TestEnvironment.path(of:))
        guard let result = try? ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script] + paths),
            result.status == 0
        else { return [:] }
        var results: [String: OracleResult] = [:]
        for line in result.stdoutText.split(separator: "\n") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let file = object["file"] as? String
            else { continue }
            results[paths.firstIndex(of: file).map { TestEnvironment.corpusFiles[$0] } ?? file] = OracleResult(
                rejected: object["rejected"] as? Bool ?? true,
                notes: (object["notes"] as? [[Double]]) ?? [],
                duration: object["duration_s"] as? Double ?? 0)
        }
        return results
    }()

    struct Ours {
        var status: Int32
        var notes: [[Double]]
        var duration: Double
        var warnings: [String]
    }

    static func ours(_ file: String) throws -> Ours {
        let result = try ProcessRunner.midiviz(["info", "--json", "--notes", TestEnvironment.path(of: file)])
        guard result.status == 0 else { return Ours(status: result.status, notes: [], duration: 0, warnings: []) }
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        return Ours(
            status: 0, notes: try #require(object["notes"] as? [[Double]]),
            duration: try #require(object["duration_s"] as? Double),
            warnings: try #require(object["warnings"] as? [String]))
    }

    @Test func oracleCoversTheCorpus() {
        #expect(Self.oracle.count == TestEnvironment.corpusFiles.count, "the reference printed \(Self.oracle.count) results")
        let rejected = Self.oracle.filter(\.value.rejected).keys
        let unexplained = rejected.filter { Self.rejectExpectation($0) == nil }
        #expect(unexplained.isEmpty, "every file the reference rejects needs a stated expectation here")
        // Every stated case of the repository's own corpus is exercised without the extra corpus.
        let ownKeys = Self.oracleRejects.keys.filter { !$0.hasPrefix("midly/") }
        #expect(ownKeys.allSatisfy { key in rejected.contains { $0.hasSuffix(key) } }, "rejected: \(rejected.sorted())")
    }

    @Test(arguments: TestEnvironment.corpusFiles)
    func agreesWithTheOracle(file: String) throws {
        let reference = try #require(Self.oracle[file], "no oracle result for \(file)")
        let mine = try Self.ours(file)
        if reference.rejected {
            switch try #require(Self.rejectExpectation(file)) {
            case .refused:
                #expect(mine.status == 65)
            case .repaired(let warning, let count):
                #expect(mine.status == 0)
                #expect(mine.warnings.contains { $0.contains(warning) }, "warnings: \(mine.warnings)")
                #expect(mine.notes.count == count)
            }
            return
        }
        try #require(mine.status == 0, "we refuse a file the oracle reads")
        try #require(mine.notes.count == reference.notes.count, "\(mine.notes.count) notes, oracle \(reference.notes.count)")
        for (index, (a, b)) in zip(mine.notes, reference.notes).enumerated() {
            #expect(
                abs(a[0] - b[0]) <= 0.001 && abs(a[1] - b[1]) <= 0.001 && Array(a[2...]) == Array(b[2...]),
                "note \(index): ours \(a), oracle \(b)")
            if abs(a[0] - b[0]) > 0.001 || abs(a[1] - b[1]) > 0.001 || Array(a[2...]) != Array(b[2...]) { break }
        }
        #expect(abs(mine.duration - reference.duration) <= 0.001, "duration \(mine.duration), oracle \(reference.duration)")
    }
}
