import Foundation
import Synchronization
import Testing

@testable import MIDIVizIO

/// The score tools' cache on its own (no tools): entries read back whole or not at all, writers
/// at once never make a torn entry, a folder that cannot be written is only no cache.
@Suite(.timeLimit(.minutes(30)))
struct ScoreToolCacheTests {
    func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("midiviz-cache-test-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    func names(_ folder: String) -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted() }

    @Test func anEntryReadsBackAndItsKeyFollowsEveryInput() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let cache = ScoreToolCache(folder: root + "/cache")
        let key = ScoreToolCache.key("verovio", [Array("tool 1".utf8), [1, 2, 3]])
        #expect(cache.read(key) == nil)
        let svg = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        cache.write(key, [("layout", Array("{}".utf8)), ("svg", svg), ("empty", [])])
        #expect(cache.read(key) == ["layout": Array("{}".utf8), "svg": svg, "empty": []])
        #expect(names(root + "/cache") == [key], "one file, no temporary left")
        // Another tool, other bytes, another kind, or the same bytes split otherwise: another key.
        let others = [
            ScoreToolCache.key("verovio", [Array("tool 2".utf8), [1, 2, 3]]), ScoreToolCache.key("verovio", [Array("tool 1".utf8), [1, 2, 4]]),
            ScoreToolCache.key("notation", [Array("tool 1".utf8), [1, 2, 3]]), ScoreToolCache.key("verovio", [Array("tool 1".utf8) + [1], [2, 3]]),
        ]
        #expect(Set(others + [key]).count == 5)
        for other in others { #expect(cache.read(other) == nil) }
    }

    /// Every entry cut short, every byte changed, and an entry renamed to another key: a miss.
    @Test func anEntryCutShortOrAlteredIsAMiss() throws {
        let key = ScoreToolCache.key("score", [[7]])
        let bytes = ScoreToolCache.encode([("mid", Array(repeating: 0x4d, count: 40)), ("musicxml", Array("<score/>".utf8))], key: key)
        #expect(ScoreToolCache.decode(bytes, key: key)?["musicxml"] == Array("<score/>".utf8))
        for length in 0..<bytes.count { #expect(ScoreToolCache.decode(Array(bytes[..<length]), key: key) == nil, "cut at \(length)") }
        for index in bytes.indices {
            var altered = bytes
            altered[index] ^= 0x20
            #expect(ScoreToolCache.decode(altered, key: key) == nil, "byte \(index) changed")
        }
        #expect(ScoreToolCache.decode(bytes + [0], key: key) == nil, "a byte more")
        #expect(ScoreToolCache.decode(bytes, key: ScoreToolCache.key("score", [[8]])) == nil, "another key's entry")
        // On disk: a truncated file is a miss, and writing the entry again makes it whole.
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let cache = ScoreToolCache(folder: root)
        FileManager.default.createFile(atPath: cache.path(of: key), contents: Data(bytes[..<(bytes.count / 2)]))
        #expect(cache.read(key) == nil)
        cache.write(key, [("mid", Array(repeating: 0x4d, count: 40)), ("musicxml", Array("<score/>".utf8))])
        #expect(cache.read(key)?["mid"]?.count == 40)
        // A FIFO in an entry's place is a miss at once (not a read that waits for a writer).
        let other = ScoreToolCache.key("score", [[9]])
        #expect(mkfifo(cache.path(of: other), 0o600) == 0)
        #expect(cache.read(other) == nil)
    }

    /// Eight writers give one key different parts while eight readers read it: a reader sees
    /// nothing or one writer's parts whole; no temporary is left.
    @Test func writersAtOnceNeverTearAnEntry() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let cache = ScoreToolCache(folder: root)
        let key = ScoreToolCache.key("verovio", [[1]])
        let torn = Mutex(0)
        let seen = Mutex(Set<UInt8>())
        DispatchQueue.concurrentPerform(iterations: 16) { worker in
            for round in 0..<20 {
                if worker < 8 {
                    let mark = UInt8(worker * 20 + round)
                    cache.write(key, [("svg", Array(repeating: mark, count: 200_000 + Int(mark))), ("layout", [mark])])
                } else if let parts = cache.read(key) {
                    let mark = parts["layout"]?.first ?? 255
                    let svg = parts["svg"] ?? []
                    let whole = parts["layout"] == [mark] && svg.count == 200_000 + Int(mark) && svg.allSatisfy { $0 == mark }
                    if whole { seen.withLock { _ = $0.insert(mark) } } else { torn.withLock { $0 += 1 } }
                }
            }
        }
        #expect(torn.withLock { $0 } == 0)
        #expect(cache.read(key) != nil)
        #expect(names(root) == [key], "no temporary left")
        #expect(!seen.withLock { $0 }.isEmpty, "the readers read entries")
    }

    /// A cache folder that cannot be made (its parent is a file): nothing is stored, nothing fails.
    @Test func aFolderThatCannotBeMadeIsNoCache() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        FileManager.default.createFile(atPath: root + "/file", contents: Data("x".utf8))
        let cache = ScoreToolCache(folder: root + "/file/cache")
        let key = ScoreToolCache.key("score", [[1]])
        cache.write(key, [("mid", [1, 2])])
        #expect(cache.read(key) == nil)
        #expect(names(root) == ["file"])
    }

    @Test func theFolderComesFromTheEnvironment() {
        #expect(ScoreToolCache.fromEnvironment(["MIDIVIZ_CACHE": "/c", "XDG_CACHE_HOME": "/x", "HOME": "/h"])?.folder == "/c")
        #expect(ScoreToolCache.fromEnvironment(["MIDIVIZ_CACHE": "off", "HOME": "/h"]) == nil)
        #expect(ScoreToolCache.fromEnvironment(["XDG_CACHE_HOME": "/x", "HOME": "/h"])?.folder == "/x/midiviz")
        #expect(ScoreToolCache.fromEnvironment(["XDG_CACHE_HOME": "relative", "HOME": "/h"])?.folder == "/h/.cache/midiviz")
        #expect(ScoreToolCache.fromEnvironment([:]) == nil)
    }
}
