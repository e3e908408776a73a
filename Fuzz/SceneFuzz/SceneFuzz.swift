import CFuzzerDriver
import MIDIVizCore
import MIDIVizIO

/// libFuzzer entry: a fuzzed song through the model and the rasterizer at a tiny size. The
/// first 12 bytes choose the look (style, scheme, colouring, layout, keys, grid, chords, title,
/// labels, lyrics, effects, split, velocity, direction, speed, window, size) and four moments; the rest is the MIDI file. Besides crashes, two
/// properties are checked: a frame drawn after others in one workspace equals the same frame
/// drawn afresh (a frame is a pure function of song, settings and time), and yuv420p planes
/// updated tile by tile equal the whole frame converted.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    guard bytes.count > 12, let song = try? SongLoader.load(bytes: Array(bytes[12...]), name: "fuzz-input") else { return 0 }
    let look = Array(bytes[0..<12])
    func pick<T>(_ choices: [T], _ byte: UInt8) -> T { choices[Int(byte) % choices.count] }
    var settings = RenderSettings(
        width: 16 + 2 * (Int(look[9]) % 48), height: 16 + 2 * (Int(look[9] >> 4) % 32), framesPerSecond: 30,
        style: pick(RenderSettings.Style.allCases, look[0]), scheme: pick(ColorScheme.allCases, look[1]),
        colorBy: pick(RenderSettings.ColorBy.allCases, look[2]), barsLayout: pick(RenderSettings.BarsLayout.allCases, look[3]),
        speed: RenderSettings.speedRange.lowerBound + Double(look[4]) / 255 * 1.5,
        grid: look[3] & 0x80 != 0, background: look[5] & 1 == 0 ? nil : RGBA(Float(look[5]) / 255, 0.2, 0.3),
        window: look[6] == 0 ? nil : RenderSettings.windowRange.lowerBound + Double(look[6]) / 255 * 59.5,
        keys: pick(RenderSettings.KeyRange.allCases, look[2] >> 4), chords: look[7] & 1 != 0,
        title: look[7] & 2 != 0 ? String(decoding: bytes.suffix(9), as: UTF8.self) : nil)
    settings.transparent = look[5] & 2 != 0
    settings.labels = pick(RenderSettings.Labels.allCases, look[7] >> 2)
    settings.lyrics = look[7] & 0x10 != 0
    settings.effects = look[7] & 0x20 != 0
    // Hand colours, velocity, direction and any two keys (a span the wrong way round included).
    settings.split = pick([nil, .auto, .key(60), .key(Int(look[8] & 0x7F))], look[1] >> 4)
    settings.velocity = look[1] & 0x40 != 0
    settings.direction = pick([nil] + RenderSettings.Direction.allCases, look[0] >> 4)
    if look[2] & 0x08 != 0 { settings.keys = .span(low: Int(look[10] & 0x7F), high: Int(look[11] & 0x7F)) }
    let scene = Scene(song: song, settings: settings)
    let renderer = FrameRenderer(
        scene: scene,
        fonts: fonts.textFonts(
            canvasSide: settings.textSide,
            extra: Scene.charactersBeyondLatin1(song: song, settings: settings)))
    let duration = max(song.durationSeconds, 1)
    let moments = look[8...11].map { duration * Double($0) / 200 - 0.5 }  // before, in and after the song

    var workspace = renderer.makeWorkspace()
    var planes = YUV420Planes()
    for seconds in moments {
        renderer.render(at: seconds, in: &workspace)
        planes.update(from: workspace.canvas, changed: workspace.changed)
    }
    var fresh = renderer.makeWorkspace()
    renderer.render(at: moments[3], in: &fresh)
    precondition(fresh.canvas.pixels == workspace.canvas.pixels, "the last frame differs from the same frame drawn afresh")
    var whole = YUV420Planes()
    whole.update(from: fresh.canvas, changed: fresh.changed)
    precondition(whole.bytes == planes.bytes, "planes updated by tiles differ from the whole frame converted")
    return 0
}

/// One font for every input: loading FreeType's face is not what is fuzzed.
nonisolated(unsafe) let fonts: FontRasterizer = {
    do { return try FontRasterizer() } catch { fatalError("no font: \(error)") }
}()

/// SwiftPM links an executable's entry under the name `<module>_main`; hand control to libFuzzer.
@_cdecl("SceneFuzz_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { fuzzOneInput($0, $1) }
}
