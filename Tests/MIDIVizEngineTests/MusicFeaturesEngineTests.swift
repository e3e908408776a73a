import Foundation
import MIDIVizCore
import MIDIVizEngine
import Testing

/// Labels, lyrics and effects keep frames a pure function of their time: one worker or two, a
/// whole render or a range, the frames are the same bytes.
@Suite(.timeLimit(.minutes(30))) struct MusicFeaturesEngineTests {
    @Test func framesAreTheSameWithOneWorkerOrTwoAndInARange() throws {
        let song = try EngineTestSupport.song("karaoke-latin1.kar")
        let folder = try EngineTestSupport.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func render(_ name: String, jobs: Int, from: Double) throws -> [String: Data] {
            let directory = folder + "/" + name
            var request = EngineTestSupport.request(
                song, songPath: EngineTestSupport.fixture("karaoke-latin1.kar"),
                outputs: [.pngFrames(directory: directory, level: 1)], sound: false)
            (request.settings.width, request.settings.height, request.settings.style) = (320, 180, .keyboard)
            (request.settings.labels, request.settings.lyrics, request.settings.effects) = (.names, true, true)
            request.jobs = jobs
            request.startSeconds = from
            request.endSeconds = 9
            _ = try RenderJob(request).run()
            var frames: [String: Data] = [:]
            for file in EngineTestSupport.contents(directory) {
                frames[file] = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + file))
            }
            return frames
        }
        let one = try render("one", jobs: 1, from: 0)
        let two = try render("two", jobs: 2, from: 0)
        #expect(one.count == 90 && one == two)
        // From 6 s: its frame k is the whole render's frame 60 + k.
        let range = try render("range", jobs: 2, from: 6)
        #expect(range.count == 30)
        for (file, data) in range {
            let index = try #require(Int(file.dropFirst("frame_".count).prefix(6)))
            #expect(one[String(format: "frame_%06d.png", index + 60)] == data, "\(file)")
        }
        // Frames differ across the song: the display moves on.
        #expect(Set(one.values).count > 80)
    }
}
