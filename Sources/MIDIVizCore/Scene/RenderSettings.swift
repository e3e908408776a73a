/// How frames look and how many there are: everything a frame depends on besides the song and
/// its index.
public struct RenderSettings: Sendable, Equatable {
    public enum ColorBy: String, Sendable, CaseIterable { case pitch, channel, track }
    public enum BarsLayout: String, Sendable, CaseIterable {
        /// One bar per pitch over the song's range.
        case range
        /// One bar per pitch class, C to B.
        case pitchClass = "pitch-class"
    }

    /// Names written on notes and lit keys (`--labels`).
    public enum Labels: String, Sendable, CaseIterable {
        case off
        /// C4, F#5, Eb3: spelled by the key signature.
        case names
        /// Do, Re, Mi (fixed do), spelled by the key signature.
        case solfege
    }

    /// The keys the `keyboard` style draws (and, as two keys, the roll's rows too).
    public enum KeyRange: RawRepresentable, Sendable, Hashable, CaseIterable {
        /// A piano's 88 keys, A0 to C8.
        case piano
        /// The song's pitch range widened to whole octaves.
        case song
        /// From one key to another, both included (`C2-C7`); a black key at an end widens the
        /// range to the white key beside it. Valid when `low < high`.
        case span(low: Int, high: Int)

        /// The named ranges (`88`, `song`); a span is any two keys.
        public static var allCases: [KeyRange] { [.piano, .song] }

        /// `88`, `song` or two note names joined by `-`, middle C being C4 (`C2-C7`, `F#1-Bb6`).
        public init?(rawValue: String) {
            switch rawValue {
            case "88": self = .piano
            case "song": self = .song
            default:
                // The `-` between the keys follows a digit (an octave may be -1: `C-1-G9`).
                let characters = Array(rawValue)
                guard
                    let dash = characters.indices.first(where: { $0 > 0 && characters[$0] == "-" && characters[$0 - 1].isNumber }),
                    let low = NoteName.pitch(named: String(characters[..<dash])),
                    let high = NoteName.pitch(named: String(characters[(dash + 1)...]))
                else { return nil }
                self = .span(low: low, high: high)
            }
        }

        public var rawValue: String {
            switch self {
            case .piano: return "88"
            case .song: return "song"
            case .span(let low, let high):
                return NoteName.name(of: UInt8(clamping: max(0, low))) + "-" + NoteName.name(of: UInt8(clamping: max(0, high)))
            }
        }

        /// The keys of a span as drawn: widened at a black end to the white key beside it
        /// (nil for the named ranges and for a span that is not low to high).
        package var span: ClosedRange<Int>? {
            guard case .span(let low, let high) = self, low < high else { return nil }
            return (PianoKeys.isBlack(low) ? low - 1 : low)...(PianoKeys.isBlack(high) ? high + 1 : high)
        }

        /// How many of `song`'s notes (drums aside) lie outside a span: they are not drawn.
        package func notesOutside(_ song: Song) -> Int {
            guard let span else { return 0 }
            return song.notes.lazy.filter { $0.channel != Scene.drumChannel && !span.contains(Int($0.pitch)) }.count
        }
    }

    package var width: Int
    package var height: Int
    package var frameRate: FrameRate
    package var style: Style
    package var scheme: ColorScheme
    package var colorBy: ColorBy
    package var barsLayout: BarsLayout
    /// Animation speed, 0.5...2.0: the fade after a release lasts `baseFadeSeconds / speed`.
    package var speed: Double
    package var grid: Bool
    /// Replaces the scheme's background gradient.
    package var background: RGBA?
    /// The seconds of music the `roll` and `keyboard` styles show at once (nil: the style's
    /// default over `speed`).
    package var window: Double?
    package var keys: KeyRange
    /// Name the chord sounding now.
    package var chords: Bool
    /// Written in the top left corner (nil or empty: no title).
    package var title: String?
    /// Frames on a transparent background: no gradient; what is drawn keeps its coverage as
    /// alpha (outputs that carry alpha write it straight, not premultiplied).
    package var transparent = false
    /// A picture behind everything, already the frame's size; replaces the gradient.
    package var backgroundImage: BackgroundImage?
    /// Colours chosen per track or channel, and the tracks and channels not drawn.
    package var trackLook = TrackLook()
    package var labels = Labels.off
    /// Show the song's lyrics as a two-line karaoke display.
    package var lyrics = false
    /// Sparks where notes strike, a flash on the roll's playhead.
    package var effects = false
    /// A band of engraved music over the style (`--sheet`); `--style sheet` shows it alone.
    package var sheetBand = false
    /// The engraved music, made once before the frames (nil: none, the band stays blank).
    package var sheet: SheetMusic?
    /// Colour notes by hand, split at a key or where the hands are (`--split`); nil: off.
    package var split: HandSplit? = nil
    /// Notes' brightness (and bars' thickness) follow their velocity over its whole range.
    package var velocity = false
    /// The way notes travel in `keyboard` and `roll` (nil: the style's own, down and left).
    package var direction: Direction? = nil

    package static let baseFadeSeconds = 1.0
    package static let speedRange = 0.5...2.0

    package init(
        width: Int = 1920, height: Int = 1080, framesPerSecond: Int = 60, style: Style = .circles,
        scheme: ColorScheme = .rainbow, colorBy: ColorBy = .pitch, barsLayout: BarsLayout = .range,
        speed: Double = 1, grid: Bool = false, background: RGBA? = nil, window: Double? = nil,
        keys: KeyRange = .piano, chords: Bool = false, title: String? = nil
    ) {
        self.width = width
        self.height = height
        self.frameRate = FrameRate(framesPerSecond)
        self.style = style
        self.scheme = scheme
        self.colorBy = colorBy
        self.barsLayout = barsLayout
        self.speed = speed
        self.grid = grid
        self.background = background
        self.window = window
        self.keys = keys
        self.chords = chords
        self.title = title
    }

    /// Pinned for golden tests so that new defaults do not change recorded pixels.
    package static let forTesting = RenderSettings(
        width: 480, height: 270, framesPerSecond: 30, style: .circles,
        scheme: .rainbow, colorBy: .pitch, barsLayout: .range,
        speed: 1, grid: false, background: nil, window: nil,
        keys: .piano, chords: false, title: nil)

    package static let windowRange = 0.5...60.0

    /// The seconds of music on screen in `roll` (before and after the playhead) and `keyboard`
    /// (above the keys).
    package var windowSeconds: Double {
        window ?? style.layout.defaultWindowSeconds / speed
    }

    /// The side text sizes follow: the shorter one, so that labels fit a vertical frame too.
    package var textSide: Int { min(width, height) }

    /// How long a released note takes to fade out.
    package var fadeSeconds: Double { Self.baseFadeSeconds / speed }

    /// How long after its start a drum hit stays visible.
    package var drumSeconds: Double { 0.4 / speed }

    /// The time after the song's end that frames still show: the last fade.
    package var tailSeconds: Double { max(fadeSeconds, drumSeconds) }

    /// How long before the song's first moment a whole-song video starts, so that its first
    /// frame shows no note and the first notes enter as they would mid-song: in `roll` and
    /// `keyboard` the time a note takes to cross the screen to the playhead or the keys, in
    /// `circles` and `bars` a short beat; whole frames, one more than that.
    package var leadInSeconds: Double {
        let onScreen = style.layout.secondsOnScreenBeforeStart(settings: self)
        let frames = (frameRate.frames(in: onScreen) - 1e-6).rounded(.up) + 1
        return frameRate.seconds(ofFrame: Int(frames))
    }

    /// The number of frames for a song: ceil((duration + tail) × fps).
    package func frameCount(songDuration: Double) -> Int { frameCount(seconds: songDuration + tailSeconds) }

    /// The frames that cover `seconds`: ceil(seconds × fps), at least one. An end within a
    /// thousandth of a frame of a frame boundary (tempo values are rounded to microseconds)
    /// adds no frame.
    package func frameCount(seconds: Double) -> Int {
        max(1, Int((frameRate.frames(in: seconds) - 1e-3).rounded(.up)))
    }

    /// The nearest frame to `seconds` on the song's frame grid (negative before the song).
    package func frameIndex(atSeconds seconds: Double) -> Int { Int(frameRate.frames(in: seconds).rounded()) }

    /// The time frame `index` (0-based) shows: computed, never accumulated.
    package func seconds(ofFrame index: Int) -> Double { frameRate.seconds(ofFrame: index) }
}
