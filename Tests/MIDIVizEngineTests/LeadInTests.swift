import Foundation
import MIDIVizEngine
import MIDIVizIO
import Testing

@testable import MIDIVizCore

/// A whole-song video starts early enough that its first frame shows no note, and the first
/// note arrives where it would mid-song exactly at its start (plus the lead-in).
@Suite(.timeLimit(.minutes(30))) struct LeadInTests {
    /// bach_850.mid's first note starts at 0 s.
    static let songPath = EngineTestSupport.packageRoot.appendingPathComponent("Tests/Corpus/piano-midi.de/bach/bach_850.mid").path

    func frames(style: RenderSettings.Style) throws -> (song: Song, settings: RenderSettings, frames: [Canvas], empty: Canvas) {
        let song = try SongLoader.load(path: Self.songPath)
        #expect(song.notes.first?.startSeconds == 0)
        let folder = try EngineTestSupport.folder("leadin\(style)")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var request = EngineTestSupport.request(song, songPath: Self.songPath, outputs: [.pngFrames(directory: folder + "/f", level: 0)], sound: false)
        request.settings.width = 320
        request.settings.height = 180
        request.settings.style = style
        request.endSeconds = 0.5
        request.prerollSeconds = nil  // the style's lead-in
        let summary = try RenderJob(request).run()
        let lead = Int((request.settings.leadInSeconds * 10).rounded())
        #expect(summary.frames == lead + 5, "\(summary.frames) frames")
        let frames = try (0..<summary.frames).map { try PNGReader.read(folder + "/f/" + PNGFolderSink.fileName(ofFrame: $0)) }
        // What a frame shows when no note is anywhere near.
        let renderer = FrameRenderer(
            scene: Scene(song: song, settings: request.settings),
            fonts: try RenderJob.loadFonts(request.fontPath, canvasSide: request.settings.textSide))
        var workspace = renderer.makeWorkspace()
        renderer.render(at: -1000, in: &workspace)
        return (song, request.settings, frames, workspace.canvas)
    }

    @Test func keyboardNotesFallFromOffScreenAndLandAtTheirStart() throws {
        let (song, settings, frames, empty) = try frames(style: .keyboard)
        let lead = Int((settings.leadInSeconds * 10).rounded())
        #expect(settings.leadInSeconds > settings.windowSeconds, "more than a fall")
        #expect(frames[0].pixels == empty.pixels, "frame 1 shows no note")
        let layout = KeyboardLayout(scene: Scene(song: song, settings: settings))
        let first = song.notes.first!
        let span = layout.keySpan(Int(first.pitch))
        let x = Int((span.left + span.right) / 2), y = Int(layout.keysTop) - 1
        // The row just above the keys: reached in the frame at the note's start, not before.
        #expect(frames[lead][x, y] != empty[x, y], "frame \(lead + 1) (t = 0) shows the note on the keys")
        #expect(frames[lead - 1][x, y] == empty[x, y], "frame \(lead) (t = -0.1 s) shows it above them")
        #expect(frames[lead - 1].pixels != empty.pixels, "but already falling")
    }

    /// The first note is heard on the frame where it lands: the sound is silent for the lead-in.
    @Test(.needsSmallSoundFont)
    func theFirstNoteIsHeardWhenItLands() throws {
        let song = try SongLoader.load(path: Self.songPath)
        let folder = try EngineTestSupport.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var request = EngineTestSupport.request(song, songPath: Self.songPath, outputs: [.rawYUV(path: folder + "/v.yuv"), .wav(path: folder + "/a.wav")])
        request.settings.style = .keyboard
        request.settings.frameRate = FrameRate(30)
        request.endSeconds = 0.5
        request.prerollSeconds = nil
        request.sound?.loudness = nil
        let summary = try RenderJob(request).run()
        let lead = request.settings.leadInSeconds
        #expect(summary.frames == Int((lead * 30).rounded()) + 15)
        let samples: [Int16] = try Data(contentsOf: URL(fileURLWithPath: folder + "/a.wav")).dropFirst(44).withUnsafeBytes {
            Array($0.bindMemory(to: Int16.self))
        }
        // The lead-in is exact silence; the first note (soft, velocity 47) starts the sound.
        let onset = Double((samples.firstIndex { $0 != 0 } ?? 0) / 2) / 48_000
        #expect(onset >= lead && onset <= lead + 1.0 / 30, "heard at \(onset) s, lands at \(lead) s")
    }

    @Test func rollNotesReachThePlayheadAtTheirStart() throws {
        let (song, settings, frames, empty) = try frames(style: .roll)
        let lead = Int((settings.leadInSeconds * 10).rounded())
        #expect(frames[0].pixels == empty.pixels, "frame 1 shows no note")
        #expect(frames[1].pixels == empty.pixels, "nor does frame 2: the first note enters at the right edge after it")
        let layout = RollLayout(scene: Scene(song: song, settings: settings))
        // Columns just right of the playhead's glow: the note is there at its start, not 0.3 s before.
        let columns = (Int(layout.playheadX) + 5)..<(Int(layout.playheadX) + 9)
        func differs(_ frame: Canvas) -> Bool {
            columns.contains { x in (0..<frame.height).contains { frame[x, $0] != empty[x, $0] } }
        }
        #expect(differs(frames[lead]))
        #expect(!differs(frames[lead - 3]))
    }

    @Test func circlesAndBarsLeadInByAShortBeat() throws {
        for style in [RenderSettings.Style.circles, .bars] {
            let (_, settings, frames, empty) = try frames(style: style)
            let lead = Int((settings.leadInSeconds * 10).rounded())
            #expect(lead == 6)
            // At 0 s a circle or bar is just starting to grow; a frame later it shows.
            #expect(frames[lead - 1].pixels == empty.pixels && frames[lead + 1].pixels != empty.pixels, "\(style)")
        }
    }

    @Test func aRangeStartsWhereAskedAndPrerollAndPostrollAddSilence() throws {
        let song = try EngineTestSupport.song()
        let folder = try EngineTestSupport.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var request = EngineTestSupport.request(song, songPath: nil, outputs: [.rawYUV(path: folder + "/a.yuv"), .wav(path: folder + "/a.wav")])
        request.startSeconds = 1
        request.prerollSeconds = 0
        #expect(try RenderJob(request).run().frames == 10, "1 s to 2 s, no lead-in")
        request.prerollSeconds = 0.5
        request.postrollSeconds = 1
        let summary = try RenderJob(request).run()
        #expect(summary.frames == 25, "0.5 s before, 1 s range, 1 s after")
        let wav = try Data(contentsOf: URL(fileURLWithPath: folder + "/a.wav"))
        #expect(wav.count - 44 == 25 * 48_000 / 10 * 4, "the sound is exactly as long")
    }
}

/// `--loudness off` is the synthesizer's own sound, byte for byte: what a bounce without
/// normalization writes.
@Suite(
    .needsSmallSoundFont,
    .timeLimit(.minutes(30)))
struct LoudnessOffTests {
    @Test func loudnessOffWritesTheSynthesizersBytes() throws {
        let song = try EngineTestSupport.song("demo-groove.mid")
        let folder = try EngineTestSupport.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var request = EngineTestSupport.request(song, songPath: nil, outputs: [.wav(path: folder + "/engine.wav")])
        request.endSeconds = nil
        request.sound?.loudness = nil
        _ = try RenderJob(request).run()
        let writer = try WAVWriter(path: folder + "/direct.wav", sampleRate: 48_000)
        _ = try AudioBouncer().bounce(song, soundFont: EngineTestSupport.smallSoundFont, into: writer)
        // The same samples; the engine's WAV then pads them with silence to the video's end.
        let engine = try Data(contentsOf: URL(fileURLWithPath: folder + "/engine.wav")).dropFirst(44)
        let direct = try Data(contentsOf: URL(fileURLWithPath: folder + "/direct.wav")).dropFirst(44)
        #expect(direct.count > 1_000_000 && engine.prefix(direct.count) == direct)
        #expect(engine.dropFirst(direct.count).allSatisfy { $0 == 0 })
        // Normalized, the same song is louder (it is quiet as synthesized) and so differs.
        request.sound?.loudness = LoudnessTarget()
        let summary = try RenderJob(request).run()
        #expect(summary.loudness.map { $0.gainDB > 3 } == true, "\(String(describing: summary.loudness))")
    }
}
