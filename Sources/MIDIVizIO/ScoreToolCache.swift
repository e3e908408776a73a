import Crypto
import Foundation
import MIDIVizCore

/// What the score tools made, kept on disk so that a song is read and engraved once: MuseScore's
/// MIDI and MusicXML of a score, its MusicXML of a MIDI file's notation, Verovio's SVG and layout.
/// The next `frame`, `render`, `info` or batch run of the same song reads them back.
///
/// An entry is named by the SHA-256 of all that shapes it (`key`): what it is (its kind, and how
/// midiviz asks the tool for it: its arguments, or Verovio's script), midiviz's version, the tool
/// (`ToolIdentity`) and the input's bytes. One file an entry, written under a temporary name in
/// the cache's folder and renamed into place: two processes making one entry each write their
/// own, and a reader sees one of them whole. The first line holds the SHA-256 of the rest: an
/// entry cut short or altered is a miss, made again, never wrong output. The cache is never
/// needed: a folder that cannot be made, read or written only means the tools run.
///
/// The folder is `$MIDIVIZ_CACHE`, else `$XDG_CACHE_HOME/midiviz`, else `~/.cache/midiviz`;
/// `MIDIVIZ_CACHE=off` turns the cache off. midiviz never removes entries (removing the folder
/// does no harm).
package struct ScoreToolCache: Sendable {
    package let folder: String

    package init(folder: String) { self.folder = folder }

    /// The cache the environment names; nil when it is off or no folder is known.
    package static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> ScoreToolCache? {
        if let given = environment["MIDIVIZ_CACHE"], !given.isEmpty {
            return given.lowercased() == "off" ? nil : ScoreToolCache(folder: given)
        }
        // The XDG spec: a relative XDG_CACHE_HOME is ignored.
        if let base = environment["XDG_CACHE_HOME"], base.hasPrefix("/") { return ScoreToolCache(folder: base + "/midiviz") }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return ScoreToolCache(folder: home + "/.cache/midiviz")
    }

    /// The first line's start: the format's name and version.
    static let magic = "midiviz-score-tools-cache 1"

    /// The name of the entry `kind` made from `inputs`, each hashed with its length (so that no
    /// two lists of inputs run together into the same bytes).
    package static func key(_ kind: String, _ inputs: [[UInt8]]) -> String {
        var hasher = SHA256()
        for input in [Array(kind.utf8), Array(MIDIVizVersion.current.utf8)] + inputs {
            withUnsafeBytes(of: UInt64(input.count).littleEndian) { hasher.update(bufferPointer: $0) }
            hasher.update(data: input)
        }
        return kind + "-" + hex(hasher.finalize())
    }

    package func path(of key: String) -> String { folder + "/" + key }

    /// The parts stored under `key`, by name; nil when there is no whole entry (none, cut short,
    /// altered, unreadable, not a regular file, over 1 GB).
    package func read(_ key: String) -> [String: [UInt8]]? {
        guard let bytes = try? RegularFile.contents(of: path(of: key), limit: 1 << 30) else { return nil }
        return Self.decode(bytes, key: key)
    }

    /// Stores `parts` under `key`. Does nothing when the folder cannot be made or written.
    package func write(_ key: String, _ parts: [(name: String, bytes: [UInt8])]) {
        let bytes = Self.encode(parts, key: key)
        guard (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil else { return }
        removeStaleTemporaries()
        var descriptor: Int32 = -1
        guard
            let temporary = try? ToolRuns.shared.makePath({
                guard let made = UniquePath.file("\(folder)/.tmp-XXXXXX") else { throw CocoaError(.fileWriteUnknown) }
                descriptor = made.descriptor
                return made.path
            })
        else { return }
        defer { ToolRuns.shared.forget(temporary) }
        let file = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            try file.write(contentsOf: bytes)
            try file.close()
        } catch {
            unlink(temporary)
            return
        }
        if rename(temporary, path(of: key)) != 0 { unlink(temporary) }
    }

    /// The temporaries of writers that were killed: those older than an hour.
    private func removeStaleTemporaries() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where name.hasPrefix(".tmp-") {
            let path = folder + "/" + name
            if let made = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date, made.timeIntervalSinceNow < -3600 {
                unlink(path)
            }
        }
    }

    /// An entry's bytes: `magic` and the SHA-256 of the rest; `key KEY`; a line `NAME COUNT`
    /// a part; an empty line; the parts' bytes one after another.
    static func encode(_ parts: [(name: String, bytes: [UInt8])], key: String) -> [UInt8] {
        var body = Array("key \(key)\n".utf8)
        for part in parts { body += Array("\(part.name) \(part.bytes.count)\n".utf8) }
        body.append(10)
        for part in parts { body += part.bytes }
        return Array("\(magic) \(hex(SHA256.hash(data: body)))\n".utf8) + body
    }

    /// The parts of an entry's bytes, nil unless they are whole and the entry of `key`.
    static func decode(_ bytes: [UInt8], key: String) -> [String: [UInt8]]? {
        guard let firstEnd = bytes.firstIndex(of: 10) else { return nil }
        let body = bytes[(firstEnd + 1)...]
        guard String(decoding: bytes[..<firstEnd], as: UTF8.self) == "\(magic) \(hex(SHA256.hash(data: body)))" else { return nil }
        var index = body.startIndex
        func line() -> String? {
            guard let end = body[index...].firstIndex(of: 10) else { return nil }
            defer { index = end + 1 }
            return String(decoding: body[index..<end], as: UTF8.self)
        }
        guard line() == "key \(key)" else { return nil }
        var sizes: [(name: String, count: Int)] = []
        while true {
            guard let text = line() else { return nil }
            if text.isEmpty { break }
            let fields = text.split(separator: " ")
            guard fields.count == 2, let count = Int(fields[1]), count >= 0 else { return nil }
            sizes.append((String(fields[0]), count))
        }
        var parts: [String: [UInt8]] = [:]
        for size in sizes {
            guard body.endIndex - index >= size.count else { return nil }
            parts[size.name] = Array(body[index..<(index + size.count)])
            index += size.count
        }
        return index == body.endIndex ? parts : nil
    }

    static func hex(_ digest: SHA256.Digest) -> String {
        digest.map { String(format: "%02x", $0) }.joined()
    }
}
