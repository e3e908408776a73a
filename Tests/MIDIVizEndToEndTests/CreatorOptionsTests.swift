import Foundation
import MIDIVizCore
import MIDIVizIO
import Testing

/// The options creators coming from MIDIVisualizer and Neothesia look for (`--keys LOW-HIGH`,
/// `--split`, `--velocity`, `--direction`), through the real binary: read from the pixels.
@Suite(.timeLimit(.minutes(30))) struct CreatorOptionsTests {
    static let arpeggio = TestEnvironment.packageRoot.appendingPathComponent("fixtures/c-major-arpeggio.mid").path
    static let groove = TestEnvironment.packageRoot.appendingPathComponent("fixtures/demo-groove.mid").path

    /// A frame of `song` at 480x270 (1 s in unless `--at` is given), and what the command said.
    func frame(_ arguments: [String], song: String = arpeggio) throws -> (canvas: Canvas, stderr: String) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("midiviz-creator-\(getpid())-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let at = arguments.contains("--at") ? [] : ["--at", "1"]
        let size = arguments.contains("--size") ? [] : ["--size", "480x270"]
        let result = try ProcessRunner.midiviz(["frame", song, "-o", path] + size + at + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        return (try PNGReader.read(path), result.stderr)
    }

    /// Runs of pixels along row `y` for which `isIn` holds, at least `widest` wide.
    func runs(in canvas: Canvas, y: Int, atLeast widest: Int, _ isIn: (RGBA) -> Bool) -> Int {
        var count = 0, run = 0
        for x in 0..<canvas.width {
            if isIn(canvas.color(x: x, y: y)) {
                run += 1
            } else {
                if run >= widest { count += 1 }
                run = 0
            }
        }
        return run >= widest ? count + 1 : count
    }

    @Test func keysFromTwoNotesDrawThoseKeys() throws {
        // C2-C7: 36 white keys and 25 black ones; the arpeggio (F3-E5) lies inside.
        let (canvas, stderr) = try frame(["--style", "keyboard", "--keys", "C2-C7", "--at", "8.5"])
        #expect(!stderr.contains("warning"), "\(stderr)")
        // Low on the white keys (below the black ones): bright runs between the gaps.
        #expect(runs(in: canvas, y: 266, atLeast: 3) { $0.luma > 0.6 } == 36)
        // High on the keys: the black keys are dark runs wider than the gaps between white keys.
        let keyboardTop = 270 - min(54, Int((Float(480) / 36 * 6.4).rounded())) + 4
        #expect(runs(in: canvas, y: keyboardTop + 2, atLeast: 4) { $0.luma < 0.3 } == 25)
        // A black key at an end widens the range to the white key beside it: C#3-F#4 is C3-G4.
        let (widened, _) = try frame(["--style", "keyboard", "--keys", "C#3-F#4", "--at", "8.5"])
        #expect(runs(in: widened, y: 266, atLeast: 3) { $0.luma > 0.6 } == 12)
    }

    @Test func notesOutsideTheKeysAreCountedInOneWarning() throws {
        // The arpeggio's 32 notes span F3-E5: 11 of them lie outside C4-B4.
        let (_, stderr) = try frame(["--style", "roll", "--keys", "C4-B4"])
        let lines = stderr.split(separator: "\n").filter { $0.contains("warning") }
        #expect(lines == ["midiviz: warning: --keys C4-B4: 11 notes outside the keys, not drawn"], "\(stderr)")
    }

    @Test(arguments: [
        (["--keys", "C7-C2"], "--keys must be two keys from low to high"),
        (["--keys", "H9-C2"], "--keys: \"H9-C2\" is not 88, song or two keys"),
        (["--keys", "C2"], "--keys: \"C2\" is not"),
        (["--split", "H9"], "--split: \"H9\" is not a key such as C4, or auto"),
        (["--direction", "sideways"], "--direction: \"sideways\" is not one of up, down, left, right"),
    ])
    func badValuesAreUsageErrors(arguments: [String], message: String) throws {
        let result = try ProcessRunner.midiviz(["frame", Self.arpeggio, "-o", "/nonexistent/never.png", "--at", "1"] + arguments)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func theLeftHandsColourLiesOnlyBelowTheSplit() throws {
        // 88 keys across 480 pixels: C4's left edge is 23 white keys from A0's.
        let c4 = Float(PianoKeys.whiteKeyIndex(60) - PianoKeys.whiteKeyIndex(21)) * Float(480) / 52
        // Rainbow's hands: blue (left) and orange (right).
        func isBlue(_ c: RGBA) -> Bool { c.b > 0.35 && c.b > c.r + 0.25 && c.b > c.g + 0.1 }
        func isOrange(_ c: RGBA) -> Bool { c.r > 0.35 && c.r > c.b + 0.25 && c.g > c.b + 0.05 }
        for at in ["3.1", "6", "10.95"] {
            let (canvas, _) = try frame(["--style", "keyboard", "--split", "C4", "--at", at], song: Self.groove)
            // The falling notes, above the keys and their glow (the keys start at y = 216).
            var blueLeft = 0, blueRight = 0, orangeRight = 0
            for y in 0..<195 {
                for x in 0..<canvas.width {
                    let color = canvas.color(x: x, y: y)
                    if isBlue(color) { if Float(x) < c4 { blueLeft += 1 } else { blueRight += 1 } }
                    if isOrange(color) && Float(x) >= c4 { orangeRight += 1 }
                }
            }
            #expect(blueRight == 0 && blueLeft > 100 && orangeRight > 100, "at \(at) s: \(blueLeft) \(blueRight) \(orangeRight)")
        }
        // Without --split the same frame has blue right of C4 (rainbow colours by pitch class).
        let (plain, _) = try frame(["--style", "keyboard", "--at", "6"], song: Self.groove)
        let blueRight = (0..<195).flatMap { y in (Int(c4.rounded(.up))..<480).map { plain.color(x: $0, y: y) } }.filter(isBlue).count
        #expect(blueRight > 0)
    }
}
