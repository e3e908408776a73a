import Foundation
import Testing

/// `--labels`, `--lyrics`, `--effects` and the lyrics `info` lists, through the binary.
@Suite(.timeLimit(.minutes(30))) struct MusicFeatureOptionsTests {
    static let root = TestEnvironment.packageRoot
    static let kar = root.appendingPathComponent("Tests/Corpus/jazz-soft/test-karaoke-kar.mid").path
    static let latin1 = root.appendingPathComponent("fixtures/karaoke-latin1.kar").path
    static let utf8 = root.appendingPathComponent("fixtures/lyrics-utf8.mid").path

    func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("midiviz-music-\(getpid())-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    func lyricsJSON(_ path: String) throws -> (lyrics: [[Any]], encoding: String?) {
        let result = try ProcessRunner.midiviz(["info", "--json", path])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        return (try #require(object["lyrics"] as? [[Any]]), object["lyrics_encoding"] as? String)
    }

    @Test func infoListsTheLyricsAsTimeAndText() throws {
        let kar = try lyricsJSON(Self.kar)
        #expect(kar.lyrics.count == 26 && kar.encoding == "ASCII")
        #expect(kar.lyrics.first?[1] as? String == "\\Ma" && (kar.lyrics.first?[0] as? Double) == 0)
        // "/Lit" at tick 400: 400 / 150 s.
        let lit = try #require(kar.lyrics.first { $0[1] as? String == "/Lit" })
        #expect(abs((lit[0] as? Double ?? 0) - 400.0 / 150) < 1e-4)
        let latin1 = try lyricsJSON(Self.latin1)
        #expect(latin1.encoding == "Latin-1" && latin1.lyrics.first?[1] as? String == "\\Frè")
        let utf8 = try lyricsJSON(Self.utf8)
        #expect(utf8.encoding == "UTF-8" && utf8.lyrics.contains { $0[1] as? String == "wstań, " })
        let plain = try lyricsJSON(root.appendingPathComponent("fixtures/demo-groove.mid").path)
        #expect(plain.lyrics.isEmpty && plain.encoding == nil)
        // The readable summary shows the first lines.
        let text = try ProcessRunner.midiviz(["info", Self.latin1])
        #expect(
            text.stdoutText.contains("lyrics: 4 lines, 32 syllables (.kar text in track 1, Latin-1)")
                && text.stdoutText.contains("Frère Jacques, frère Jacques,"))
    }

    var root: URL { Self.root }

    func frame(_ song: String, _ options: [String], in dir: String, _ name: String) throws -> Data {
        let path = dir + "/\(name).png"
        let result = try ProcessRunner.midiviz(["frame", song, "--at", "5.2", "--size", "640x360", "-o", path] + options)
        #expect(result.status == 0, "\(options): \(result.stderr)")
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// A bare `--labels` means names, wherever it stands; solfège and the other options each
    /// change the picture; a config file gives the same bytes as the flags.
    @Test func optionsAsAUserTypesThem() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let base = ["--style", "keyboard", "--keys", "song"]
        let plain = try frame(Self.latin1, base, in: dir, "plain")
        let names = try frame(Self.latin1, base + ["--labels", "names"], in: dir, "names")
        #expect(try frame(Self.latin1, base + ["--labels"], in: dir, "bare-last") == names)
        let result = try ProcessRunner.midiviz(["frame", "--labels", Self.latin1, "--at", "5.2", "--size", "640x360", "-o", dir + "/bare-first.png"] + base)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/bare-first.png")) == names)
        let solfege = try frame(Self.latin1, base + ["--labels", "solfege"], in: dir, "solfege")
        let lyrics = try frame(Self.latin1, base + ["--lyrics"], in: dir, "lyrics")
        let effects = try frame(Self.latin1, base + ["--effects"], in: dir, "effects")
        #expect(Set([plain, names, solfege, lyrics, effects]).count == 5)
        #expect(try frame(Self.latin1, base + ["--labels", "off"], in: dir, "off") == plain)

        let bad = try ProcessRunner.midiviz(["frame", Self.latin1, "--at", "1", "--labels", "roman", "-o", dir + "/bad.png"])
        #expect(bad.status == 64 && bad.stderr.contains("labels"), "\(bad.stderr)")

        let config = dir + "/look.toml"
        try "style = \"keyboard\"\nkeys = \"song\"\nlabels = \"solfege\"\nlyrics = true\neffects = true\n".write(
            toFile: config, atomically: true, encoding: .utf8)
        let render = { (options: [String], name: String) throws -> Data in
            let result = try ProcessRunner.midiviz(
                [
                    "render", Self.latin1, "--no-video", "--no-audio", "--frames-dir", dir + "/\(name)",
                    "--from", "5", "--to", "5.5", "--fps", "10", "--size", "320x180", "--quiet",
                ] + options)
            #expect(result.status == 0, "\(result.stderr)")
            return try Data(contentsOf: URL(fileURLWithPath: dir + "/\(name)/frame_000002.png"))
        }
        #expect(try render(["--config", config], "config") == render(base + ["--labels", "solfege", "--lyrics", "--effects"], "flags"))
        // `labels = true` is a bare `--labels`, `labels = false` none.
        try "style = \"keyboard\"\nkeys = \"song\"\nlabels = true\n".write(toFile: config, atomically: true, encoding: .utf8)
        #expect(try render(["--config", config], "config-true") == render(base + ["--labels"], "flags-bare"))
        try "style = \"keyboard\"\nkeys = \"song\"\nlabels = false\n".write(toFile: config, atomically: true, encoding: .utf8)
        #expect(try render(["--config", config], "config-false") == render(base, "flags-none"))
    }

    /// What a hostile pass found: a negative mm:ss time read as positive, and an empty string in
    /// a config file taking the next argument as its value.
    @Test func negativeClockTimesAndEmptyConfigValuesAreReadRight() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for time in ["--at=-0:01", "--at=+0:01", "--at=:01"] {
            let result = try ProcessRunner.midiviz(["frame", Self.latin1, time, "-o", dir + "/x.png"])
            #expect(result.status == 64 && result.stderr.contains("--at"), "\(time): \(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir + "/x.png"))
        let config = dir + "/untitled.toml"
        try "title = \"\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let printed = try ProcessRunner.midiviz(["render", "--config", config, Self.latin1, "--print-config"])
        #expect(printed.status == 0 && printed.stdoutText.contains("title = \"\""), "\(printed.stderr) \(printed.stdoutText)")
    }
}
