import Foundation
import MIDIVizCore
import MIDIVizEngine
import MIDIVizIO
import Testing

/// Songs, folders and requests for driving the engine in-process.
enum EngineTestSupport {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func fixture(_ name: String) -> String { packageRoot.appendingPathComponent("fixtures/\(name)").path }

    static let smallSoundFont = "/usr/share/sounds/sf2/TimGM6mb.sf2"

    /// `song` bounced by `bouncer` through the small SoundFont at 48 kHz: its left channel, −1...1.
    static func bounceLeft(_ song: Song, with bouncer: AudioBouncer, label: String = #function) throws -> [Float] {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("midiviz-bounce-\(label.filter(\.isLetter))-\(getpid())-\(UUID().uuidString.prefix(8)).wav").path
        defer { unlink(path) }
        _ = try bouncer.bounce(song, soundFont: smallSoundFont, into: try WAVWriter(path: path, sampleRate: 48_000))
        let data = try Data(contentsOf: URL(fileURLWithPath: path)).dropFirst(44)
        let samples: [Int16] = data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        return stride(from: 0, to: samples.count, by: 2).map { Float(samples[$0]) / 32767 }
    }

    /// The root mean square of 48-kHz `samples` from `from` to `to` seconds.
    static func rms(_ samples: [Float], _ from: Double, _ to: Double) -> Double {
        let slice = samples[min(samples.count, Int(from * 48_000))..<min(samples.count, Int(to * 48_000))]
        return (slice.reduce(0.0) { $0 + Double($1 * $1) } / Double(max(1, slice.count))).squareRoot()
    }

    static func song(_ name: String = "c-major-arpeggio.mid") throws -> Song {
        try SongLoader.load(path: fixture(name))
    }

    /// A new empty folder, removed by the caller.
    static func folder(_ label: String = #function) throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("midiviz-engine-\(label.filter(\.isLetter))-\(getpid())-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A small, quick request: 160x90 at 10 fps over the first 2 s, without a lead-in.
    static func request(_ song: Song, songPath: String?, outputs: [RenderOutput], sound: Bool = true) -> RenderRequest {
        var settings = RenderSettings()
        settings.width = 160
        settings.height = 90
        settings.frameRate = FrameRate(10)
        var request = RenderRequest(
            song: song, songPath: songPath, songName: songPath ?? "song", settings: settings,
            fontPath: FontRasterizer.defaultFontPath,
            sound: sound ? SoundSettings(soundFontPath: smallSoundFont) : nil, outputs: outputs, jobs: 2)
        request.endSeconds = 2
        request.prerollSeconds = 0  // no lead-in: frame k shows k / 10 s
        return request
    }

    static func contents(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs only where the small SoundFont is (`scripts/setup` installs it).
    static var needsSmallSoundFont: Self {
        .enabled(if: FileManager.default.fileExists(atPath: EngineTestSupport.smallSoundFont), "needs TimGM6mb (scripts/setup)")
    }
}
