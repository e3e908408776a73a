import ArgumentParser
import MIDIVizCore
import MIDIVizEngine
import MIDIVizIO

/// The options that decide how frames look, shared by `render` and `frame`.
struct LookOptions: ParsableArguments {
    @Option(help: "Visual style: circles, bars, roll (a scrolling piano roll) or keyboard (notes falling onto a piano).")
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

    @Option(help: "Background: a colour as #RRGGBB (a gradient from it to a darker shade), or transparent (PNG frames, .mov, .webm and .gif keep the alpha).")
    var background: Background?

    @Option(name: .customLong("background-image"), help: ArgumentHelp("A picture (PNG or JPEG) behind the notes, scaled to cover the frame.", valueName: "file"))
    var backgroundImage: String?

    @Option(name: .customLong("background-dim"), help: ArgumentHelp("How much to darken --background-image, 0 to 1, to keep the notes readable.", valueName: "amount"))
    var backgroundDim: Double = 0.4

    @Option(help: ArgumentHelp("Seconds of music on screen in roll and keyboard (default: 8 for roll, 3 for keyboard, over --speed).",
                               valueName: "seconds"))
    var window: Double?

    @Option(help: "Keys of the keyboard style: 88 (A0 to C8) or song (the song's range in whole octaves).")
    var keys: RenderSettings.KeyRange = .piano

    @Flag(help: "Name the chord sounding now (C, Am7, G/B, ...) in the top right corner.")
    var chords = false

    @Option(help: "A title for the top left corner (default: the song's first track name, if any; \"\" for none).")
    var title: String?

    @Option(help: ArgumentHelp("Write note names on falling notes, roll notes and lit keys where they fit, spelled by the key signature: names (C4, Eb5) or solfege (Do, Mib). `--labels` alone means names.", valueName: "names|solfege"))
    var labels: RenderSettings.Labels = .off

    @Flag(help: "Show the song's lyrics (lyric events, or .kar text) as a two-line karaoke display, each syllable lit as it is sung.")
    var lyrics = false

    @Flag(help: "Sparks where notes strike (every style) and a flash on the roll's playhead.")
    var effects = false

    @Option(name: .customLong("track-color"), help: ArgumentHelp("A colour for one track's notes, numbered as `midiviz info` lists the tracks (from 0); repeatable.", valueName: "N=#RRGGBB"))
    var trackColor: [NumberedColor] = []

    @Option(name: .customLong("channel-color"), help: ArgumentHelp("A colour for one channel's notes (channels 1 to 16); repeatable. A track's colour wins.", valueName: "C=#RRGGBB"))
    var channelColor: [NumberedColor] = []

    @Option(name: .customLong("hide-track"), help: ArgumentHelp("Do not draw this track's notes (still heard, unless --mute-hidden); repeatable.", valueName: "N"))
    var hideTrack: [Int] = []

    @Option(name: .customLong("hide-channel"), help: ArgumentHelp("Do not draw this channel's notes (1 to 16; still heard, unless --mute-hidden); repeatable.", valueName: "C"))
    var hideChannel: [Int] = []

    @Option(name: .customLong("only-track"), help: ArgumentHelp("Draw only this track's notes; repeatable.", valueName: "N"))
    var onlyTrack: [Int] = []

    @Option(name: .customLong("font"), help: ArgumentHelp("A TrueType/OpenType font for labels (default: DejaVu Sans, \(FontRasterizer.defaultFontPath)).", valueName: "file"))
    var fontOption: String?

    var font: String { fontOption ?? FontRasterizer.defaultFontPath }

    func validate() throws {
        guard size.width > 0, size.height > 0 else { throw ValidationError("--size must be at least 1x1, not \(size.width)x\(size.height)") }
        guard size.width <= 7680, size.height <= 7680 else { throw ValidationError("--size is at most 7680 pixels a side") }
        guard size.width % 2 == 0, size.height % 2 == 0 else {
            throw ValidationError("--size needs even width and height (video encoders require it), not \(size.width)x\(size.height)")
        }
        guard (1...240).contains(fps) else { throw ValidationError("--fps must be between 1 and 240, not \(fps)") }
        guard RenderSettings.speedRange.contains(speed) else { throw ValidationError("--speed must be between 0.5 and 2.0, not \(speed)") }
        for channel in channelColor.map(\.number) + hideChannel where !(1...16).contains(channel) {
            throw ValidationError("channels are 1 to 16, not \(channel)")
        }
        for track in trackColor.map(\.number) + hideTrack + onlyTrack where track < 0 {
            throw ValidationError("tracks are numbered from 0, as `midiviz info` lists them, not \(track)")
        }
        guard (0...1).contains(backgroundDim) else { throw ValidationError("--background-dim must be between 0 and 1, not \(backgroundDim)") }
        if backgroundImage != nil && background == .transparent {
            throw ValidationError("--background-image and --background transparent contradict each other")
        }
        if let window, !RenderSettings.windowRange.contains(window) {
            throw ValidationError("--window must be between 0.5 and 60 seconds, not \(window)")
        }
    }

    /// The colours and visibility per track and channel.
    var trackLook: TrackLook {
        var look = TrackLook()
        for entry in trackColor { look.trackColors[entry.number] = entry.color }
        for entry in channelColor { look.channelColors[entry.number] = entry.color }
        look.hiddenTracks = Set(hideTrack)
        look.hiddenChannels = Set(hideChannel)
        look.onlyTracks = Set(onlyTrack)
        return look
    }

    /// The settings for `song`, whose first track's name is the default title; reads the
    /// background image.
    func settings(for song: Song) throws(RenderError) -> RenderSettings {
        var color: RGBA?
        if case .color(let chosen) = background { color = chosen }
        var settings = RenderSettings(width: size.width, height: size.height, framesPerSecond: fps, style: style, scheme: scheme,
                                      colorBy: colorBy, barsLayout: bars, speed: speed, grid: grid, background: color,
                                      window: window, keys: keys, chords: chords, title: title ?? song.tracks.first?.name)
        settings.transparent = background == .transparent
        for track in trackColor.map(\.number) + hideTrack + onlyTrack where track >= song.tracks.count {
            throw .usage("track \(track): the song has \(song.tracks.count) track\(song.tracks.count == 1 ? "" : "s") (0 to \(song.tracks.count - 1), as `midiviz info` lists them)")
        }
        settings.trackLook = trackLook
        settings.labels = labels
        settings.lyrics = lyrics
        settings.effects = effects
        if let backgroundImage {
            settings.backgroundImage = try BackgroundPicture.load(backgroundImage, width: size.width, height: size.height, dim: backgroundDim)
        }
        return settings
    }
}
