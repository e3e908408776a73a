import Foundation

/// How one song of a batch went.
struct BatchResult {
    enum Status: String { case rendered, skipped, failed }

    var song: BatchSong
    var status: Status
    var exitCode: Int32
    var message: String
    var durationSeconds: Double
    var frames: Int
    var wallSeconds: Double

    var json: JSONValue {
        .object([("input", .string(song.relativePath)), ("path", .string(song.input)), ("status", .string(status.rawValue)),
                 ("exit_code", .int(Int(exitCode))), ("message", .string(message)),
                 ("outputs", .array(status == .failed ? [] : [.string(song.output)])),
                 ("duration_s", .double(durationSeconds)), ("frames", .int(frames)),
                 ("wall_s", .double((wallSeconds * 1000).rounded() / 1000))])
    }
}

/// The batch's report: each song, then the totals; as JSON (`--report`) and JUnit XML (`--junit`).
struct BatchReport {
    var results: [BatchResult]
    var shard: (index: Int, count: Int)?
    var wallSeconds: Double

    func count(_ status: BatchResult.Status) -> Int { results.filter { $0.status == status }.count }

    var json: JSONValue {
        var members: [(String, JSONValue)] = [("songs", .array(results.map(\.json)))]
        members.append(("totals", .object([
            ("songs", .int(results.count)), ("rendered", .int(count(.rendered))), ("skipped", .int(count(.skipped))),
            ("failed", .int(count(.failed))), ("duration_s", .double(results.reduce(0) { $0 + $1.durationSeconds })),
            ("frames", .int(results.reduce(0) { $0 + $1.frames })), ("wall_s", .double((wallSeconds * 1000).rounded() / 1000)),
        ])))
        if let shard { members.append(("shard", .string("\(shard.index)/\(shard.count)"))) }
        return .object(members)
    }

    /// JUnit XML as GitHub Actions, GitLab and Jenkins read it: a test case per song, a
    /// failure for each failed song, skipped for each up-to-date one.
    var junit: String {
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
        let name = shard.map { "midiviz batch (shard \($0.index)/\($0.count))" } ?? "midiviz batch"
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites tests=\"\(results.count)\" failures=\"\(count(.failed))\" time=\"\(String(format: "%.3f", wallSeconds))\">\n"
        xml += "  <testsuite name=\"\(escaped(name))\" tests=\"\(results.count)\" failures=\"\(count(.failed))\" skipped=\"\(count(.skipped))\" time=\"\(String(format: "%.3f", wallSeconds))\">\n"
        for result in results {
            xml += "    <testcase classname=\"midiviz.batch\" name=\"\(escaped(result.song.relativePath))\" time=\"\(String(format: "%.3f", result.wallSeconds))\""
            switch result.status {
            case .rendered: xml += "/>\n"
            case .skipped: xml += ">\n      <skipped message=\"up to date\"/>\n    </testcase>\n"
            case .failed:
                xml += ">\n      <failure message=\"\(escaped(result.message))\" type=\"exit \(result.exitCode)\">\(escaped(result.message))</failure>\n    </testcase>\n"
            }
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    /// Writes `text` to `path` under a temporary name, then renames it into place.
    static func write(_ text: String, to path: String) throws(BatchError) {
        let temporary = path + ".midiviz-\(getpid())-tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8)), rename(temporary, path) == 0 else {
            unlink(temporary)
            throw .usage("cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }
}
