import Foundation
import MIDIVizCore
import MIDIVizIO

/// What one render does, settled before anything is written: the frames' range on the song's
/// grid, which outputs take frames and which the sound, and the tools and fonts they need.
struct RenderPlan: Sendable {
    let settings: RenderSettings
    /// The first frame (on the whole song's grid: frame k of a range is the song's frame
    /// `firstFrame + k`, the same time to the bit) and its time.
    let firstFrame: Int
    let start: Double
    /// A range's end with its postroll; nil for the whole song (and its tail, and the sound's).
    let end: Double?
    /// Where the picture ends: `end`, or the song, its tail and the postroll.
    let visualEnd: Double
    /// A `--to` past where the picture ends, and with the postroll: the sound rings on to the
    /// latter at the latest; if it still rings at the `--to`, the frames go on to the latter too.
    let soundCut: Double?
    let soundLimit: Double?
    /// A segment's share of the whole song's frames: fixed, whatever the sound does.
    let segmentFrames: Int?
    /// A segment's share: its first frame among the whole song's, and the whole song's frames.
    let segmentShare: (first: Int, total: Int)?
    let wantsFrames: Bool
    /// The video output that carries the sound, and the WAV output.
    let encoder: RenderOutput?
    let wav: RenderOutput?
    /// The SoundFont, when some output takes sound (never for a segment: `join` adds it whole).
    let soundFont: String?
    let ffmpeg: String?
    let fonts: TextFonts?
    /// The loudness to normalize to (with headroom for lossy codecs); nil keeps the synthesizer's.
    let loudness: LoudnessTarget?
    /// Normalized sound made beside the frames, and put with the video at the end.
    let normalizesBeside: Bool

    /// - Parameters:
    ///   - preroll: the seconds shown before the start.
    ///   - wholeSongFrameCount: the frames of the whole song, for a segment's share.
    init(_ request: RenderRequest, preroll: Double, wholeSongFrameCount: () throws(RenderError) -> Int) throws(RenderError) {
        let settings = request.settings
        self.settings = settings
        wantsFrames = request.outputs.contains { $0.needsFrames }
        // An end past the song's end (and its tail) is the end, as without one.
        let songEnd = request.song.durationSeconds + settings.tailSeconds
        end = request.segment != nil ? nil : request.endSeconds.flatMap { $0 < songEnd ? $0 + request.postrollSeconds : nil }
        visualEnd = end ?? songEnd + request.postrollSeconds
        soundCut = request.segment == nil && end == nil ? request.endSeconds : nil
        soundLimit = soundCut.map { $0 + request.postrollSeconds }
        guard abs(request.startSeconds) < 1e9, visualEnd > request.startSeconds else {  // finite, and frames fit an Int
            throw .emptyRange(startSeconds: request.startSeconds, endSeconds: visualEnd, toSeconds: end != nil ? request.endSeconds : nil)
        }
        // A range starts on the song's frame grid, at the nearest frame.
        if let segment = request.segment {
            let total = try wholeSongFrameCount()
            let share = segment.frames(of: total)
            guard share.count > 0 else {
                throw .usage("segment \(segment.index)/\(segment.count) of a \(SongClock.text(songEnd)) song has no frames: use fewer segments")
            }
            firstFrame = settings.frameIndex(atSeconds: -preroll) + share.first
            segmentFrames = share.count
            segmentShare = (share.first, total)
        } else {
            firstFrame = settings.frameIndex(atSeconds: request.startSeconds - preroll)
            segmentFrames = nil
            segmentShare = nil
        }
        start = settings.seconds(ofFrame: firstFrame)
        guard visualEnd > start || segmentFrames != nil else {
            throw .emptyRange(startSeconds: request.startSeconds, endSeconds: visualEnd, toSeconds: end != nil ? request.endSeconds : nil)
        }

        encoder = request.outputs.first { $0.container?.hasSound == true }
        wav = request.outputs.first { if case .wav = $0 { return true } else { return false } }
        if let sound = request.sound, wav != nil || encoder != nil, request.segment == nil {
            do { soundFont = try SoundFontLocator.locate(explicit: sound.soundFontPath) } catch { throw RenderError(error) }
        } else {
            soundFont = nil
        }
        if request.outputs.contains(where: { $0.container != nil }) {
            do { ffmpeg = try FFmpegProcess.locate() } catch { throw RenderError(error) }
        } else {
            ffmpeg = nil
        }
        fonts =
            wantsFrames
            ? try RenderJob.loadFonts(
                request.fontPath, canvasSide: settings.textSide,
                extra: Scene.charactersBeyondLatin1(song: request.song, settings: settings))
            : nil
        var loudness = request.sound?.loudness
        // AAC and Opus overshoot the peaks they are given (by up to about 1 dB on a sharp attack
        // after silence): the encoded file keeps the ceiling only with this headroom.
        if encoder?.container?.isLossy == true { loudness?.truePeakCeilingDBTP -= VideoContainer.lossyPeakHeadroomDB }
        self.loudness = soundFont != nil ? loudness : nil
        normalizesBeside = self.loudness != nil && wantsFrames && encoder != nil
    }

    /// The frames: the range (and the sound's tail, when it rings on longer than a whole song's
    /// picture, up to `soundLimit`); a segment's share, fixed.
    func frameCount(forAudioSeconds audio: Double) -> Int {
        if let segmentFrames { return segmentFrames }
        if end != nil { return settings.frameCount(seconds: visualEnd - start) }
        let rung = max(audio, visualEnd - start)
        guard let soundCut, let soundLimit, audio > soundCut - start else { return settings.frameCount(seconds: rung) }
        return settings.frameCount(seconds: max(soundLimit, visualEnd) - start)
    }

    /// The sound's length in seconds for a natural length, and the frames it settles: both
    /// exactly the frames' length.
    func settled(naturalSeconds: Double) -> (frames: Int, seconds: Double) {
        let frames = frameCount(forAudioSeconds: naturalSeconds)
        return (frames, settings.seconds(ofFrame: frames))
    }
}
