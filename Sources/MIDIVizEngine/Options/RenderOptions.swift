import MIDIVizCore
import MIDIVizIO

/// Every option of a render, with its default: how frames look, how the song sounds, how the
/// video is encoded, the time range and the run's limits. Each is declared once in
/// `RenderOptions.declarations`, which the command line, config files, batch manifests,
/// `--print-config`, up-to-date records and reports all go through.
public struct RenderOptions: Sendable, Equatable {
    // How frames look.
    public var style = RenderSettings.Style.circles
    public var scheme = ColorScheme.rainbow
    public var colorBy = RenderSettings.ColorBy.pitch
    public var bars = RenderSettings.BarsLayout.range
    public var size = FrameSize(width: 1920, height: 1080)
    public var fps = FrameRate(60)
    public var speed = 1.0
    public var grid = false
    public var background: Background?
    public var backgroundImage: String?
    public var backgroundVideo: String?
    public var backgroundVideoEnd = BackgroundVideoEnd.loop
    public var backgroundDim = 0.4
    public var window: Double?
    public var keys = RenderSettings.KeyRange.piano
    public var chords = false
    /// Nil: the song's first track name.
    public var title: String?
    public var labels = RenderSettings.Labels.off
    public var lyrics = false
    public var effects = false
    /// A band of engraved music over the style (`--sheet`).
    public var sheet = false
    /// Nil: notes are not coloured by hand.
    public var split: RenderSettings.HandSplit?
    public var velocity = false
    /// Nil: the style's own (down for keyboard, left for roll).
    public var direction: RenderSettings.Direction?
    public var trackColors: [NumberedColor] = []
    public var channelColors: [NumberedColor] = []
    public var hiddenTracks: [Int] = []
    public var hiddenChannels: [Int] = []
    public var onlyTracks: [Int] = []
    /// Nil: DejaVu Sans.
    public var font: String?

    // How it sounds.
    /// Nil: `$MIDIVIZ_SOUNDFONT`, then Debian's SoundFonts.
    public var soundFont: String?
    public var sampleRate = 48_000
    public var gain = 0.2
    public var noReverb = false
    public var noChorus = false
    /// FluidSynth's voices at once (`synth.polyphony`), 1 to 16,384.
    public var polyphony = 256
    public var maximumTailSeconds = 3.0
    public var loudness = LoudnessChoice.target(-14)
    public var muteHidden = false

    // How the video is encoded.
    public var crf = Self.defaultCRF
    public var preset = Self.defaultPreset
    /// x264's rate factor and preset when none is named: `RenderRequest`'s too.
    public static let defaultCRF = 20
    public static let defaultPreset = "veryfast"
    public var noAudio = false

    // The time range.
    public var from: TimeSpec?
    public var to: TimeSpec?
    /// Nil: the style's lead-in for a whole song, none for a range.
    public var preroll: Double?
    public var postroll = 0.0

    // The run.
    /// Nil: every core.
    public var jobs: Int?
    public var stallTimeoutSeconds = 60.0
    public var maximumSongSeconds = 3600.0

    public init() {}

    /// The font labels are drawn with.
    public var fontPath: String { font ?? FontRasterizer.defaultFontPath }
}
