import Foundation
import Testing

/// The score tools' cache through the binary, with the real tools behind wrappers that log each
/// run and, once told to (a `broken` file beside them), fail every run but the version queries:
/// a second run of a song runs no tool and gives the same frame; a changed score and a damaged
/// entry are read and engraved again; a cache that cannot be written is only no cache.
@Suite(.timeLimit(.minutes(30)), .enabled(if: SheetCommandTests.toolsAvailable, Comment(rawValue: SheetCommandTests.missing)))
struct ScoreToolCacheCommandTests {
    /// A folder with logging wrappers of MuseScore 3 and python3, and the environment using them
    /// and a cache of its own.
    struct Tools {
        let folder: String
        var log: String { folder + "/tools.log" }
        var broken: String { folder + "/broken" }
        var cache: String { folder + "/cache" }
        var environment: [String: String] {
            ["MIDIVIZ_MUSESCORE": folder + "/musescore3", "MIDIVIZ_PYTHON": folder + "/python3", "MIDIVIZ_CACHE": cache]
        }

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("midiviz-cache-\(getpid())-\(UUID().uuidString.prefix(8))").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
            for tool in ["musescore3", "python3"] {
                let real = try #require(path.split(separator: ":").map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) })
                let script = """
                    #!/bin/sh
                    printf '%s\\n' "$*" >> '\(log)'
                    if [ -e '\(broken)' ]; then
                      case "$*" in *--version*|*importlib.metadata*) ;; *) echo "broken on purpose" >&2; exit 1;; esac
                    fi
                    exec '\(real)' "$@"

                    """
                FileManager.default.createFile(atPath: "\(folder)/\(tool)", contents: Data(script.utf8))
                chmod("\(folder)/\(tool)", 0o755)
            }
        }

        /// What the tools were asked since the last call; the log emptied.
        func runs() -> String {
            defer { try? FileManager.default.removeItem(atPath: log) }
            return (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        }

        func breakTools(_ broken: Bool) {
            if broken {
                FileManager.default.createFile(atPath: self.broken, contents: Data())
            } else {
                try? FileManager.default.removeItem(atPath: self.broken)
            }
        }

        func entries() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: cache)) ?? []).sorted() }

        func remove() { try? FileManager.default.removeItem(atPath: folder) }
    }

    static let scale = TestEnvironment.path(of: "fixtures/sheet/c-major-scale.musicxml")
    static let arpeggio = TestEnvironment.path(of: "fixtures/c-major-arpeggio.mid")

    /// The frames a score (read and engraved) and a MIDI file (notated and engraved) make.
    static let posters: [(name: String, arguments: [String])] = [
        ("score.png", [scale, "--at", "0.5", "--style", "sheet"]), ("midi.png", [arpeggio, "--at", "1", "--style", "keyboard", "--sheet"]),
    ]

    func poster(_ arguments: [String], to path: String, _ tools: Tools, environment: [String: String] = [:]) throws -> ProcessRunner.Result {
        try ProcessRunner.midiviz(
            ["frame"] + arguments + ["--size", "320x180", "-o", path], environment: tools.environment.merging(environment) { $1 })
    }

    /// The runs that convert or engrave (not the version queries).
    func conversions(_ log: String) -> (score: Bool, notation: Bool, engraving: Bool) {
        (log.contains("job.json"), log.contains("notation.mid"), log.contains("renderToTimemap"))
    }

    @Test func aSecondRunRunsNoToolAndGivesTheSameFrame() throws {
        let tools = try Tools()
        defer { tools.remove() }
        for poster in Self.posters {
            let made = try self.poster(poster.arguments, to: tools.folder + "/first-" + poster.name, tools)
            #expect(made.status == 0, "\(made.stderr)")
        }
        let first = conversions(tools.runs())
        #expect(first.score && first.notation && first.engraving, "the first run reads, notates and engraves")
        #expect(tools.entries().map { $0.prefix { $0 != "-" } } == ["notation", "score", "verovio", "verovio"])
        tools.breakTools(true)
        try expectPostersAsFirst("again", tools)
        let second = conversions(tools.runs())
        #expect(!second.score && !second.notation && !second.engraving, "no tool converted or engraved")
        // The broken tools are noticed when the cache is off: the runs above did not need them.
        for poster in Self.posters {
            let off = try self.poster(poster.arguments, to: tools.folder + "/off-" + poster.name, tools, environment: ["MIDIVIZ_CACHE": "off"])
            #expect(off.status == 65, "\(off.stderr)")
        }
    }

    /// Makes every poster again as `name-…` and expects each to succeed with the first run's bytes.
    func expectPostersAsFirst(_ name: String, _ tools: Tools) throws {
        for poster in Self.posters {
            let made = try self.poster(poster.arguments, to: tools.folder + "/\(name)-" + poster.name, tools)
            #expect(made.status == 0, "\(made.stderr)")
            #expect(
                FileManager.default.contents(atPath: tools.folder + "/\(name)-" + poster.name)
                    == FileManager.default.contents(atPath: tools.folder + "/first-" + poster.name))
        }
    }

    @Test func aChangedScoreIsReadAndEngravedAgain() throws {
        let tools = try Tools()
        defer { tools.remove() }
        let score = tools.folder + "/scale.musicxml"
        try FileManager.default.copyItem(atPath: Self.scale, toPath: score)
        let arguments = [score, "--at", "0", "--style", "sheet"]
        #expect(try poster(arguments, to: tools.folder + "/before.png", tools).status == 0)
        _ = tools.runs()
        // The first note, C4, made E4.
        let text = try String(contentsOfFile: score, encoding: .utf8)
        let first = try #require(text.range(of: "<step>C</step>"))
        try text.replacingCharacters(in: first, with: "<step>E</step>").write(toFile: score, atomically: true, encoding: .utf8)
        tools.breakTools(true)
        #expect(try poster(arguments, to: tools.folder + "/broken.png", tools).status == 65, "the changed score needs the tools")
        tools.breakTools(false)
        _ = tools.runs()
        let after = try poster(arguments, to: tools.folder + "/after.png", tools)
        #expect(after.status == 0, "\(after.stderr)")
        let runs = conversions(tools.runs())
        #expect(runs.score && runs.engraving)
        let before = try #require(FileManager.default.contents(atPath: tools.folder + "/before.png"))
        #expect(FileManager.default.contents(atPath: tools.folder + "/after.png") != before, "the frame shows the changed note")
    }

    @Test func aDamagedEntryIsMadeAgain() throws {
        let tools = try Tools()
        defer { tools.remove() }
        for poster in Self.posters { #expect(try self.poster(poster.arguments, to: tools.folder + "/first-" + poster.name, tools).status == 0) }
        _ = tools.runs()
        // An entry cut in half, one with a byte changed, one emptied, one replaced by other bytes.
        let entries = tools.entries()
        #expect(entries.count == 4)
        for (index, name) in entries.enumerated() {
            let path = tools.cache + "/" + name
            var bytes = try #require(FileManager.default.contents(atPath: path))
            switch index {
            case 0: bytes = bytes.prefix(bytes.count / 2)
            case 1: bytes[bytes.count * 2 / 3] ^= 0x01
            case 2: bytes = Data()
            default: bytes = Data((0..<bytes.count).map { UInt8(truncatingIfNeeded: $0 &* 7) })
            }
            try bytes.write(to: URL(fileURLWithPath: path))
        }
        try expectPostersAsFirst("again", tools)
        let runs = conversions(tools.runs())
        #expect(runs.score && runs.notation && runs.engraving, "the damaged entries were made again")
        // Whole again: runs with broken tools read them.
        tools.breakTools(true)
        try expectPostersAsFirst("third", tools)
    }

    /// Three processes reading and engraving one score into an empty cache at once: each makes
    /// the same entries, none fails or reads a torn one, no temporary is left.
    @Test func processesMakingOneEntryAtOnce() throws {
        let tools = try Tools()
        defer { tools.remove() }
        let poster = Self.posters[0]
        let runs = (0..<3).map { index in
            let process = Process()
            process.executableURL = TestEnvironment.binary
            process.arguments = ["frame"] + poster.arguments + ["--size", "320x180", "-o", tools.folder + "/at-once-\(index).png"]
            process.environment = ProcessInfo.processInfo.environment.merging(tools.environment) { $1 }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            return process
        }
        for process in runs { try process.run() }
        for process in runs { process.waitUntilExit() }
        #expect(runs.map(\.terminationStatus) == [0, 0, 0])
        let first = FileManager.default.contents(atPath: tools.folder + "/at-once-0.png")
        #expect(first != nil)
        for index in 1..<3 { #expect(FileManager.default.contents(atPath: tools.folder + "/at-once-\(index).png") == first) }
        #expect(tools.entries().map { $0.prefix { $0 != "-" } } == ["score", "verovio"], "two entries, no temporary")
        // And they are whole: a run with broken tools reads them.
        tools.breakTools(true)
        let again = try self.poster(poster.arguments, to: tools.folder + "/again.png", tools)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(FileManager.default.contents(atPath: tools.folder + "/again.png") == first)
    }

    /// A cache folder that cannot be made, and `MIDIVIZ_CACHE=off`: the runs work and store nothing.
    @Test func aCacheThatCannotBeWrittenOrIsOffIsNone() throws {
        let tools = try Tools()
        defer { tools.remove() }
        let poster = Self.posters[0]
        FileManager.default.createFile(atPath: tools.folder + "/file", contents: Data("x".utf8))
        let unwritable = try self.poster(poster.arguments, to: tools.folder + "/a.png", tools, environment: ["MIDIVIZ_CACHE": tools.folder + "/file/cache"])
        #expect(unwritable.status == 0, "\(unwritable.stderr)")
        let xdg = tools.folder + "/xdg"
        let off = try self.poster(poster.arguments, to: tools.folder + "/b.png", tools, environment: ["MIDIVIZ_CACHE": "off", "XDG_CACHE_HOME": xdg])
        #expect(off.status == 0, "\(off.stderr)")
        #expect(!FileManager.default.fileExists(atPath: xdg))
        #expect(FileManager.default.contents(atPath: tools.folder + "/a.png") == FileManager.default.contents(atPath: tools.folder + "/b.png"))
        // Unset, the cache is XDG_CACHE_HOME's.
        let xdgRun = try self.poster(poster.arguments, to: tools.folder + "/c.png", tools, environment: ["MIDIVIZ_CACHE": "", "XDG_CACHE_HOME": xdg])
        #expect(xdgRun.status == 0, "\(xdgRun.stderr)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: xdg + "/midiviz")) ?? []).count == 2)
    }
}
