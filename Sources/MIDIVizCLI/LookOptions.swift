import ArgumentParser
import MIDIVizCore
import MIDIVizIO

/// The options that decide how frames look, shared by `render` and `frame`.
struct LookOptions: ParsableArguments {
    @Option(help: "Visual style: circles or bars.")
    var style: RenderSettings.Style = .circles

    @Option(help: "Colour scheme: rainbow, fire or ocean.")
    var scheme: ColorScheme = .rainbow

    @Option(name: .customLong("color-by"), help: "Colour notes by pitch, channel or track.")
    var colorBy: RenderSettings.ColorBy = .pitch

    @Option(help: "Bars over the song's pitch range (range) or the 12 pitch classes (pitch-class).")
    var bars: RenderSettings.BarsLayout = .range

    @Option(help: "Frame size: WIDTHxHEIGHT, 720p, 1080p, 4k, square (1080x1080) or vertical (1080x1920).")
    var size: FrameSize = FrameSize(width: 1920, height: 1080)

    @Option(help: "Frames per second.")
    var fps: Int = 60

    @Option(help: "Animation speed, 0.5 to 2.0: how fast released notes fade.")
    var speed: Double = 1.0

    @Flag(help: "Draw a faint background grid.")
    var grid = false

    @Option(help: "Background colour as #RRGGBB (a gradient from it to a darker shade).")
    var background: RGBA?

    @Option(help: "A TrueType/OpenType font for labels (default: DejaVu Sans).")
    var font: String = FontRasterizer.defaultFontPath

    func validate() throws {
        guard size.width > 0, size.height > 0 else { throw ValidationError("--size must be at least 1x1, not \(size.width)x\(size.height)") }
        guard size.width <= 7680, size.height <= 7680 else { throw ValidationError("--size is at most 7680 pixels a side") }
        guard size.width % 2 == 0, size.height % 2 == 0 else {
            throw ValidationError("--size needs even width and height (video encoders require it), not \(size.width)x\(size.height)")
        }
        guard (1...240).contains(fps) else { throw ValidationError("--fps must be between 1 and 240, not \(fps)") }
        guard RenderSettings.speedRange.contains(speed) else { throw ValidationError("--speed must be between 0.5 and 2.0, not \(speed)") }
    }

    var settings: RenderSettings {
        RenderSettings(width: size.width, height: size.height, framesPerSecond: fps, style: style, scheme: scheme,
                       colorBy: colorBy, barsLayout: bars, speed: speed, grid: grid, background: background)
    }
}
