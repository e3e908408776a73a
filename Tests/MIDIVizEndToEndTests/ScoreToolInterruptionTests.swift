import Foundation
import Testing

/// A signal sent to midiviz alone (not its process group) while a score tool runs: the tool and
/// its own children are stopped, the tools' temporary folder is removed, and midiviz exits with
/// 128 + the signal, as an interrupted render does. Every wait is bounded here; the suite's time
/// limit is the other end-to-end suites' (a limit also counts the time a test waits for a thread
/// while the others run: 10 minutes was exceeded in a full run on 2 cores with nothing hung).
@Suite(.timeLimit(.minutes(30)), .enabled(if: SheetCommandTests.toolsAvailable, Comment(rawValue: SheetCommandTests.missing)))
struct ScoreToolInterruptionTests {
    /// Whether `pid` is a live process (not gone, not a zombie).
    static func alive(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return false }
        return !stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }

    /// Reading a score (MuseScore slow) for `frame`, and engraving a MIDI file's sheet music
    /// (Verovio's python slow) for `render` and for `batch`.
    @Test(arguments: ["score", "sheet", "batch"])
    func aSignalStopsTheToolAndLeavesNoFolder(step: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("midiviz-signal-\(getpid())-\(UUID().uuidString.prefix(8))").path
        let temporary = folder + "/tmp"
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let tool = step == "score" ? "musescore3" : "python3"
        let real = try #require(path.split(separator: ":").map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) })
        // Answers the version queries; otherwise hangs in a child of its own (`sleep`, not `exec sleep`).
        let slow = folder + "/slow-" + tool
        let script = """
            #!/bin/sh
            case "$*" in *--version*|*importlib.metadata*) exec '\(real)' "$@";; esac
            echo $$ > '\(folder)/tool.pid'
            sleep 120

            """
        FileManager.default.createFile(atPath: slow, contents: Data(script.utf8))
        chmod(slow, 0o755)
        let arpeggio = TestEnvironment.path(of: "fixtures/c-major-arpeggio.mid")
        let small = ["--sheet", "--no-audio", "--size", "160x90", "--fps", "10"]
        let arguments: [String]
        switch step {
        case "score": arguments = ["frame", TestEnvironment.path(of: "fixtures/sheet/c-major-scale.musicxml"), "--at", "1", "-o", folder + "/poster.png"]
        case "sheet": arguments = ["render", arpeggio] + small + ["-o", folder + "/video.mp4"]
        default: arguments = ["batch", arpeggio, "--output-dir", folder + "/videos"] + small
        }
        let process = Process()
        process.executableURL = TestEnvironment.binary
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging([
            "TMPDIR": temporary, "MIDIVIZ_CACHE": "off", step == "score" ? "MIDIVIZ_MUSESCORE" : "MIDIVIZ_PYTHON": slow,
        ]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        // As from a shell: the signals not blocked (a blocked mask once hid that they were dropped).
        #expect(try ProcessRunner.start(process, signalsBlocked: false) == false)
        let started = Date()
        var toolPID: Int32?
        while toolPID == nil, Date().timeIntervalSince(started) < 120, process.isRunning {
            toolPID = (try? String(contentsOfFile: folder + "/tool.pid", encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            usleep(50_000)
        }
        let leader = try #require(toolPID, "the slow tool started")
        // Its child, the sleep.
        var children: [Int32] = []
        while children.isEmpty, Date().timeIntervalSince(started) < 120 {
            children = ((try? String(contentsOfFile: "/proc/\(leader)/task/\(leader)/children", encoding: .utf8)) ?? "").split(separator: " ").compactMap {
                Int32($0)
            }
            usleep(20_000)
        }
        #expect(!children.isEmpty)
        let during = try FileManager.default.contentsOfDirectory(atPath: temporary)
        #expect(during.contains { $0.hasPrefix("midiviz-score-") }, "the tools' folder is there while it runs: \(during)")
        kill(process.processIdentifier, SIGTERM)
        let signalled = Date()
        while process.isRunning, Date().timeIntervalSince(signalled) < 60 { usleep(20_000) }
        if process.isRunning {
            Issue.record("midiviz still runs 60 s after SIGTERM")
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 143)
        let stopped = Date()
        while ([leader] + children).contains(where: Self.alive), Date().timeIntervalSince(stopped) < 5 { usleep(50_000) }
        for pid in [leader] + children {
            #expect(!Self.alive(pid), "process \(pid) survived")
            if Self.alive(pid) { kill(pid, SIGKILL) }
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: temporary)
        #expect(left.isEmpty, "no temporary folder left: \(left) of \(during)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["slow-" + tool, "tmp", "tool.pid"], "no output")
    }
}
