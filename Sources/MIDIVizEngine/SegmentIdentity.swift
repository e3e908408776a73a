import Crypto
import Foundation
import MIDIVizCore
import MIDIVizIO

/// What a segment is, written into its MP4's metadata (the tag `midiviz_segment`, as JSON) so
/// that `join` can check its parts: the song (SHA-256 of its bytes), the options that shape
/// frames and sound (`RenderOptions.segmentOptionsDigest`), the encoder's settings, the midiviz
/// version, K of N and its frames on the whole song's grid.
package struct SegmentIdentity: Codable, Equatable, Sendable {
    /// The container's metadata key.
    package static let metadataKey = "midiviz_segment"

    package var songSHA256: String
    package var optionsSHA256: String
    /// The encoder's settings (`crf 20, preset veryfast`): parts of one video share them.
    package var encoding: String
    package var version: String
    package var index: Int
    package var count: Int
    /// The share's first frame among the whole song's frames (from 0), its frames, and the
    /// whole song's.
    package var firstFrame: Int
    package var frames: Int
    package var totalFrames: Int

    enum CodingKeys: String, CodingKey {
        case songSHA256 = "song_sha256", optionsSHA256 = "options_sha256", encoding, version = "midiviz"
        case index = "k", count = "n", firstFrame = "first_frame", frames, totalFrames = "total_frames"
    }

    /// The JSON written as the metadata's value.
    package var metadataText: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }

    /// The identity a metadata value holds; nil for anything else (then it is no part).
    package init?(metadataText text: String) {
        guard let decoded = try? JSONDecoder().decode(Self.self, from: Data(text.utf8)),
            (1...RenderSegment.maximumCount).contains(decoded.count), (1...decoded.count).contains(decoded.index), decoded.frames >= 0, decoded.firstFrame >= 0,
            decoded.totalFrames >= decoded.frames
        else { return nil }
        self = decoded
    }

    package init(
        songSHA256: String, optionsSHA256: String, encoding: String, version: String = MIDIVizVersion.current,
        index: Int, count: Int, firstFrame: Int, frames: Int, totalFrames: Int
    ) {
        self.songSHA256 = songSHA256
        self.optionsSHA256 = optionsSHA256
        self.encoding = encoding
        self.version = version
        self.index = index
        self.count = count
        self.firstFrame = firstFrame
        self.frames = frames
        self.totalFrames = totalFrames
    }

    /// The encoder's settings as a part records them.
    package static func encoding(crf: Int, preset: String) -> String { "crf \(crf), preset \(preset)" }

    /// The SHA-256 of a song's file; for a built-in song (no file), of its name.
    package static func songDigest(path: String?, name: String) -> String? {
        guard let path else { return FileDigest.hex(SHA256.hash(data: Data(("built-in song " + name).utf8))) }
        return FileDigest.sha256(ofFile: path)
    }
}

extension RenderOptions {
    /// The SHA-256 of what shapes a segment's frames and the sound `join` adds: every option that
    /// shapes an output but the encoder's (`crf`, `preset`, recorded apart) and the range (a
    /// segment has none), with each file (font, background image, SoundFont) by the SHA-256 of
    /// its bytes, so that machines with the same files at other paths agree. The SoundFont is
    /// the one the render finds (none for a silent render: its frame count has no sound's tail).
    /// - Parameter withSound: whether the render makes sound (then its SoundFont is looked for).
    package func segmentOptionsDigest(withSound: Bool) throws(RenderError) -> String {
        var soundFont: String?
        if withSound {
            do { soundFont = try SoundFontLocator.locate(explicit: self.soundFont) } catch { throw RenderError(error) }
        }
        let skipped: Set<String> = ["crf", "preset", "from", "to", "no-audio", "soundfont", "font"]
        var lines: [String] = []
        func file(_ path: String?) -> String { path.map { FileDigest.sha256(ofFile: $0) ?? "unreadable" } ?? "none" }
        for declaration in Self.declarations where declaration.shapesOutput && !skipped.contains(declaration.name) {
            let texts = declaration.texts(of: self)
            lines.append(declaration.name + "=" + (declaration.isPath ? texts.map(file) : texts).joined(separator: "\u{1F}"))
        }
        lines.append("font=" + file(fontPath))
        lines.append("soundfont=" + file(soundFont))
        return FileDigest.hex(SHA256.hash(data: Data(lines.sorted().joined(separator: "\n").utf8)))
    }
}
