/// The kinds of video file a render writes, chosen by the output's extension.
public enum VideoContainer: String, Sendable, CaseIterable {
    /// H.264 + AAC: plays everywhere.
    case mp4
    /// ProRes (4444 with alpha on a transparent background, else 422 HQ) + PCM: for editors.
    case mov
    /// VP9 (with alpha on a transparent background) + Opus: for the web.
    case webm
    /// An animated GIF, looping, with a palette made for the clip; no sound.
    case gif

    /// The container for an output path: by its name's extension (any case), MP4 when the name
    /// has none (`-o a`, `.hidden`); nil for an extension we cannot write.
    public init?(outputPath path: String) {
        let name = PathParts(path).name
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { self = .mp4; return }
        self.init(rawValue: name[name.index(after: dot)...].lowercased())
    }

    /// The extensions we write, for messages.
    public static let names = allCases.map { "." + $0.rawValue }.joined(separator: ", ")

    public var hasSound: Bool { self != .gif }

    /// Whether its sound is lossy (AAC, Opus).
    public var isLossy: Bool { self == .mp4 || self == .webm }

    /// How far under the true-peak ceiling normalized sound is held when a lossy encoder takes it.
    public static let lossyPeakHeadroomDB = 1.0

    /// The sample rate of the sound it carries when the sound is made at `rate`: AAC's nearest
    /// (it takes 7350 to 96000 Hz in steps), Opus's 48000 (as ffmpeg's libopus is given it),
    /// PCM's any. ffmpeg resamples to it.
    public func soundSampleRate(madeAt rate: Int) -> Int {
        switch self {
        case .mp4: return Self.aacSampleRates.min { abs($0 - rate) < abs($1 - rate) }!
        case .webm: return 48000
        case .mov, .gif: return rate
        }
    }

    /// The sample rates AAC has (ISO 14496-3), highest first.
    static let aacSampleRates = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350]

    /// Whether it can carry a transparent background.
    public var carriesAlpha: Bool { self != .mp4 }
}
