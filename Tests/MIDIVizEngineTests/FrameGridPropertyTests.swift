import Foundation
import MIDIVizCore
import MIDIVizEngine
import PropertyBased
import Testing

/// A frame is a pure function of (song, settings, frame index): frame n of the whole song and
/// frame n of any range that contains it are the same pixels, whatever the song, style and range.
@Suite(.timeLimit(.minutes(30))) struct FrameGridPropertyTests {
    typealias Support = EngineTestSupport

    /// Notes from packed numbers: pitch, start and length (96 ticks a quarter at 120 bpm, so
    /// 192 ticks a second), channel; up to about 4 s of music.
    static func song(_ packed: [Int]) -> Song {
        var events: [MIDIEvent] = []
        for value in packed {
            let pitch = UInt8(36 + value % 60), channel = UInt8(value / 60 % 4)
            let start = value / 240 % 600, length = value / 144_000 % 200
            events.append(MIDIEvent(tick: start, track: 0, bytes: [0x90 | channel, pitch, 100]))
            events.append(MIDIEvent(tick: start + length, track: 0, bytes: [0x80 | channel, pitch, 0]))
        }
        events.sort { $0.tick < $1.tick }
        let endTick = (events.last?.tick ?? 0) + 1
        return SongBuilder.build(
            format: 1, division: .ticksPerQuarter(96), trackCount: 1, events: events,
            endTick: endTick, warnings: [])
    }

    /// The raw yuv420p frames of a silent render from `from` (nil: the start) to `to`.
    static func frames(_ song: Song, style: RenderSettings.Style, from: Double?, to: Double?, in folder: String) throws -> [[UInt8]] {
        let path = folder + "/\(from ?? -1)-\(to ?? -1).yuv"
        var request = Support.request(song, songPath: nil, outputs: [.rawYUV(path: path)], sound: false)
        request.settings.width = 64
        request.settings.height = 36
        request.settings.style = style
        request.startSeconds = from ?? 0
        request.endSeconds = to
        _ = try RenderJob(request).run()
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let frameBytes = 64 * 36 * 3 / 2
        return stride(from: 0, to: bytes.count, by: frameBytes).map { Array(bytes[$0..<min($0 + frameBytes, bytes.count)]) }
    }

    @Test func aRangesFramesAreTheWholeSongsFrames() async throws {
        let folder = try Support.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        await propertyCheck(
            count: 12, input: Gen.int(in: 0...28_799_999).array(of: 1...30), Gen.int(in: 0...3),
            Gen.double(in: 0...1), Gen.double(in: 0.15...1.5)
        ) { packed, styleIndex, place, length in
            // PropertyBased 2.0.1 drops what the body throws (Swift 6.2 and later): recorded here.
            do {
                let song = Self.song(packed)
                let style = RenderSettings.Style.allCases[styleIndex]
                let whole = try Self.frames(song, style: style, from: nil, to: nil, in: folder)
                let from = place * song.durationSeconds
                let range = try Self.frames(song, style: style, from: from, to: from + length, in: folder)
                let first = Int((from * 10).rounded())
                #expect(!range.isEmpty)
                for (offset, frame) in range.enumerated() where first + offset < whole.count {
                    let same = frame == whole[first + offset]
                    #expect(same, "frame \(offset) of the range from \(from) s is not the song's frame \(first + offset) (\(style))")
                }
            } catch {
                Issue.record(error, "threw")
            }
        }
    }
}
