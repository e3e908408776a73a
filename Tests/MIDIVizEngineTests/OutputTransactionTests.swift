import Foundation
import MIDIVizCore
import MIDIVizIO
import Testing

@testable import MIDIVizEngine

/// The engine in-process: what it refuses before any work, and that all outputs of a run appear
/// together or not at all.
@Suite(.timeLimit(.minutes(30))) struct OutputTransactionTests {
    typealias Support = EngineTestSupport

    /// An error about a temporary names the output the user asked for: a staged file or folder
    /// by its own path, a scratch file as a temporary beside its output (a full disk said
    /// `cannot write /x/.a.mp4.f32.midiviz-10142-wvM9FP: No space left on device`).
    @Test func errorsNameTheOutputsNotTheirTemporaries() throws {
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let transaction = OutputTransaction()
        let frames = try transaction.stage(.pngFrames(directory: folder + "/frames", level: 1))
        let spool = try transaction.scratch(beside: folder + "/a.mp4", suffix: "f32")
        let failures: [RenderError] = [
            .failed("cannot write \(spool): No space left on device"), .cannotCreate("\(frames)/frame_000001.png: libpng: Write Error"),
        ]
        #expect(
            failures.map { $0.naming(transaction.names).description } == [
                "cannot write a temporary file beside \(folder)/a.mp4: No space left on device",
                "\(folder)/frames/frame_000001.png: libpng: Write Error",
            ])
        transaction.discard()
        #expect(Support.contents(folder).isEmpty)
    }

    @Test func anOutputNamingTheInputIsRefusedAndTheSongKept() throws {
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let song = folder + "/song.mid"
        try FileManager.default.copyItem(atPath: Support.fixture("c-major-arpeggio.mid"), toPath: song)
        let before = try Data(contentsOf: URL(fileURLWithPath: song))
        let loaded = try Support.song()
        for outputs: [RenderOutput] in [
            [.wav(path: song)], [.mp4(path: song, crf: 20, preset: "veryfast")],
            [.wav(path: folder + "/../\((folder as NSString).lastPathComponent)/song.mid")],
        ] {
            #expect(throws: RenderError.usage("refusing to write \(outputs[0].path): it is the input song")) {
                try RenderJob(Support.request(loaded, songPath: song, outputs: outputs))
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: song)) == before)
        #expect(Support.contents(folder) == ["song.mid"])
    }

    /// Nothing the run reads is written, and nothing is put inside a frames folder (it is
    /// swapped whole, which would take the other output with the old folder).
    @Test func fontsSoundFontsAndOutputsInsideTheFramesFolderAreRefused() throws {
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let song = try Support.song()
        let font = folder + "/font.ttf", soundFont = folder + "/font.sf2"
        try FileManager.default.copyItem(atPath: FontRasterizer.defaultFontPath, toPath: font)
        try FileManager.default.copyItem(atPath: Support.smallSoundFont, toPath: soundFont)
        var request = Support.request(song, songPath: nil, outputs: [.mp4(path: font, crf: 20, preset: "veryfast")])
        request.fontPath = font
        #expect(throws: RenderError.usage("refusing to write \(font): it is the font")) { try RenderJob(request) }
        request = Support.request(song, songPath: nil, outputs: [.wav(path: soundFont)])
        request.sound = SoundSettings(soundFontPath: soundFont)
        #expect(throws: RenderError.usage("refusing to write \(soundFont): it is the SoundFont")) { try RenderJob(request) }
        for outputs: [RenderOutput] in [
            [.wav(path: folder + "/out/a.wav"), .pngFrames(directory: folder + "/out", level: 1)],
            [.pngFrames(directory: folder + "/out", level: 1), .wav(path: folder + "/out/a.wav")],
        ] {
            #expect(throws: RenderError.self) { try RenderJob(Support.request(song, songPath: nil, outputs: outputs)) }
        }
        #expect(Support.contents(folder) == ["font.sf2", "font.ttf"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: font)) == Data(contentsOf: URL(fileURLWithPath: FontRasterizer.defaultFontPath)))
    }

    @Test func twoOutputsOnOnePathAreRefused() throws {
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let request = Support.request(
            try Support.song(), songPath: nil,
            outputs: [.wav(path: folder + "/x.wav"), .mp4(path: folder + "/./x.wav", crf: 20, preset: "veryfast")])
        #expect(throws: RenderError.usage("refusing to write \(folder)/./x.wav twice: two outputs name it")) { try RenderJob(request) }
    }

    @Test func foldersDevicesAndFIFOsAreRefusedBeforeAnyWork() throws {
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let song = try Support.song()
        try FileManager.default.createDirectory(atPath: folder + "/a-folder.wav", withIntermediateDirectories: false)
        #expect(mkfifo(folder + "/pipe.wav", 0o644) == 0)
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/a-file"))
        let cases: [(RenderOutput, RenderError)] = [
            (.wav(path: folder + "/a-folder.wav"), .cannotCreate("cannot write \(folder)/a-folder.wav: it is a folder")),
            (.wav(path: folder + "/pipe.wav"), .cannotCreate("refusing to write \(folder)/pipe.wav: not a regular file (a device, FIFO or socket)")),
            (.wav(path: "/dev/null"), .cannotCreate("refusing to write /dev/null: not a regular file (a device, FIFO or socket)")),
            (.pngFrames(directory: folder + "/a-file", level: 1), .cannotCreate("cannot write frames into \(folder)/a-file: it is not a folder")),
            (.wav(path: folder + "/no-such-folder/x.wav"), .cannotCreate("cannot create \(folder)/no-such-folder/x.wav: no folder \(folder)/no-such-folder")),
        ]
        for (output, error) in cases {
            #expect(throws: error) { try RenderJob(Support.request(song, songPath: nil, outputs: [output])) }
        }
        var status = stat()
        #expect(stat(folder + "/pipe.wav", &status) == 0 && status.st_mode & S_IFMT == S_IFIFO, "the FIFO is still a FIFO")
        #expect(Support.contents(folder) == ["a-file", "a-folder.wav", "pipe.wav"], "nothing written")
    }

    @Test func aFramesFolderHoldsExactlyThisRunsFrames() throws {
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let frames = folder + "/frames"
        try FileManager.default.createDirectory(atPath: frames, withIntermediateDirectories: false)
        for index in 1...50 { try Data("old".utf8).write(to: URL(fileURLWithPath: frames + String(format: "/frame_%06d.png", index))) }
        let summary = try RenderJob(
            Support.request(
                try Support.song(), songPath: nil,
                outputs: [.pngFrames(directory: frames, level: 1)], sound: false)
        ).run()
        #expect(summary.frames == 20)
        let names = Support.contents(frames)
        #expect(names == (1...20).map { String(format: "frame_%06d.png", $0) })
        #expect(try Data(contentsOf: URL(fileURLWithPath: frames + "/frame_000001.png")).prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
        #expect(Support.contents(folder) == ["frames"], "no staging folder left")

        // A folder holding anything but frames is not ours to replace.
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: frames + "/notes.txt"))
        #expect(throws: RenderError.self) {
            try RenderJob(Support.request(try Support.song(), songPath: nil, outputs: [.pngFrames(directory: frames, level: 1)], sound: false))
        }
        #expect(Support.contents(frames).count == 21)
    }

    /// A run stopped from another thread (as a signal handler does) leaves the old outputs as
    /// they were and no temporary.
    @Test func aStoppedRunLeavesTheOldOutputsAndNoTemporary() throws {
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let wav = folder + "/song.wav", frames = folder + "/frames"
        try Data("old sound".utf8).write(to: URL(fileURLWithPath: wav))
        try FileManager.default.createDirectory(atPath: frames, withIntermediateDirectories: false)
        try Data("old frame".utf8).write(to: URL(fileURLWithPath: frames + "/frame_000001.png"))
        var request = Support.request(
            try Support.song("demo-groove.mid"), songPath: nil,
            outputs: [.wav(path: wav), .pngFrames(directory: frames, level: 1)])
        request.endSeconds = nil
        request.jobs = 1
        let job = try RenderJob(request)
        let stopped = Flag()
        #expect(throws: RenderError.interrupted(signal: 15)) {
            try job.run { progress in
                if progress.framesDone == 3 && stopped.setOnce() {
                    Thread.detachNewThread { job.stop(signal: 15) }
                }
            }
        }
        #expect(try String(contentsOfFile: wav, encoding: .utf8) == "old sound")
        #expect(Support.contents(frames) == ["frame_000001.png"])
        #expect(try String(contentsOfFile: frames + "/frame_000001.png", encoding: .utf8) == "old frame")
        #expect(Support.contents(folder) == ["frames", "song.wav"], "no temporary left")
    }

    /// Cancelling from the progress callback ends an MP4 + WAV run at once (no wait on the
    /// callback's own lock), with the old outputs intact and no temporary or ffmpeg left.
    @Test func aRunCancelledFromItsProgressCallbackEndsCleanly() throws {
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let wav = folder + "/song.wav", mp4 = folder + "/song.mp4"
        try Data("old sound".utf8).write(to: URL(fileURLWithPath: wav))
        var request = Support.request(
            try Support.song("demo-groove.mid"), songPath: nil,
            outputs: [.mp4(path: mp4, crf: 20, preset: "veryfast"), .wav(path: wav)])
        request.endSeconds = nil
        let job = try RenderJob(request)
        let framesSeen = Counter()
        let start = Date()
        #expect(throws: RenderError.interrupted(signal: nil)) {
            try job.run { progress in
                framesSeen.record(progress.framesDone, of: progress.frames)
                if progress.framesDone == 5 { job.cancel() }
            }
        }
        #expect(Date().timeIntervalSince(start) < 8, "ended without waiting out a timeout")
        #expect(framesSeen.largest >= 5 && framesSeen.largest < framesSeen.total, "stopped before the end: \(framesSeen.largest) of \(framesSeen.total)")
        #expect(try String(contentsOfFile: wav, encoding: .utf8) == "old sound")
        #expect(Support.contents(folder) == ["song.wav"], "no MP4, no temporary")
    }

    @Test func temporariesOfDeadRunsAreRemovedAndLiveOnesKept() throws {
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let dead = Process()
        dead.executableURL = URL(fileURLWithPath: "/bin/true")
        try dead.run()
        dead.waitUntilExit()
        let deadTemporary = ".song.wav.midiviz-\(dead.processIdentifier)-abcdef"
        let liveTemporary = ".song.wav.midiviz-1-abcdef"  // init never dies
        // Scratch files of a dead run that made more than this one (a video's sound, as made and
        // as encoded, and its frames).
        let deadScratches = ["f32", "sound", "video", "wav"].map { ".song.wav.\($0).midiviz-\(dead.processIdentifier)-abcdef" }
        // A scratch file's own temporaries: a join's sound is a render into its scratch WAV,
        // whose temporaries a join killed with SIGKILL left for good.
        let deadNested = ["", ".f32"].map { "..song.wav.wav.midiviz-\(dead.processIdentifier)-abcdef\($0).midiviz-\(dead.processIdentifier)-ghijkl" }
        let liveNested = "..song.wav.wav.midiviz-1-abcdef.f32.midiviz-1-ghijkl"
        for name in [deadTemporary, liveTemporary, liveNested] + deadScratches + deadNested {
            try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
        }
        _ = try RenderJob(Support.request(try Support.song(), songPath: nil, outputs: [.wav(path: folder + "/song.wav")])).run()
        #expect(Support.contents(folder) == [liveNested, liveTemporary, "song.wav"])
        // An output whose name begins with a dot: its dead run's temporary goes, its backup
        // (a run killed while committing) is put back.
        let hidden = ["..hidden.wav.midiviz-\(dead.processIdentifier)-abcdef", "..hidden.wav.midiviz-old-\(dead.processIdentifier)-abcdef"]
        for name in hidden { try Data(name.utf8).write(to: URL(fileURLWithPath: folder + "/" + name)) }
        StagedOutput.removeStaleTemporaries(of: folder + "/.hidden.wav")
        #expect(Support.contents(folder) == [liveNested, ".hidden.wav", liveTemporary, "song.wav"])
        #expect(try String(contentsOfFile: folder + "/.hidden.wav", encoding: .utf8) == hidden[1], "the backup put back")
        var status = stat()
        #expect(stat(folder + "/song.wav", &status) == 0 && status.st_mode & 0o777 == 0o666 & ~currentUmask(), "mode from the umask")
    }

    /// Two jobs in one process, into one folder: per-job state only.
    @Test func twoJobsInOneProcessDoNotMeet() throws {
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let song = try Support.song()
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            let outputs: [RenderOutput] = [.wav(path: folder + "/\(index).wav"), .pngFrames(directory: folder + "/frames", level: 1)]
            do throws(RenderError) {
                results.add(.success(try RenderJob(Support.request(song, songPath: nil, outputs: outputs)).run()))
            } catch {
                results.add(.failure(error))
            }
        }
        #expect(results.all.allSatisfy { (try? $0.get())?.frames == 20 }, "\(results.all)")
        #expect(Support.contents(folder) == ["0.wav", "1.wav", "frames"])
        #expect(Support.contents(folder + "/frames").count == 20)
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/0.wav")) == Data(contentsOf: URL(fileURLWithPath: folder + "/1.wav")))
    }

    private func currentUmask() -> mode_t {
        let mask = umask(0o022)
        umask(mask)
        return mask
    }
}

final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var isSet = false

    /// True the first time only.
    func setOnce() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if isSet { return false }
        isSet = true
        return true
    }
}

/// The most frames a run reported done, and of how many.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var done = 0, frames = 0

    func record(_ framesDone: Int, of frameCount: Int) {
        lock.lock()
        done = max(done, framesDone)
        frames = max(frames, frameCount)
        lock.unlock()
    }

    var largest: Int { lock.lock(); defer { lock.unlock() }; return done }
    var total: Int { lock.lock(); defer { lock.unlock() }; return frames }
}

final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var all: [Result<RenderSummary, RenderError>] = []

    func add(_ result: Result<RenderSummary, RenderError>) {
        lock.lock()
        all.append(result)
        lock.unlock()
    }
}

@Suite(.timeLimit(.minutes(30))) struct PathPartsTests {
    @Test(arguments: [
        ("a", ".", "a"), ("./a", ".", "a"), ("dir/a.mp4", "dir", "a.mp4"), ("/a", "/", "a"),
        ("dir/frames/", "dir", "frames"), ("a//b", "a", "b"), ("/x/y//", "/x", "y"), ("/", "/", "/"),
    ])
    func splitsAsDirnameAndBasename(path: String, folder: String, name: String) {
        let parts = PathParts(path)
        #expect(parts.folder == folder && parts.name == name, "\(path): \(parts)")
    }
}

/// A stop (a signal) that comes when the outputs are already committed interrupts nothing: the
/// outputs stay, complete, and the job says so, so that the command ends as a success.
@Suite(.timeLimit(.minutes(30))) struct StopAfterCommitTests {
    @Test func aStopAfterTheCommitKeepsTheOutputsAndSaysSo() throws {
        let folder = try EngineTestSupport.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let wav = folder + "/song.wav", frames = folder + "/frames"
        let request = EngineTestSupport.request(
            try EngineTestSupport.song(), songPath: nil,
            outputs: [.wav(path: wav), .pngFrames(directory: frames, level: 1)])
        let job = try RenderJob(request)
        _ = try job.run()
        let sound = try Data(contentsOf: URL(fileURLWithPath: wav))
        #expect(job.stop(signal: SIGINT))
        #expect(try Data(contentsOf: URL(fileURLWithPath: wav)) == sound && sound.count > 44)
        #expect(EngineTestSupport.contents(frames).count == 20)

        // Stopped before it runs, nothing is committed, and the job says that too.
        let early = try RenderJob(EngineTestSupport.request(try EngineTestSupport.song(), songPath: nil, outputs: [.wav(path: folder + "/other.wav")]))
        #expect(!early.stop(signal: SIGINT))
        #expect(throws: RenderError.self) { try early.run() }
        #expect(!FileManager.default.fileExists(atPath: folder + "/other.wav"))
    }
}
