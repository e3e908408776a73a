import MIDIVizCore
import MIDIVizIO

/// Everything one render needs: the song, how it looks, how it sounds, the time range and the
/// outputs. A value: build it, hand it to `RenderJob`.
public struct RenderRequest: Sendable {
    public var song: Song
    /// The song's file, for messages and so that no output replaces it; nil for a built-in song.
    public var songPath: String?
    /// The name messages use for the song (its path, or the built-in song's name).
    public var songName: String
    public var settings: RenderSettings
    /// The TrueType/OpenType font for labels.
    public var fontPath: String
    /// The `--background-image` file the settings' picture came from, so that no output replaces it.
    public var backgroundImagePath: String?
    /// `--background-video`: the clip behind the notes (nil: none).
    public var backgroundVideo: BackgroundVideo?
    /// The sound, or nil for none (then the video is silent).
    public var sound: SoundSettings?
    /// Song seconds of the first frame, rounded to the nearest frame of the song's frame grid.
    public var startSeconds: Double = 0
    /// Song seconds where the render stops; nil for the song's end plus the release tail.
    public var endSeconds: Double?
    /// Seconds shown before `startSeconds`, with silence (the song's start is not moved: frame k
    /// is still on the song's frame grid). Nil: `RenderSettings.leadInSeconds` when the render
    /// has frames and starts at the song's start, so its first frame shows no note; else none.
    public var prerollSeconds: Double?
    /// Seconds shown after the end: after the song's end and its tail, still frames over silence
    /// (or the sound still ringing); after `endSeconds`, the song itself goes on that long.
    public var postrollSeconds: Double = 0
    /// The longest preroll or postroll.
    public static let rollRange = 0.0...600.0
    public var outputs: [RenderOutput]
    /// Workers rendering frames.
    public var jobs: Int
    /// Songs longer than this are refused.
    public var maximumSongSeconds: Double = RenderRequest.defaultMaximumSongSeconds
    public static let defaultMaximumSongSeconds: Double = 3600
    /// How long ffmpeg may take no frame before the run fails.
    public var stallTimeoutSeconds: Double = 60
    /// x264's rate factor and preset for a video output that names none.
    public var crf = RenderOptions.defaultCRF
    public var preset = RenderOptions.defaultPreset
    /// Only this share of the whole song's frames, as a silent video for `join` (nil: the range).
    public var segment: RenderSegment?
    /// Other files the options came from (config files): no output may replace one.
    public var configFiles: [String] = []
    /// A segment's `RenderOptions.segmentOptionsDigest`, written into it for `join` (set by
    /// `init(song:songPath:songName:options:outputs:segment:defaultJobs:)`).
    package var segmentOptionsSHA256: String?

    public init(
        song: Song, songPath: String?, songName: String, settings: RenderSettings, fontPath: String,
        sound: SoundSettings?, outputs: [RenderOutput], jobs: Int
    ) {
        self.song = song
        self.songPath = songPath
        self.songName = songName
        self.settings = settings
        self.fontPath = fontPath
        self.sound = sound
        self.outputs = outputs
        self.jobs = jobs
    }
}

/// The synthesizer's settings and the SoundFont to find.
public struct SoundSettings: Sendable {
    package var bouncer: AudioBouncer
    /// `--soundfont`; nil to search `$MIDIVIZ_SOUNDFONT` and Debian's SoundFonts.
    public var soundFontPath: String?
    /// The loudness the sound is normalized to; nil keeps the synthesizer's own level.
    public var loudness: LoudnessTarget?

    package init(bouncer: AudioBouncer = AudioBouncer(), soundFontPath: String? = nil, loudness: LoudnessTarget? = LoudnessTarget()) {
        self.bouncer = bouncer
        self.soundFontPath = soundFontPath
        self.loudness = loudness
    }
}

/// One output of a render. Each appears under its path only when the whole run has succeeded.
public enum RenderOutput: Sendable, Hashable {
    /// A video file through ffmpeg: MP4, MOV, WebM or GIF. `crf` and `preset` are x264's
    /// (VP9's rate factor follows `crf`); nil for the request's (`RenderRequest.crf`, `.preset`:
    /// the options' when the request was made from options).
    case video(path: String, container: VideoContainer, crf: Int?, preset: String?)
    /// `frame_000001.png` ... in a folder holding nothing else afterwards.
    case pngFrames(directory: String, level: Int)
    /// The sound as 16-bit stereo PCM WAV.
    case wav(path: String)
    /// The frames as raw yuv420p, one after another (for measuring an encoder alone).
    case rawYUV(path: String)

    public var path: String {
        switch self {
        case .video(let path, _, _, _), .wav(let path), .rawYUV(let path): return path
        case .pngFrames(let directory, _): return directory
        }
    }

    var isFolder: Bool { if case .pngFrames = self { return true } else { return false } }
    /// Whether its frames need an even width and height: raw yuv420p and a video (4:2:0
    /// chroma takes pixels in pairs; GIF and transparent MOV are held to the same rule).
    var needsEvenSides: Bool {
        switch self {
        case .video, .rawYUV: return true
        case .wav, .pngFrames: return false
        }
    }
    var needsFrames: Bool { if case .wav = self { return false } else { return true } }
    /// The container of a video output.
    var container: VideoContainer? { if case .video(_, let container, _, _) = self { return container } else { return nil } }

    /// H.264 + AAC in an MP4; `crf` and `preset` nil for the request's.
    public static func mp4(path: String, crf: Int? = nil, preset: String? = nil) -> RenderOutput {
        .video(path: path, container: .mp4, crf: crf, preset: preset)
    }
}

/// How far a render has come.
public struct RenderProgress: Sendable {
    /// What the render is doing.
    public enum Stage: String, Sendable {
        /// Making the frames (and the sound beside them).
        case frames
        /// Putting the finished video and its sound together (the sound normalized beside the
        /// frames is encoded then): `muxedSeconds` of `durationSeconds` done.
        case muxing
    }

    public var framesDone: Int
    public var frames: Int
    public var stage: Stage = .frames
    /// While muxing: how much of the video is put together, and its length, in seconds.
    public var muxedSeconds: Double = 0
    public var durationSeconds: Double = 0
}

/// What a finished render made.
public struct RenderSummary: Sendable {
    /// The outputs' paths, in the request's order.
    public var outputs: [String]
    public var frames: Int
    /// The length of the video (or of the sound alone), in seconds.
    public var durationSeconds: Double
    /// The sound's loudness and the gain applied, when it was normalized.
    public var loudness: LoudnessMeasurement?
}

/// Share `index` (from 1) of `count` of a whole song's frames: frames `(index - 1) × F / count`
/// up to `index × F / count`, where F is the frame count of the song rendered whole with the same
/// settings (the sound's tail included). Joined in order, the shares are exactly that render's
/// frames; each starts with a keyframe, as every encode does.
public struct RenderSegment: Sendable, Equatable {
    public var index: Int
    public var count: Int

    /// The most shares a song is cut into.
    public static let maximumCount = 10_000

    /// Nil unless `1 <= index <= count <= maximumCount`.
    public init?(index: Int, count: Int) {
        guard (1...Self.maximumCount).contains(count), (1...count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// The first frame and the number of frames of this share of `total` (at least 0), exact
    /// for any `total`: the products are taken in double width.
    public func frames(of total: Int) -> (first: Int, count: Int) {
        let total = max(0, total)
        func boundary(_ shares: Int) -> Int { count.dividingFullWidth(total.multipliedFullWidth(by: shares)).quotient }
        let first = boundary(index - 1), next = boundary(index)
        return (first, next - first)
    }
}
