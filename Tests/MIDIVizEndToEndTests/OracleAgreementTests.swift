import Foundation
import Testing

/// `midiviz info --json --notes` against the independent reference (mido + pretty_midi, synth
/// semantics) on every corpus file.
@Suite(.enabled(if: TestEnvironment.oracleIsAvailable,
                "python3 with mido and pretty_midi is missing: pip install -r ../shared/tools/requirements-oracle.txt (.ci/run installs them)"))
struct OracleAgreementTests {
    /// What we do with each file the oracle rejects, and why.
    enum Expected {
        case refused
        /// Loaded with a warning containing `warning`, with this many notes.
        case repaired(warning: String, notes: Int)
    }

    static let oracleRejects: [String: Expected] = [
        "test-midi-files/test-empty-file.mid": .refused,
        "test-midi-files/test-not-a-midi-file.mid": .refused,
        // The last byte (of End-of-Track) is missing: every note is complete.
        "test-midi-files/test-corrupt-file-missing-byte.mid": .repaired(warning: "file is truncated", notes: 8),
        // Undefined status bytes inside the track are skipped; the file says "you must hear a C-major scale".
        "test-midi-files/test-illegal-message-f4.mid": .repaired(warning: "system message 0xF4", notes: 8),
        "test-midi-files/test-illegal-message-f5.mid": .repaired(warning: "system message 0xF5", notes: 8),
        "test-midi-files/test-illegal-message-f9.mid": .repaired(warning: "system message 0xF9", notes: 8),
        "test-midi-files/test-illegal-message-fd.mid": .repaired(warning: "system message 0xFD", notes: 8),
        "test-midi-files/test-illegal-message-all.mid": .repaired(warning: "system message 0xFE", notes: 8),
        // Running status continued after a SysEx, as the file's text expects (a C-major scale).
        "test-midi-files/test-running-status-sysex.mid": .repaired(warning: "running status used after a SysEx", notes: 8),
        // A time signature of 2 bytes instead of 4 is dropped; the 280 notes stay.
        "midly/Levels.mid": .repaired(warning: "time signature meta event of 2 bytes", notes: 280),
        // Cut at 64 KiB: 3 of 30 tracks; what is there is read.
        "midly/PiDamaged.mid": .repaired(warning: "file is truncated", notes: 8532),
    ]

    /// The oracle plays format 2 tracks together; the SMF spec (and this file's own text: "two
    /// scales in two tracks must play sequentially") plays them one after another, as we do.
    static let formatTwoFile = "test-midi-files/test-2-tracks-type-2.mid"

    struct OracleResult {
        var rejected: Bool
        var notes: [[Double]]
        var duration: Double
    }

    static let oracle: [String: OracleResult] = {
        let script = TestEnvironment.packageRoot.appendingPathComponent("scripts/oracle_corpus.py").path
        guard let result = try? ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"),
                                                  ["python3", script, TestEnvironment.oracleTools.path, TestEnvironment.corpus.path]),
              result.status == 0 else { return [:] }
        var results: [String: OracleResult] = [:]
        for line in result.stdoutText.split(separator: "\n") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let file = object["file"] as? String else { continue }
            results[file] = OracleResult(rejected: object["rejected"] as? Bool ?? true,
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
        let result = try ProcessRunner.midiviz(["info", "--json", "--notes", TestEnvironment.corpus.appendingPathComponent(file).path])
        guard result.status == 0 else { return Ours(status: result.status, notes: [], duration: 0, warnings: []) }
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        return Ours(status: 0, notes: try #require(object["notes"] as? [[Double]]),
                    duration: try #require(object["duration_s"] as? Double),
                    warnings: try #require(object["warnings"] as? [String]))
    }

    @Test func oracleCoversTheCorpus() {
        #expect(Self.oracle.count == TestEnvironment.corpusFiles().count, "the oracle script printed \(Self.oracle.count) results")
        let rejected = Set(Self.oracle.filter(\.value.rejected).keys)
        #expect(rejected == Set(Self.oracleRejects.keys), "every file the oracle rejects needs a stated expectation here")
    }

    @Test(arguments: TestEnvironment.corpusFiles())
    func agreesWithTheOracle(file: String) throws {
        let reference = try #require(Self.oracle[file], "no oracle result for \(file)")
        let mine = try Self.ours(file)
        if reference.rejected {
            switch try #require(Self.oracleRejects[file]) {
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
        if file == Self.formatTwoFile {
            try checkSequentialFormatTwo(mine: mine.notes, reference: reference.notes)
            return
        }
        for (index, (a, b)) in zip(mine.notes, reference.notes).enumerated() {
            #expect(abs(a[0] - b[0]) <= 0.001 && abs(a[1] - b[1]) <= 0.001 && Array(a[2...]) == Array(b[2...]),
                    "note \(index): ours \(a), oracle \(b)")
            if abs(a[0] - b[0]) > 0.001 || abs(a[1] - b[1]) > 0.001 || Array(a[2...]) != Array(b[2...]) { break }
        }
        #expect(abs(mine.duration - reference.duration) <= 0.001, "duration \(mine.duration), oracle \(reference.duration)")
    }

    /// Track 0 as the oracle has it; each later track the oracle's notes shifted to start after it.
    func checkSequentialFormatTwo(mine: [[Double]], reference: [[Double]]) throws {
        let tracks = Set(reference.map { Int($0[5]) }).sorted()
        #expect(tracks == [0, 1])
        let mine0 = mine.filter { $0[5] == 0 }, reference0 = reference.filter { $0[5] == 0 }
        let mine1 = mine.filter { $0[5] == 1 }, reference1 = reference.filter { $0[5] == 1 }
        #expect(mine0 == reference0)
        let offset = try #require(mine1.first)[0] - (try #require(reference1.first))[0]
        #expect(offset >= (mine0.map { $0[1] }.max() ?? 0) - 0.001, "track 1 must start after track 0 ends")
        for (a, b) in zip(mine1, reference1) {
            #expect(abs(a[0] - offset - b[0]) <= 0.001 && abs(a[1] - offset - b[1]) <= 0.001 && Array(a[2...]) == Array(b[2...]))
        }
    }
}
