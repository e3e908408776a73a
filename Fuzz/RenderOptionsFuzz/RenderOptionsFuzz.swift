import ArgumentParser
import CFuzzerDriver
import Foundation
import MIDIVizCLI
import MIDIVizEngine

/// libFuzzer entry: argument vectors for `midiviz render` (and `frame`), run in-process in a
/// sandbox folder. Each input byte picks a word: an option of either command, a value from a
/// list of awkward ones (extreme numbers, bad times and sizes, paths to the input, a folder, a
/// FIFO, a device, a missing folder), or a string spelled by the next bytes. Besides crashes and
/// hangs, every run is checked to have lost nothing and left nothing: the inputs' bytes, the
/// FIFO and the folder are intact, and no temporary is left in the sandbox.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let arguments = Sandbox.shared.arguments(from: bytes)
    if var command = try? MIDIVizCommand.parseAsRoot(arguments) {
        try? command.run()
    }
    Sandbox.shared.checkAndReset(after: arguments)
    return 0
}

final class Sandbox: @unchecked Sendable {
    static let shared = Sandbox()

    let root: String
    let song: String
    let songBytes: Data
    let folder: String
    let fifo: String

    /// The commands' own flags, and every render option from its declaration (no hand list).
    static let options =
        [
            "-o", "--output", "--no-video", "--frames-dir", "--png-level", "--progress", "--quiet", "--audio", "--at", "--help",
            "--version", "--print-config", "--config",
        ] + RenderOptions.declarations.map { "--" + $0.name }
    static let values =
        [
            "0", "1", "-1", "0.5", "2", "7", "51", "52", "64", "1000", "65536", "1e19", "-1e19", "1e-300", "nan", "inf",
            "-inf", "9223372036854775807", "", " ", "0:00.5", "0:01", "1:00:00", "99:99", "bar:1", "bar:2", "bar:0",
            "bar:-1", "bar:99999999999", "720p", "1080p", "4k", "square", "vertical", "16x16", "2x2", "1x1", "0x0",
            "17x9", "99999x99999", "64x36", "circles", "bars", "roll", "keyboard", "rainbow", "fire", "ocean", "pitch",
            "channel", "track", "range", "pitch-class", "88", "song", "#102030", "#zzzzzz", "red", "ultrafast",
            "veryslow", "json", "bar", "8000", "48000", "384000", "\u{1F3B9}", "title\nwith newline", "transparent", "off",
            "-14", "-70", "-71", "out.mov", "out.webm", "out.gif", "out.avi", "x.MOV", "names", "solfege",
        ] + RenderOptions.declarations.flatMap { $0.choices + [$0.example] }

    init() {
        var template = Array("/tmp/midiviz-fuzz-options-XXXXXX".utf8CString)
        root = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        song = root + "/song.mid"
        folder = root + "/folder"
        fifo = root + "/fifo"
        songBytes = FileManager.default.contents(atPath: "fixtures/c-major-arpeggio.mid")!
        _ = FileManager.default.createFile(atPath: song, contents: songBytes)
        precondition((try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)) != nil)
        _ = FileManager.default.createFile(atPath: folder + "/keep.txt", contents: Data("keep".utf8))
        precondition(mkfifo(fifo, 0o600) == 0)
        setenv("TMPDIR", root + "/tmp", 1)
        precondition(chdir(root) == 0)  // relative outputs land in the sandbox too
        precondition((try? FileManager.default.createDirectory(atPath: root + "/tmp", withIntermediateDirectories: false)) != nil)
        // A small SoundFont unless the input names another: the synthesizer is not what is fuzzed.
        setenv("MIDIVIZ_SOUNDFONT", "/usr/share/sounds/sf2/TimGM6mb.sf2", 1)
    }

    /// The paths a value may name: the input (also relative), outputs old and new, a folder, a
    /// FIFO, a file in a missing folder. No device: a bug would replace the machine's own.
    var paths: [String] {
        [
            song, root + "/out.mp4", root + "/out.wav", root + "/frames", folder, fifo, root + "/missing/deeper/out.mp4",
            root + "/song.mid.mp4", root + "/out.png", root, "relative.mp4", "song.mid", "folder/",
        ]
    }

    func arguments(from bytes: [UInt8]) -> [String] {
        var arguments = [bytes.first.map { $0 & 7 == 0 } == true ? "frame" : "render"]
        arguments.append(bytes.count > 1 && bytes[1] & 15 == 0 ? folder : song)
        // Small and short unless the input says otherwise (a later option wins).
        arguments += ["--size", "32x18", "--fps", "10", "--quiet", "-o", root + "/out." + (arguments[0] == "frame" ? "png" : "mp4")]
        var position = 2
        while position < bytes.count, arguments.count < 40 {
            let byte = bytes[position]
            position += 1
            switch byte % 4 {
            case 0, 1: arguments.append(Self.options[Int(byte / 4) % Self.options.count])
            case 2: arguments.append(Int(byte / 4) % 3 == 0 ? paths[Int(byte / 12) % paths.count] : Self.values[Int(byte / 4) % Self.values.count])
            default:
                let length = min(Int(byte / 4) % 12, bytes.count - position)
                arguments.append(String(decoding: bytes[position..<position + length], as: UTF8.self))
                position += length
            }
        }
        return arguments
    }

    /// Nothing lost, nothing left: then the sandbox goes back to how it started.
    func checkAndReset(after arguments: [String]) {
        let files = FileManager.default
        precondition(files.contents(atPath: song) == songBytes, "the input changed: \(arguments)")
        var info = stat()
        precondition(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "the FIFO was replaced: \(arguments)")
        precondition(
            files.contents(atPath: folder + "/keep.txt") != nil || arguments.contains(folder),
            "a folder no option named lost its files: \(arguments)")
        var isFolder: ObjCBool = false
        precondition(files.fileExists(atPath: folder, isDirectory: &isFolder) && isFolder.boolValue, "the folder was replaced: \(arguments)")
        for name in (try? files.subpathsOfDirectory(atPath: root)) ?? [] {
            precondition(!name.contains(".midiviz-") && !name.hasSuffix(".partial"), "a temporary was left: \(name) after \(arguments)")
        }
        precondition(((try? files.contentsOfDirectory(atPath: root + "/tmp")) ?? []).isEmpty, "a file was left in TMPDIR: \(arguments)")
        var status: Int32 = 0
        precondition(waitpid(-1, &status, WNOHANG) <= 0, "a child process was left unreaped: \(arguments)")
        for name in (try? files.contentsOfDirectory(atPath: root)) ?? [] where !["song.mid", "folder", "fifo", "tmp"].contains(name) {
            try? files.removeItem(atPath: root + "/" + name)
        }
        if files.contents(atPath: folder + "/keep.txt") == nil {
            try? files.removeItem(atPath: folder)
            try? files.createDirectory(atPath: folder, withIntermediateDirectories: false)
            _ = files.createFile(atPath: folder + "/keep.txt", contents: Data("keep".utf8))
        }
    }
}

/// SwiftPM links an executable's entry under the name `<module>_main`; hand control to libFuzzer.
@_cdecl("RenderOptionsFuzz_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { fuzzOneInput($0, $1) }
}
