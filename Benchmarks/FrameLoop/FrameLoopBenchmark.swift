import Foundation
import MIDIVizCore
import MIDIVizIO

/// Rasterizing cost per frame on one core, per style: `midiviz-bench SONG.mid [WIDTHxHEIGHT] [FRAMES]`.
/// Renders FRAMES frames spread evenly over the song (shapes + drawing, no PNG) and prints the
/// mean and the 95th percentile in ms.
@main
enum FrameLoopBenchmark {
    static func main() throws {
        let arguments = CommandLine.arguments
        guard arguments.count >= 2 else {
            print("usage: midiviz-bench SONG.mid [WIDTHxHEIGHT] [FRAMES]")
            exit(64)
        }
        let size = (arguments.count > 2 ? arguments[2] : "1920x1080").split(separator: "x").compactMap { Int($0) }
        let sampleCount = arguments.count > 3 ? Int(arguments[3]) ?? 600 : 600
        let song = try SongLoader.load(path: arguments[1])
        let font = try FontRasterizer()
        print("song: \(arguments[1]) (\(song.notes.count) notes, \(String(format: "%.1f", song.durationSeconds)) s); \(size[0])x\(size[1]), \(sampleCount) frames per style, one core")
        for style in RenderSettings.Style.allCases {
            for scheme in [ColorScheme.rainbow] {
                let settings = RenderSettings(width: size[0], height: size[1], style: style, scheme: scheme)
                let scene = Scene(song: song, settings: settings)
                let renderer = FrameRenderer(scene: scene, fonts: font.textFonts(canvasHeight: settings.height))
                var workspace = renderer.makeWorkspace()
                var times: [Double] = []
                var shapeCount = 0
                let frameCount = scene.frameCount
                for sample in 0..<sampleCount {
                    let frame = sample * frameCount / sampleCount
                    let start = DispatchTime.now().uptimeNanoseconds
                    renderer.render(frame: frame, in: &workspace)
                    times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                    shapeCount += workspace.shapeCount
                }
                times.sort()
                let mean = times.reduce(0, +) / Double(times.count)
                print(String(format: "raster %-8@ mean %.2f ms/frame  p95 %.2f ms  max %.2f ms  (%.0f shapes/frame)",
                             style.rawValue, mean, times[times.count * 95 / 100], times.last!, Double(shapeCount) / Double(sampleCount)))
                if style == .circles {
                    var yuv: [UInt8] = []
                    let start = DispatchTime.now().uptimeNanoseconds
                    for _ in 0..<100 { YUV420.convert(workspace.canvas, into: &yuv) }
                    let perFrame = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6 / 100
                    print(String(format: "yuv420p conversion %.2f ms/frame", perFrame))
                }
            }
        }
    }
}
