import Foundation
import Testing

/// Black MIDI: songs with tens of thousands of notes on screen at once.
@Suite(.timeLimit(.minutes(30))) struct DenseSongTests {
    static let python3IsAvailable = FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")

    /// A song of `scripts/make-black-midi.py --random 0.2`: `notes` notes of 0.2 s at random
    /// keys and times over `seconds`, in 16 tracks.
    func blackMIDI(notes: Int, seconds: Int, in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("black-\(notes)-\(seconds).mid").path
        let script = TestEnvironment.packageRoot.appendingPathComponent("scripts/make-black-midi.py").path
        let result = try ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/python3"),
            [script, path, "--notes", String(notes), "--tracks", "16", "--seconds", String(seconds), "--random", "0.2"])
        try #require(result.status == 0, "make-black-midi.py: \(result.stderr)")
        return path
    }

    /// Runs midiviz and returns its exit status and peak resident memory in bytes, from `wait4`'s
    /// resource usage of that one process. It is started by a small Python process, not by this
    /// one: a process spawned here shares this test process's memory until it runs midiviz, and
    /// Linux counts that memory's high-water mark (hundreds of MB in a full test run) as its own.
    func peakMemory(_ arguments: [String]) throws -> (status: Int32, bytes: Int) {
        let script = """
            import os, sys
            pid = os.fork()
            if pid == 0:
                fd = os.open(os.devnull, os.O_WRONLY)
                os.dup2(fd, 1)
                os.dup2(fd, 2)
                os.execv(sys.argv[1], sys.argv[1:])
            _, status, usage = os.wait4(pid, 0)
            print(os.waitstatus_to_exitcode(status), usage.ru_maxrss)
            """
        let result = try ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/python3"), ["-c", script, TestEnvironment.binary.path] + arguments)
        let fields = result.stdoutText.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        try #require(result.status == 0 && fields.count == 2, "python3: \(result.stdoutText) \(result.stderr)")
        return (Int32(fields[0]), fields[1] * 1024)
    }

    /// Memory follows the song's notes, not how many are on screen: 900,000 notes over 60 s
    /// (about 47,000 on screen in the keyboard style) take no more than the same notes spread
    /// over 600 s (about 4,700 on screen), but for the shapes of the frames being drawn (about half a kilobyte a note on screen, 26 MB here).
    @Test(.enabled(if: python3IsAvailable, "python3 writes the black-MIDI songs"))
    func memoryIsBoundedByTheFrameNotTheNotesOnScreen() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("midiviz-dense-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var peaks: [Int] = []
        for seconds in [60, 600] {
            let song = try blackMIDI(notes: 900_000, seconds: seconds, in: folder)
            let frames = folder.appendingPathComponent("frames-\(seconds)")
            let run = try peakMemory([
                "render", song, "--style", "keyboard", "--size", "1280x720", "--from", "30", "--to", "30.1",
                "--no-audio", "--no-video", "--frames-dir", frames.path, "--quiet",
            ])
            #expect(run.status == 0)
            let written = try FileManager.default.contentsOfDirectory(atPath: frames.path).filter { $0.hasSuffix(".png") }
            #expect(written.count == 6, "0.1 s at 60 fps")
            peaks.append(run.bytes)
        }
        let megabyte = 1 << 20
        print("peak memory: \(peaks[0] / megabyte) MB with ~47,000 notes on screen, \(peaks[1] / megabyte) MB with ~4,700")
        #expect(peaks[0] <= peaks[1] + 48 * megabyte, "dense: \(peaks[0] / megabyte) MB, sparse: \(peaks[1] / megabyte) MB")
        #expect(peaks[0] <= 400 * megabyte, "a 900,000-note song at 720p: \(peaks[0] / megabyte) MB")
    }
}
