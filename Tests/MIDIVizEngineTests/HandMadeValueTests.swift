import Foundation
import MIDIVizCore
import MIDIVizEngine
import Testing

/// Values a program using the library sets by hand, which the options' text never gives: each is
/// refused by `RenderJob` with an error naming it, before any work, and never traps (from a
/// hostile consumer of the library).
@Suite(.timeLimit(.minutes(30)))
struct HandMadeValueTests {
    typealias Support = EngineTestSupport

    @Test func songsWithValuesOutOfRangeAreRefused() throws {
        let song = try Support.song()
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let spoilers: [(String, (inout Song) -> Void)] = [
            ("pitch 200", { $0.notes.append(Note(startSeconds: 9, endSeconds: 9.5, pitch: 200, velocity: 100, channel: 0, track: 1)) }),
            ("to inf s", { $0.notes[3].endSeconds = .infinity }),
            ("from nan", { $0.notes[0].startSeconds = .nan }),
            ("not sorted", { $0.notes.swapAt(0, 5) }),
            ("time signature of 9223372036854775807", { $0.timeSignatures[0].numerator = .max }),
            ("key signature of 9 sharps", { $0.keySignatures[0].sharps = 9 }),
            ("duration is nan", { $0.durationSeconds = .nan }),
        ]
        for (said, spoil) in spoilers {
            var spoiled = song
            spoil(&spoiled)
            for style in [RenderSettings.Style.roll, .keyboard] {
                var request = Support.request(spoiled, songPath: nil, outputs: [.mp4(path: folder + "/a.mp4")], sound: false)
                request.settings.style = style
                do {
                    _ = try RenderJob(request)
                    Issue.record("\(said): taken")
                } catch {
                    #expect(error.exitCode == 65 && error.description.contains(said), "\(said): \(error.description)")
                }
            }
        }
        #expect(Support.contents(folder).isEmpty)
    }

    @Test func aTrackNumberOutOfRangeIsHeldAsTheNearest() {
        #expect(Note(startSeconds: 0, endSeconds: 1, pitch: 60, velocity: 1, channel: 0, track: -1).track == 0)
        var note = Note(startSeconds: 0, endSeconds: 1, pitch: 60, velocity: 1, channel: 0, track: 70_000)
        #expect(note.track == 65_535)
        note.track = 3
        #expect(note.track == 3)
    }

    @Test func requestValuesOutOfRangeAreRefused() throws {
        let song = try Support.song()
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let video = folder + "/a.mp4"
        let cases: [(String, (inout RenderRequest) -> Void)] = [
            ("stall-timeout", { $0.stallTimeoutSeconds = .nan }),
            ("stall-timeout", { $0.stallTimeoutSeconds = 0 }),
            ("from", { $0.startSeconds = -5 }),
            ("to", { $0.endSeconds = .nan }),
            ("crf", { $0.outputs = [.mp4(path: video, crf: 999)] }),
            ("crf", { $0.crf = -1 }),
            ("preset", { $0.outputs = [.mp4(path: video, preset: "bogus")] }),
            ("png-level", { $0.outputs = [.pngFrames(directory: folder + "/f", level: 42)] }),
            (
                "a.gif: it would hold a MP4 file under .gif; name it .mp4",
                { $0.outputs = [.video(path: folder + "/a.gif", container: .mp4, crf: nil, preset: nil)] }
            ),
        ]
        for (said, spoil) in cases {
            var request = Support.request(song, songPath: nil, outputs: [.mp4(path: video)], sound: false)
            spoil(&request)
            do {
                _ = try RenderJob(request)
                Issue.record("\(said): taken")
            } catch {
                #expect(error.exitCode == 64 && error.description.contains(said), "\(said): \(error.description)")
            }
        }
        // A bar before the first, or a time no text gives, from options made by hand.
        for time in [TimeSpec.bar(0), .seconds(-5), .seconds(.nan)] {
            var options = RenderOptions()
            options.from = time
            #expect(throws: RenderError.option(.outOfRange(option: "from", value: time.optionText, allowed: TimeSpec.expected))) {
                try RenderRequest(song: song, songPath: nil, songName: "s", options: options, outputs: [.mp4(path: video)], defaultJobs: 1)
            }
        }
        #expect(Support.contents(folder).isEmpty)
        #expect(RenderError.songTooLong(song: "x.mid", seconds: .infinity, maximumSeconds: 3600).description.contains("inf s"))
    }

    /// An output that names no rate factor takes the options': crf 51 makes a far smaller file
    /// than crf 0 of the same frames.
    @Test func theOptionsRateFactorAppliesToAnOutputThatNamesNone() throws {
        let song = try Support.song()
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var sizes: [Int] = []
        for crf in [0, 51] {
            var options = RenderOptions()
            options.size = FrameSize(width: 320, height: 180)
            options.fps = FrameRate(10)
            options.noAudio = true
            options.to = .seconds(2)
            options.crf = crf
            let path = folder + "/crf\(crf).mp4"
            let request = try RenderRequest(song: song, songPath: nil, songName: "s", options: options, outputs: [.mp4(path: path)], defaultJobs: 2)
            #expect(request.crf == crf)
            _ = try RenderJob(request).run()
            sizes.append(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0)
        }
        #expect(sizes[1] * 2 < sizes[0], "\(sizes)")
    }

    /// A file put into the frames folder while the run draws is not lost when the frames are
    /// moved into place: the run fails and leaves the folder as it is (the swap deleted it).
    @Test func aFileThatAppearsInTheFramesFolderMeanwhileIsKept() throws {
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let frames = folder + "/z"
        try FileManager.default.createDirectory(atPath: frames, withIntermediateDirectories: false)
        let job = try RenderJob(Support.request(try Support.song(), songPath: nil, outputs: [.pngFrames(directory: frames, level: 1)], sound: false))
        do {
            _ = try job.run { progress in
                if progress.framesDone == 3 {
                    try? FileManager.default.createDirectory(atPath: frames + "/sub", withIntermediateDirectories: false)
                    FileManager.default.createFile(atPath: frames + "/sub/keep.txt", contents: Data("mine".utf8))
                }
            }
            Issue.record("the frames replaced the folder")
        } catch {
            #expect(error.exitCode == 73 && error.description.contains("now holds a file other than frames (sub)"), "\(error)")
        }
        #expect(FileManager.default.contents(atPath: frames + "/sub/keep.txt") == Data("mine".utf8))
        #expect(Support.contents(folder) == ["z"], "no temporary left")
    }

    /// A job runs once; the second run says so (it said "interrupted").
    @Test func aJobRunsOnce() throws {
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let job = try RenderJob(Support.request(try Support.song(), songPath: nil, outputs: [.rawYUV(path: folder + "/f.yuv")], sound: false))
        _ = try job.run()
        #expect(throws: RenderError.usage("a RenderJob runs once: make another for another render")) { try job.run() }
        #expect(Support.contents(folder) == ["f.yuv"])
    }
}
