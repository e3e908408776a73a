import Crypto
import Foundation
import MIDIVizCore
import MIDIVizIO

/// What made an output, kept beside it as `NAME.mp4.midiviz.json`: the input's bytes (size and
/// SHA-256), the SHA-256 of every other file the render read (the SoundFont it played with,
/// the font, the background image or video), every other option that shapes the output (by
/// `RenderOptions.declarations`), and the midiviz version. A batch skips a song whose output and
/// record are there and match: the record is its up-to-date key. Files count by their bytes,
/// not where they lie: the same font in another checkout makes the same video.
package struct BatchRecord: Codable, Equatable, Sendable {
    package var inputBytes: Int
    package var inputSHA256: String
    /// The SoundFont's bytes; nil for a silent render.
    package var soundFontSHA256: String?
    /// The font's bytes; nil when it cannot be read (then the render fails).
    package var fontSHA256: String?
    /// The background image's bytes; nil without one.
    package var backgroundImageSHA256: String?
    /// The background video's bytes; nil without one.
    package var backgroundVideoSHA256: String?
    package var options: [String: [String]]
    package var version: String
    /// The output's size when it was made (only the record knows it).
    package var outputBytes: Int
    /// The output's bytes, and its modification time (`seconds.nanoseconds`), when it was made:
    /// an output of the same size written over since is found by its time, without reading
    /// it; one copied elsewhere (a new time, the same bytes) by its bytes.
    package var outputSHA256: String?
    package var outputModified: String?
    /// The output's length and frames when it was made: what a batch that skips it reports.
    package var durationSeconds: Double?
    package var frames: Int?

    enum CodingKeys: String, CodingKey {
        case inputBytes = "input_bytes", inputSHA256 = "input_sha256", soundFontSHA256 = "soundfont_sha256", fontSHA256 = "font_sha256"
        case backgroundImageSHA256 = "background_image_sha256", backgroundVideoSHA256 = "background_video_sha256"
        case options, version = "midiviz", outputBytes = "output_bytes", outputSHA256 = "output_sha256"
        case outputModified = "output_modified"
        case durationSeconds = "duration_seconds", frames
    }

    /// The record of rendering the song `bytes` with `options`.
    /// - Parameters:
    ///   - soundFont: the SoundFont the render plays with (found as the render finds it); nil
    ///     when it has no sound.
    ///   - digest: the SHA-256 of a file, or nil when it cannot be read (`FileDigest.sha256`;
    ///     a batch caches it).
    package init(
        input bytes: [UInt8], options: RenderOptions, soundFont: String?,
        digest: (String) -> String? = { FileDigest.sha256(ofFile: $0) }
    ) {
        inputBytes = bytes.count
        inputSHA256 = FileDigest.hex(SHA256.hash(data: bytes))
        soundFontSHA256 = soundFont.flatMap(digest)
        fontSHA256 = digest(options.fontPath)
        backgroundImageSHA256 = options.backgroundImage.flatMap(digest)
        backgroundVideoSHA256 = options.backgroundVideo.flatMap(digest)
        var texts = options.shapingTexts()
        // The files (font, SoundFont, background image and video) by their digests above.
        for declaration in RenderOptions.declarations where declaration.isPath { texts[declaration.name] = nil }
        self.options = texts
        version = MIDIVizVersion.current
        outputBytes = 0
    }

    /// Notes the output as it now is: its size, bytes and modification time.
    package mutating func noteOutput(_ output: String) {
        let stamp = Self.stamp(of: output)
        outputBytes = stamp?.size ?? 0
        outputSHA256 = FileDigest.sha256(ofFile: output)
        outputModified = stamp?.modified
    }

    /// A file's size and modification time (to the nanosecond), from one `stat`; nil when
    /// nothing is there.
    private static func stamp(of path: String) -> (size: Int, modified: String)? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return (Int(status.st_size), "\(status.st_mtim.tv_sec).\(String(format: "%09ld", status.st_mtim.tv_nsec))")
    }

    /// The record of `output`'s file.
    package static func path(of output: String) -> String { output + ".midiviz.json" }

    /// The record beside `output`, if there is one and it reads.
    package static func read(for output: String) -> BatchRecord? {
        guard let data = FileManager.default.contents(atPath: path(of: output)) else { return nil }
        return try? JSONDecoder().decode(BatchRecord.self, from: data)
    }

    /// Writes the record beside `output`, under a temporary name, then renamed into place.
    package func write(for output: String) throws(BatchError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(self)) ?? Data()
        try BatchFile.write(data + Data("\n".utf8), to: Self.path(of: output))
    }

    /// The output is there, as it was made (its size, and its modification time or else its
    /// bytes), and its record says it was made from the same bytes with the same options by this
    /// version (what `self` records, but for what only the record knows: the output's size,
    /// bytes, time, length and frames).
    package func isUpToDate(output: String) -> Bool { upToDate(output: output) != nil }

    /// Whether the output is up to date, writing its record again when it was found other than
    /// by its time (`upToDate`); the record, as the render that made it wrote it.
    package func upToDateRefreshingRecord(output: String) -> BatchRecord? {
        guard let (recorded, refreshed) = upToDate(output: output) else { return nil }
        if let refreshed { try? refreshed.write(for: output) }
        return recorded
    }

    /// The output's record when the output is up to date (`isUpToDate`), else nil. A record to
    /// write again when the output was found by its bytes or by its size alone (a new time, a
    /// record of an earlier build without the output's bytes), so that the next run finds it by
    /// its time without reading it.
    package func upToDate(output: String) -> (record: BatchRecord, refreshed: BatchRecord?)? {
        guard let recorded = Self.read(for: output), let stamp = Self.stamp(of: output) else { return nil }
        // A record edited to numbers no render makes is no record: render again.
        if let frames = recorded.frames, !(0...BatchReport.largestCount).contains(frames) { return nil }
        if let seconds = recorded.durationSeconds, !(0...BatchReport.longestSeconds).contains(seconds) { return nil }
        var made = self
        made.outputBytes = recorded.outputBytes
        made.outputSHA256 = recorded.outputSHA256
        made.outputModified = recorded.outputModified
        made.durationSeconds = recorded.durationSeconds
        made.frames = recorded.frames
        guard recorded == made, stamp.size == recorded.outputBytes else { return nil }
        if recorded.outputModified == stamp.modified, recorded.outputSHA256 != nil { return (recorded, nil) }
        // A new time, or a record of a build that kept the size alone: read the bytes once.
        var refreshed = recorded
        refreshed.noteOutput(output)
        guard recorded.outputSHA256 == nil || refreshed.outputSHA256 == recorded.outputSHA256 else { return nil }
        return (recorded, refreshed)
    }
}

/// SHA-256 of files, as lower-case hex.
package enum FileDigest {
    /// The SHA-256 of the regular file at `path`, read in pieces; nil when it cannot be read.
    package static func sha256(ofFile path: String) -> String? {
        guard RegularFile.problem(at: path) == nil, let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var hasher = SHA256()
        while true {
            let piece: Data?
            do { piece = try handle.read(upToCount: 1 << 20) } catch { return nil }
            guard let piece, !piece.isEmpty else { break }
            hasher.update(data: piece)
        }
        return hex(hasher.finalize())
    }

    static func hex(_ digest: SHA256.Digest) -> String {
        digest.map { String(format: "%02x", $0) }.joined()
    }
}

/// Files a batch writes whole or not at all.
package enum BatchFile {
    /// Writes `data` to `path` under a temporary name, then renames it into place; through a
    /// symbolic link, as every output is (`StagedOutput`).
    /// - Parameter makingFolder: make its folder when it is not there (a report inside the
    ///   output folder, on a first run: `BatchPlan.check(reports:)` allowed it).
    package static func write(_ data: Data, to given: String, makingFolder: Bool = false) throws(BatchError) {
        let path = StagedOutput.linkTarget(of: given) ?? given
        if makingFolder { try? FileManager.default.createDirectory(atPath: PathParts(path).folder, withIntermediateDirectories: true) }
        let temporary = path + ".midiviz-\(getpid())-tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: data), rename(temporary, path) == 0 else {
            let reason = systemError()
            unlink(temporary)
            throw .cannotWrite("cannot write \(path): \(reason)")
        }
    }
}
