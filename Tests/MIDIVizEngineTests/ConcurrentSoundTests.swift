import Foundation
import MIDIVizCore
import Testing

@testable import MIDIVizEngine

/// Several jobs in one process (a batch, a library user) bounce the same sound for the same
/// song: FluidSynth's first synthesizer sets up the default modulators after marking that done,
/// and one made meanwhile on another thread played its notes at other levels.
@Suite(.timeLimit(.minutes(30))) struct ConcurrentSoundTests {
    @Test func fourJobsAtOnceBounceTheSameBytes() throws {
        let folder = try EngineTestSupport.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let song = try EngineTestSupport.song()
        var differing: [String] = []
        for round in 0..<4 {
            DispatchQueue.concurrentPerform(iterations: 4) { index in
                var request = EngineTestSupport.request(song, songPath: nil, outputs: [.wav(path: folder + "/\(round)-\(index).wav")])
                request.sound?.loudness = nil
                _ = try? RenderJob(request).run()
            }
            let first = try Data(contentsOf: URL(fileURLWithPath: folder + "/\(round)-0.wav"))
            #expect(first.count > 44)
            for index in 1..<4 where try Data(contentsOf: URL(fileURLWithPath: folder + "/\(round)-\(index).wav")) != first {
                differing.append("\(round)-\(index)")
            }
        }
        #expect(differing.isEmpty, "\(differing)")
    }
}
