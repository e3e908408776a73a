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

extension BatchReport {
    /// The shards' reports joined: every song once, the totals added up (wall time: the longest
    /// shard's, as they run at once; machine time: all of them).
    struct Merged {
        var songs: [[String: Any]]
        var shardWalls: [Double]

        var failed: Int { songs.filter { $0["status"] as? String == "failed" }.count }

        func sum(_ key: String) -> Double { songs.reduce(0) { $0 + (($1[key] as? NSNumber)?.doubleValue ?? 0) } }
        func count(_ status: String) -> Int { songs.filter { $0["status"] as? String == status }.count }

        var json: JSONValue {
            .object([
                ("songs", .array(songs.map(JSONValue.init(any:)))),
                ("totals", .object([
                    ("songs", .int(songs.count)), ("rendered", .int(count("rendered"))), ("skipped", .int(count("skipped"))),
                    ("failed", .int(failed)), ("duration_s", .double(sum("duration_s"))), ("frames", .int(Int(sum("frames")))),
                    ("wall_s", .double(shardWalls.max() ?? 0)), ("machine_s", .double(shardWalls.reduce(0, +))),
                    ("shards", .int(shardWalls.count)),
                ])),
            ])
        }

        /// The merged report as JUnit XML, through the same writer as one batch's.
        var junit: String {
            let results = songs.map { song in
                BatchResult(song: BatchSong(input: song["path"] as? String ?? "", relativePath: song["input"] as? String ?? "",
                                            output: (song["outputs"] as? [String])?.first ?? ""),
                            status: BatchResult.Status(rawValue: song["status"] as? String ?? "") ?? .failed,
                            exitCode: Int32((song["exit_code"] as? NSNumber)?.intValue ?? 1), message: song["message"] as? String ?? "",
                            durationSeconds: (song["duration_s"] as? NSNumber)?.doubleValue ?? 0,
                            frames: (song["frames"] as? NSNumber)?.intValue ?? 0, wallSeconds: (song["wall_s"] as? NSNumber)?.doubleValue ?? 0)
            }
            return BatchReport(results: results, shard: nil, wallSeconds: shardWalls.max() ?? 0).junit
        }
    }

    /// Reads the reports `paths`; refuses one that is not a batch report, and a song in two.
    static func merge(_ paths: [String]) throws(BatchError) -> Merged {
        var merged = Merged(songs: [], shardWalls: [])
        var seen: [String: String] = [:]
        for path in paths {
            guard let data = FileManager.default.contents(atPath: path),
                  let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
                  let songs = object["songs"] as? [[String: Any]], let totals = object["totals"] as? [String: Any]
            else { throw .usage("\(path): not a midiviz batch report") }
            for song in songs {
                let key = song["path"] as? String ?? song["input"] as? String ?? ""
                if let other = seen[key] { throw .usage("\(key) is in two reports: \(other) and \(path)") }
                seen[key] = path
                merged.songs.append(song)
            }
            merged.shardWalls.append((totals["wall_s"] as? NSNumber)?.doubleValue ?? 0)
        }
        merged.songs.sort { ($0["input"] as? String ?? "") < ($1["input"] as? String ?? "") }
        return merged
    }
}

extension JSONValue {
    /// A value JSONSerialization read, back into a JSONValue (keys in sorted order).
    init(any value: Any) {
        switch value {
        case let number as NSNumber:  // a report holds no booleans
            if Double(number.int64Value) == number.doubleValue {
                self = .int(number.intValue)
            } else {
                self = .double(number.doubleValue)
            }
        case let text as String: self = .string(text)
        case let array as [Any]: self = .array(array.map(JSONValue.init(any:)))
        case let object as [String: Any]: self = .object(object.keys.sorted().map { ($0, JSONValue(any: object[$0]!)) })
        default: self = .null
        }
    }
}
