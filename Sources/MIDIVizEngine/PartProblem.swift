/// Why `join` refuses a part (`RenderError.badPart`): each case carries what the message names.
public enum PartProblem: Sendable, Equatable {
    /// ffprobe cannot read it as a video (its last line), or its video is not H.264.
    case unreadable(reason: String)
    /// Its frames do not decode cleanly (the decoder's first complaint).
    case damaged(reason: String)
    /// It holds fewer (or more) frames than it says it has.
    case wrongFrameCount(frames: Int, expected: Int)
    /// Its frames are not the size or pixel format a segment of these options is made in
    /// (`picture`, as `expected`: `320x180 yuv420p`): re-encoded since.
    case otherPicture(picture: String, expected: String)
    /// It carries no segment identity: not made by `render` as a segment.
    case notASegment
    /// It shows another song than the one given (by the SHA-256 of the song's bytes).
    case otherSong(song: String)
    /// It was rendered with other options that shape frames or sound than the join's.
    case otherOptions
    /// It was encoded (crf, preset) otherwise than `than`.
    case otherEncoding(than: String)
    /// Another midiviz version made it than made `than`.
    case otherVersion(version: String, than: String, thanVersion: String)
    /// It is share `index` of `count`, where `than` is one of `thanCount`.
    case otherCount(index: Int, count: Int, than: String, thanCount: Int)
    /// It is the same share as `other` (the same path when given twice).
    case duplicate(of: String, index: Int, count: Int)
    /// Its frames start at `firstFrame`, not where the part before it ends.
    case gap(firstFrame: Int, expectedFirstFrame: Int)

    /// The message for the part at `path`.
    package func description(of path: String) -> String {
        switch self {
        case .unreadable(let reason):
            return "\(path): not a video join can read (\(reason))"
        case .damaged(let reason):
            return "\(path) is damaged: its video does not decode (\(reason))"
        case .wrongFrameCount(let frames, let expected):
            return "\(path) is damaged: it holds \(frames) frames, not the \(expected) it was made with"
        case .otherPicture(let picture, let expected):
            return "\(path) holds \(picture) frames, not the \(expected) a segment of these options is made in (re-encoded since it was rendered?)"
        case .notASegment:
            return "\(path) is not a segment of midiviz: it carries no segment identity (render each part as a segment)"
        case .otherSong(let song):
            return "\(path) is a segment of another song than \(song)"
        case .otherOptions:
            return "\(path) was rendered with other options than these (the look, the sound, the preroll and postroll must be the same)"
        case .otherEncoding(let than):
            return "\(path) was encoded with other settings than \(than)"
        case .otherVersion(let version, let than, let thanVersion):
            return "\(path) was made by midiviz \(version), \(than) by \(thanVersion)"
        case .otherCount(let index, let count, let than, let thanCount):
            return "\(path) is segment \(index) of \(count), \(than) one of \(thanCount)"
        case .duplicate(let other, let index, let count):
            return other == path ? "\(path) is given twice" : "\(path) and \(other) are both segment \(index) of \(count)"
        case .gap(let first, let expected):
            return "\(path) starts at frame \(first), not at frame \(expected) where the part before it ends"
        }
    }
}
