import Foundation
import MIDIVizCore
import MIDIVizEngine
import MIDIVizIO
import PropertyBased
import Testing

/// The public API traps on no input: requests with any size, frame rate, speed, range, roll,
/// segment, worker count and PNG level are refused with an error or rendered.
@Suite(.timeLimit(.minutes(30)))
struct RequestPropertyTests {
    typealias Support = EngineTestSupport

    @Test func anyRequestIsRefusedOrRenderedNeverATrap() async throws {
        let song = try Support.song()
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Valid values, then at most one field spoiled (which one: `spoil`, 0 for none).
        await propertyCheck(
            count: 60, input: Gen.int(in: 1...35), Gen.int(in: 1...35), Gen.int(in: 1...60), Gen.double(in: 0.5...2),
            Gen.double(in: 0...1.5), Gen.int(in: 0...9), Gen.int(in: 0...7), Gen.int(in: -5...0)
        ) {
            halfWidth, halfHeight, fps, speed, start, level, spoil, bad in
            var settings = RenderSettings()
            settings.width = spoil == 1 ? bad : spoil == 2 ? 2 * halfWidth + 1 : 2 * halfWidth
            settings.height = 2 * halfHeight
            settings.frameRate = FrameRate(spoil == 3 ? bad : fps)
            settings.speed = spoil == 4 ? Double(bad) : speed
            // PNG frames (any size), or raw yuv420p (4:2:0 needs even sizes).
            let outputs: [RenderOutput] =
                halfHeight % 2 == 0
                ? [.rawYUV(path: folder + "/frames.yuv")]
                : [.pngFrames(directory: folder + "/frames", level: spoil == 5 ? 10 - bad : level)]
            var request = RenderRequest(
                song: song, songPath: nil, songName: "song", settings: settings, fontPath: FontRasterizer.defaultFontPath,
                sound: nil, outputs: outputs, jobs: spoil == 6 ? bad : 2)
            request.startSeconds = start
            // At least one frame's period past the start: a range with no frame in it is refused
            // (`emptyRange`), rightly (0.5 to 0.7 s at 1 fps holds none).
            request.endSeconds = start + 0.2 + 1 / Double(fps)
            request.prerollSeconds = spoil == 7 ? Double(bad) - 0.5 : 0
            // The PNG level is spoiled only where PNG frames are written, an odd width only
            // where yuv420p is.
            let spoiled = spoil != 0 && !(spoil == 5 && halfHeight % 2 == 0) && !(spoil == 2 && halfHeight % 2 == 1)
            do {
                let summary = try RenderJob(request).run()
                #expect(!spoiled, "rendered a spoiled request (\(spoil))")
                if halfHeight % 2 == 1 { #expect(summary.frames == Support.contents(folder + "/frames").count) }
            } catch {
                #expect(spoiled, "refused a valid request: \(error)")
            }
        }
    }

    /// The engine's errors carry values and name no flag; the command line words them.
    @Test func errorsCarryValuesNotFlags() throws {
        let song = try Support.song()
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var request = Support.request(song, songPath: nil, outputs: [.rawYUV(path: folder + "/frames.yuv")], sound: false)
        request.maximumSongSeconds = 1
        #expect(throws: RenderError.songTooLong(song: "song", seconds: song.durationSeconds, maximumSeconds: 1)) { try RenderJob(request) }
        request.maximumSongSeconds = 3600
        request.startSeconds = 100
        request.endSeconds = nil
        #expect(throws: RenderError.self) { try RenderJob(request).run() }
        do {
            _ = try RenderJob(request).run()
        } catch {
            guard case .emptyRange(let start, _, _) = error else { Issue.record("\(error)"); return }
            #expect(start == 100)
            #expect(!error.description.contains("--"), "\(error.description)")
        }
        #expect(throws: RenderError.timeOutsideSong(seconds: 1e6, song: "the song", lengthSeconds: song.durationSeconds + RenderSettings().tailSeconds)) {
            try PosterRender.render(song: song, songPath: nil, options: RenderOptions(), atSeconds: 1e6, to: folder + "/poster.png")
        }
        #expect(Support.contents(folder) == [])
    }

    /// Requests the engine refuses by value: a preroll out of range, a transparent MP4, a
    /// SoundFont that is not there. Each error's own wording names no flag.
    @Test func refusalsNameNoFlag() throws {
        let song = try Support.song()
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var request = Support.request(song, songPath: nil, outputs: [.rawYUV(path: folder + "/frames.yuv")], sound: false)
        request.prerollSeconds = 1e6
        #expect(throws: RenderError.option(.outOfRange(option: "preroll", value: "1000000.0", allowed: "between 0 and 600 seconds"))) {
            try RenderJob(request)
        }
        request = Support.request(song, songPath: nil, outputs: [.mp4(path: folder + "/clear.mp4")], sound: false)
        request.settings.transparent = true
        #expect(throws: RenderError.opaqueContainer(path: folder + "/clear.mp4")) { try RenderJob(request) }
        request = Support.request(song, songPath: nil, outputs: [.wav(path: folder + "/song.wav")])
        request.sound?.soundFontPath = folder + "/missing.sf2"
        var refused: [RenderError] = []
        do { _ = try RenderJob(request).run() } catch { refused.append(error) }
        #expect(refused.map(\.exitCode) == [66])
        refused += [
            .noSoundFont(searched: ["/usr/share/sounds/sf2/FluidR3_GM.sf2"]), .ffmpegMissing, .ffmpegStalled(doing: "accepted no frame", seconds: 1),
            .option(.outOfRange(option: "preroll", value: "1000000.0", allowed: "between 0 and 600 seconds")),
            .opaqueContainer(path: folder + "/clear.mp4"),
        ]
        for error in refused { #expect(!error.description.contains("--"), "\(error.description)") }
        #expect(Support.contents(folder) == [])
    }
}
