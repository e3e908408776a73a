import Foundation
import MIDIVizCore
import MIDIVizEngine
import MIDIVizIO

/// Songs, folders and requests for driving the engine in-process.
enum EngineTestSupport {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func fixture(_ name: String) -> String { packageRoot.appendingPathComponent("fixtures/\(name)").path }

    static let smallSoundFont = "/usr/share/sounds/sf2/TimGM6mb.sf2"

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
