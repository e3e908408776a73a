import Foundation
import Testing

/// The option model through the binary: the command line's groups are generated from the
/// declarations, and what `--print-config` writes renders the same frame when read back.
@Suite(.timeLimit(.minutes(30)))
struct ConfigCommandTests {
    static let arpeggio = TestEnvironment.path(of: "fixtures/c-major-arpeggio.mid")

    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("midiviz-config-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// `Sources/MIDIVizCLI/OptionArguments+Generated.swift` is what the generator prints from
    /// the declarations now (else run `scripts/generate-options`).
    @Test func theGeneratedOptionGroupsAreCurrent() throws {
        let generator = TestEnvironment.binary.deletingLastPathComponent().appendingPathComponent("midiviz-generate-options")
        let printed = try ProcessRunner.run(generator, [])
        #expect(printed.status == 0)
        let file = TestEnvironment.packageRoot.appendingPathComponent("Sources/MIDIVizCLI/OptionArguments+Generated.swift")
        let committed = try String(contentsOf: file, encoding: .utf8)
        #expect(printed.stdoutText == committed, "stale: run scripts/generate-options")
    }

    /// A title with a line break, quotes and a backslash, a relative background picture and
    /// several options: printed by one command, read back by another from another folder,
    /// the same PNG.
    @Test func aPrintedConfigRendersTheSameFrame() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/work", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/elsewhere", withIntermediateDirectories: true)
        // A 2x2 PNG, as a background picture named relative to the working folder.
        let picture = try ProcessRunner.midiviz(["frame", Self.arpeggio, "--at", "1", "--size", "64x36", "--style", "bars", "-o", dir + "/work/sky.png"])
        #expect(picture.status == 0, "\(picture.stderr)")
        let options = [
            "--style", "keyboard", "--size", "160x90", "--title", "Line one\n\"two\" \\ three", "--background-image", "sky.png",
            "--background-dim", "0.6", "--track-color", "0=#FF8800", "--labels", "--chords", "--speed", "1.5",
        ]
        let direct = try ProcessRunner.midiviz(
            ["frame", Self.arpeggio, "--at", "1.2", "-o", dir + "/direct.png"] + options,
            currentDirectory: URL(fileURLWithPath: dir + "/work"))
        #expect(direct.status == 0, "\(direct.stderr)")
        let printed = try ProcessRunner.midiviz(
            ["render", Self.arpeggio, "--print-config"] + options,
            currentDirectory: URL(fileURLWithPath: dir + "/work"))
        #expect(printed.status == 0, "\(printed.stderr)")
        try printed.stdout.write(to: URL(fileURLWithPath: dir + "/saved.toml"))
        let again = try ProcessRunner.midiviz(
            ["frame", Self.arpeggio, "--at", "1.2", "--config", dir + "/saved.toml", "-o", dir + "/again.png"],
            currentDirectory: URL(fileURLWithPath: dir + "/elsewhere"))
        #expect(again.status == 0, "\(again.stderr)")
        let first = try Data(contentsOf: URL(fileURLWithPath: dir + "/direct.png"))
        let second = try Data(contentsOf: URL(fileURLWithPath: dir + "/again.png"))
        #expect(first.count > 100 && first == second)
        // Without the config the frame differs: the comparison can fail.
        let plain = try ProcessRunner.midiviz(["frame", Self.arpeggio, "--at", "1.2", "--size", "160x90", "-o", dir + "/plain.png"])
        let plainBytes = try Data(contentsOf: URL(fileURLWithPath: dir + "/plain.png"))
        #expect(plain.status == 0 && plainBytes != first)
    }

    /// A bad value in a config file given to `frame` names the file and line (exit 64); an
    /// unreadable one exits 66.
    @Test func frameReadsConfigFilesAsRenderDoes() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "style = \"roll\"\nspeed = 9\n".write(toFile: dir + "/bad.toml", atomically: true, encoding: .utf8)
        let bad = try ProcessRunner.midiviz(["frame", Self.arpeggio, "--at", "1", "--config", dir + "/bad.toml", "-o", dir + "/x.png"])
        #expect(bad.status == 64 && bad.stderr.contains("bad.toml:2: speed") && bad.stderr.contains("between 0.5 and 2"), "\(bad.stderr)")
        #expect(!bad.stderr.contains("--speed"), "a config file names its keys, not flags: \(bad.stderr)")
        let missing = try ProcessRunner.midiviz(["frame", Self.arpeggio, "--at", "1", "--config", dir + "/none.toml", "-o", dir + "/x.png"])
        #expect(missing.status == 66, "\(missing.stderr)")
        #expect(EndToEndFolder.contents(dir) == ["bad.toml"])
    }

    /// The command line wins over a config file: a flag the file turns on is turned off by
    /// `--no-` (`--with-` for a `no-` flag), and an option of the file that contradicts one
    /// given on the command line is dropped (both on the command line are still refused).
    @Test func theCommandLineWinsOverAConfigFile() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let picture = try ProcessRunner.midiviz(["frame", Self.arpeggio, "--at", "1", "--size", "64x36", "-o", dir + "/sky.png"])
        #expect(picture.status == 0, "\(picture.stderr)")
        try "chords = true\nno-reverb = true\nbackground-image = \"sky.png\"\n".write(toFile: dir + "/look.toml", atomically: true, encoding: .utf8)
        func printed(_ arguments: [String]) throws -> (status: Int32, text: String, stderr: String) {
            let run = try ProcessRunner.midiviz(["render", Self.arpeggio, "--config", dir + "/look.toml", "--print-config"] + arguments)
            return (run.status, run.stdoutText, run.stderr)
        }
        let file = try printed([])
        #expect(file.status == 0 && file.text.contains("chords = true\n") && file.text.contains("no-reverb = true\n"), "\(file)")
        #expect(file.text.contains("background-image = "))
        let over = try printed(["--no-chords", "--with-reverb", "--background", "transparent"])
        #expect(over.status == 0, "\(over.stderr)")
        #expect(over.text.contains("chords = false\n") && over.text.contains("no-reverb = false\n"), "\(over.text)")
        #expect(over.text.contains("background = \"transparent\"") && !over.text.contains("background-image"), "\(over.text)")
        let both = try ProcessRunner.midiviz(
            ["render", Self.arpeggio, "--background-image", dir + "/sky.png", "--background", "transparent", "--print-config"])
        #expect(both.status == 64 && both.stderr.contains("contradict"), "\(both.stderr)")
        let flags = try printed(["--no-reverb", "--with-reverb"])
        #expect(flags.status == 64 && flags.stderr.contains("--no-reverb and --with-reverb contradict each other"), "\(flags.stderr)")
        // A transparent render over the file's picture: the file's picture is dropped, the frame
        // is transparent.
        let frame = try ProcessRunner.midiviz(
            ["frame", Self.arpeggio, "--at", "1", "--size", "64x36", "--config", dir + "/look.toml", "--background", "transparent", "-o", dir + "/t.png"])
        #expect(frame.status == 0, "\(frame.stderr)")
        let rgba = try ProcessRunner.run(
            URL(fileURLWithPath: VideoTools.ffmpeg!), ["-v", "error", "-i", dir + "/t.png", "-f", "rawvideo", "-pix_fmt", "rgba", "-"])
        #expect(rgba.status == 0 && rgba.stdout.count == 64 * 36 * 4)
        #expect(rgba.stdout.count > 3 && rgba.stdout[3] == 0, "the corner is transparent, not the file's picture")
        // A picture covers the frame, so a colour beside it would never show: given together
        // they are refused; a file's colour under the command line's picture is dropped.
        let coloured = try ProcessRunner.midiviz(
            ["frame", Self.arpeggio, "--at", "1", "--background", "#FF0000", "--background-image", dir + "/sky.png", "-o", dir + "/c.png"])
        #expect(coloured.status == 64 && coloured.stderr.contains("--background-image and --background #FF0000 contradict each other"), "\(coloured.stderr)")
        try "background = \"#FF0000\"\n".write(toFile: dir + "/red.toml", atomically: true, encoding: .utf8)
        var posters: [Data] = []
        for extra in [["--config", dir + "/red.toml"], []] {
            let poster = try ProcessRunner.midiviz(
                ["frame", Self.arpeggio, "--at", "1", "--size", "64x36", "--background-image", dir + "/sky.png", "-o", dir + "/p.png"] + extra)
            #expect(poster.status == 0, "\(poster.stderr)")
            posters.append(try Data(contentsOf: URL(fileURLWithPath: dir + "/p.png")))
        }
        #expect(posters[0] == posters[1], "the file's colour is dropped under the command line's picture")
    }

    /// A file's value refused only beside the others (an odd size for a video, two options that
    /// contradict each other) names the file and line, as any bad value of a file does; given on
    /// the command line, the flag.
    @Test func aFilesValueRefusedWithTheOthersNamesTheFile() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "style = \"bars\"\nsize = \"321x180\"\n".write(toFile: dir + "/odd.toml", atomically: true, encoding: .utf8)
        try "background-image = \"sky.png\"\nbackground = \"transparent\"\n".write(toFile: dir + "/both.toml", atomically: true, encoding: .utf8)
        let odd = try ProcessRunner.midiviz(["render", Self.arpeggio, "--config", dir + "/odd.toml", "-o", dir + "/v.mp4"])
        #expect(odd.status == 64 && odd.stderr.contains("odd.toml:2: size must be even"), "\(odd.stderr)")
        let flag = try ProcessRunner.midiviz(["render", Self.arpeggio, "--config", dir + "/odd.toml", "--size", "321x180", "-o", dir + "/v.mp4"])
        #expect(flag.status == 64 && flag.stderr.hasPrefix("midiviz: --size must be even"), "\(flag.stderr)")
        let both = try ProcessRunner.midiviz(["render", Self.arpeggio, "--config", dir + "/both.toml", "--print-config"])
        #expect(both.status == 64 && both.stderr.contains("both.toml:1: background-image and background transparent contradict"), "\(both.stderr)")
        // A poster may be odd: the file's size is taken.
        let poster = try ProcessRunner.midiviz(["frame", Self.arpeggio, "--config", dir + "/odd.toml", "--at", "1", "-o", dir + "/p.png"])
        #expect(poster.status == 0, "\(poster.stderr)")
        #expect(EndToEndFolder.contents(dir).sorted() == ["both.toml", "odd.toml", "p.png"])
    }
}
