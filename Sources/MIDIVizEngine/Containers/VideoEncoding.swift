/// How ffmpeg encodes one kind of video file: its codecs and muxer. A container written by
/// `VideoEncoderSink` is one type conforming to this, plus its case in `VideoContainer.encoding`.
protocol VideoEncoding: Sendable {
    /// Whether ffmpeg takes the frames as straight RGBA (else yuv420p) for this background.
    func takesRGBA(alpha: Bool) -> Bool
    /// The video codec's arguments; `tags` are the BT.709 colour tags.
    func videoArguments(alpha: Bool, crf: Int, preset: String, tags: [String]) -> [String]
    /// The sound codec's arguments.
    var soundArguments: [String] { get }
    /// The muxer's arguments, last before the output path.
    var muxerArguments: [String] { get }
    /// The muxer's arguments when the file carries tags of our own (`-metadata`).
    func muxerArguments(customTags: Bool) -> [String]
    /// The muxer of a file of the sound alone, when the sound can be encoded before the video is
    /// finished and copied in with the same packets as encoded there (nil: encoded with the video).
    var soundAheadFormat: String? { get }
}

extension VideoEncoding {
    func takesRGBA(alpha: Bool) -> Bool { alpha }
    func muxerArguments(customTags: Bool) -> [String] { muxerArguments }
    var soundAheadFormat: String? { nil }
}

/// H.264 + AAC 192 kb/s in an MP4 with `+faststart`: plays everywhere.
struct MP4Encoding: VideoEncoding {
    func videoArguments(alpha: Bool, crf: Int, preset: String, tags: [String]) -> [String] {
        ["-c:v", "libx264", "-preset", preset, "-crf", String(crf), "-pix_fmt", "yuv420p"] + tags
    }
    let soundArguments = ["-c:a", "aac", "-b:a", "192k"]
    let muxerArguments = ["-movflags", "+faststart", "-f", "mp4"]
    /// ffmpeg's AAC encoder takes 1.7 % of the sound's length: 0.2 s for 10 s, 3.1 s for a
    /// 3-minute song, at the end of a render if encoded with the video. Copied from an MP4 of its
    /// own, the file has the same packets (its header's declared bit rate may differ by a few bits
    /// per second). (WebM's Opus copied in would start 7 ms apart; MOV's PCM costs nothing.)
    let soundAheadFormat: String? = "mp4"
    /// MP4 keeps tags of other names only with `use_metadata_tags`.
    func muxerArguments(customTags: Bool) -> [String] {
        customTags ? ["-movflags", "+faststart+use_metadata_tags", "-f", "mp4"] : muxerArguments
    }
}

/// ProRes (4444 with alpha, else 422 HQ) + PCM in a MOV: for editors. Takes RGBA always.
struct MOVEncoding: VideoEncoding {
    func takesRGBA(alpha: Bool) -> Bool { true }
    /// prores_aw: 4 to 6 times prores_ks's speed at 1080p60 on 2 cores, the same profiles.
    func videoArguments(alpha: Bool, crf: Int, preset: String, tags: [String]) -> [String] {
        ["-c:v", "prores_aw", "-profile:v", alpha ? "4" : "3", "-vendor", "apl0", "-pix_fmt", alpha ? "yuva444p10le" : "yuv422p10le"] + tags
    }
    let soundArguments = ["-c:a", "pcm_s16le"]
    let muxerArguments = ["-f", "mov"]
}

/// VP9 (with alpha on a transparent background) + Opus 160 kb/s in a WebM: for the web.
struct WebMEncoding: VideoEncoding {
    /// Good quality at a constant rate factor; realtime speed settings keep 1080p60 usable.
    func videoArguments(alpha: Bool, crf: Int, preset: String, tags: [String]) -> [String] {
        [
            "-c:v", "libvpx-vp9", "-crf", String(min(63, crf + 11)), "-b:v", "0", "-deadline", "realtime",
            "-cpu-used", "8", "-row-mt", "1", "-pix_fmt", alpha ? "yuva420p" : "yuv420p",
        ] + tags + (alpha ? ["-auto-alt-ref", "0"] : [])
    }
    let soundArguments = ["-c:a", "libopus", "-b:a", "160k"]
    let muxerArguments = ["-f", "webm"]
}

extension VideoContainer {
    /// How ffmpeg encodes it; nil for GIF, which `GIFSink` makes in two passes.
    var encoding: (any VideoEncoding)? {
        switch self {
        case .mp4: return MP4Encoding()
        case .mov: return MOVEncoding()
        case .webm: return WebMEncoding()
        case .gif: return nil
        }
    }
}
