import Foundation
import Testing

/// `--track-color`, `--channel-color`, `--hide-track`, `--hide-channel`, `--only-track` and
/// `--mute-hidden` through the binary.
@Suite(
    .enabled(if: AudioTools.soundFont != nil, "no SoundFont: apt-get install timgm6mb-soundfont (scripts/setup does)"),
    .timeLimit(.minutes(30)))
struct TrackOptionsTests {
    static let groove = TestEnvironment.packageRoot.appendingPathComponent("fixtures/demo-groove.mid").path

    func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("midiviz-tracks-\(getpid())-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test(arguments: [
        (["--hide-track", "9"], "5 tracks"), (["--only-track=-1"], "from 0"), (["--channel-color", "17=#FFFFFF"], "1 to 16"),
        (["--track-color", "2=orange"], "--track-color"), (["--hide-channel", "0"], "1 to 16"),
    ])
    func aTrackOrChannelThatIsNotThereIsAUsageError(arguments: [String], cause: String) throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = try ProcessRunner.midiviz(["render", Self.groove, "-o", dir + "/x.mp4"] + arguments)
        #expect(result.status == 64 && result.stderr.contains(cause), "\(result.stderr)")
        #expect(EndToEndFolder.contents(dir).isEmpty)
    }

    /// The drums alone and everything but the drums, each with the rest muted, add up to the
    /// whole song's sound: what is hidden is silent, and nothing else is.
    @Test func mutedHiddenTracksAreSilentAndOnlyThey() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        func bounce(_ name: String, _ extra: [String]) throws -> [Float] {
            let result = try ProcessRunner.midiviz(
                [
                    "render", Self.groove, "--no-video", "--audio", dir + "/\(name).wav", "--to", "8",
                    "--soundfont", AudioTools.soundFont!, "--loudness", "off", "--quiet",
                ] + extra)
            #expect(result.status == 0, "\(result.stderr)")
            return try WAVFile(path: dir + "/\(name).wav").samples[0]
        }
        let whole = try bounce("whole", [])
        let drums = try bounce("drums", ["--only-track", "4", "--mute-hidden"])
        let rest = try bounce("rest", ["--hide-track", "4", "--mute-hidden"])
        let unmuted = try bounce("unmuted", ["--hide-track", "4"])
        func rms(_ samples: [Float]) -> Double { (samples.reduce(0.0) { $0 + Double($1 * $1) } / Double(max(1, samples.count))).squareRoot() }
        let count = min(whole.count, drums.count, rest.count)
        let residue = (0..<count).map { whole[$0] - drums[$0] - rest[$0] }
        #expect(rms(drums) > 0.01 && rms(rest) > 0.01, "both parts sound")
        #expect(rms(residue) < 0.02 * rms(whole), "residue \(rms(residue)) of \(rms(whole))")
        #expect(unmuted == whole, "hidden without --mute-hidden: still heard, the same bytes")
    }
}
