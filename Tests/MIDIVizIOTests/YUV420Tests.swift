import Foundation
import Testing

@testable import MIDIVizCore
@testable import MIDIVizIO

@Suite(.timeLimit(.minutes(30))) struct YUVTests {
    @Test func bt709LimitedRangeLevels() {
        var canvas = Canvas(width: 4, height: 2, color: RGBA(1, 1, 1))
        canvas.fillRect(Rect(x: 2, y: 0, width: 2, height: 2), RGBA(0, 0, 0))
        var yuv: [UInt8] = []
        YUV420.convert(canvas, into: &yuv)
        #expect(yuv.count == 12)
        #expect(Array(yuv[0..<8]) == [235, 235, 16, 16, 235, 235, 16, 16], "white 235, black 16")
        #expect(Array(yuv[8..<12]) == [128, 128, 128, 128], "grey has no chroma")
        var red = Canvas(width: 2, height: 2, color: RGBA(1, 0, 0))
        YUV420.convert(red, into: &yuv)
        // BT.709: red is Y 63, Cb 102, Cr 240.
        #expect(yuv[0] == 63 && yuv[4] == 102 && yuv[5] == 240, "\(yuv)")
        red.fillRect(Rect(x: 0, y: 0, width: 1, height: 1), RGBA(0, 0, 1))
        YUV420.convert(red, into: &yuv)
        #expect(yuv[0] == 32, "BT.709 blue is Y 32")
    }

    /// The planes a worker keeps, updated only where each frame changed, stay byte for byte the
    /// whole frame converted afresh: every style, with chords and a title, on a real song, for
    /// consecutive frames, every second frame (one of two workers) and jumps back and forth. The
    /// width is no multiple of the 32-pixel tiles, so the last column of tiles is clipped.
    @Test(arguments: RenderSettings.Style.allCases)
    func changedTilesKeepThePlanesExact(style: RenderSettings.Style) throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Corpus/piano-midi.de/debussy/childrens_corner_2.mid").path
        let song = try SongLoader.load(path: path)
        let settings = RenderSettings(width: 650, height: 366, style: style, chords: true, title: "Doctor Gradus")
        let scene = Scene(song: song, settings: settings)
        let renderer = FrameRenderer(scene: scene, fonts: try FontRasterizer().textFonts(canvasSide: settings.textSide))
        var workspace = renderer.makeWorkspace()
        var planes = YUV420Planes(), whole: [UInt8] = []
        let start = 30 * settings.frameRate.numerator
        let frames =
            Array(start..<(start + 120)) + Array(stride(from: start + 120, to: start + 360, by: 2))
            + [start + 900, start + 10, 0, start + 2000, start + 2001, scene.frameCount - 1, start + 11]
        var partial = 0
        for frame in frames {
            renderer.render(frame: frame, in: &workspace)
            planes.update(from: workspace.canvas, changed: workspace.changed)
            YUV420.convert(workspace.canvas, into: &whole)
            #expect(planes.bytes.count == whole.count)
            let firstDifference = whole.indices.first { planes.bytes[$0] != whole[$0] }
            #expect(firstDifference == nil, "frame \(frame): byte \(firstDifference ?? 0) differs from the whole frame converted")
            if firstDifference != nil { return }
            if workspace.changed.changedFraction < 0.9 { partial += 1 }
        }
        // It must be a saving too: most frames change only part of the picture.
        #expect(partial > frames.count / 2, "\(partial) of \(frames.count) frames converted in part")
    }
}
