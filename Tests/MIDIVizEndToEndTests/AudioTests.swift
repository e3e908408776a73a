import Foundation
import Testing

/// The real SoundFont and fluidsynth command line the audio tests use.
enum AudioTools {
    static let soundFont: String? = [
        "/usr/share/sounds/sf2/TimGM6mb.sf2", "/usr/share/sounds/sf2/default-GM.sf2",
        "/usr/share/sounds/sf2/FluidR3_GM.sf2",
    ].first { FileManager.default.fileExists(atPath: $0) }
    static let fluidsynth: String? = ["/usr/bin/fluidsynth", "/usr/local/bin/fluidsynth"].first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// The WAV from `midiviz render --audio`, through the real binary and a real SoundFont.
@Suite(
    .enabled(if: AudioTools.soundFont != nil, "no SoundFont: apt-get install timgm6mb-soundfont (scripts/setup does)"),
    .timeLimit(.minutes(30)))
struct AudioTests {
    static var soundFont: String? { AudioTools.soundFont }
    static var fluidsynth: String? { AudioTools.fluidsynth }

    func temporaryFile(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("midiviz-\(getpid())-\(UUID().uuidString)-\(name)").path
    }

    func bounce(_ song: String, _ extra: [String] = []) throws -> (WAVFile, String) {
        let out = temporaryFile("song.wav")
        let result = try ProcessRunner.midiviz(["render", song, "--no-video", "--audio", out, "--soundfont", Self.soundFont!, "--quiet"] + extra)
        #expect(result.status == 0, "\(result.stderr)")
        return (try WAVFile(path: out), out)
    }

    static let groove = TestEnvironment.packageRoot.appendingPathComponent("fixtures/demo-groove.mid").path

    /// Debian's MuseScore General, uncompressed (`musescore-general-soundfont-lossless`) and as
    /// Vorbis (`musescore-general-soundfont`); `scripts/setup` installs both.
    static let museScoreGeneral = (lossless: "/usr/share/sounds/sf2/MuseScore_General_Full.sf2", vorbis: "/usr/share/sounds/sf3/MuseScore_General_Full.sf3")
    static var bothMuseScoreGenerals: Bool {
        FileManager.default.fileExists(atPath: museScoreGeneral.lossless) && FileManager.default.fileExists(atPath: museScoreGeneral.vorbis)
    }

    /// A render that names no SoundFont plays the uncompressed MuseScore General when it is
    /// installed (it loads without decoding Vorbis), and that sounds as the SF3 does: the demo
    /// groove's 10 ms envelopes correlate at 0.999 or better and each channel's level is within
    /// 1.5 dB (the uncompressed font plays about 1 dB louder; loudness normalization, on by
    /// default, brings either to its target).
    @Test(.enabled(if: bothMuseScoreGenerals, "apt-get install musescore-general-soundfont musescore-general-soundfont-lossless (scripts/setup does)"))
    func theDefaultSoundFontIsTheUncompressedMuseScoreGeneralAndSoundsAsTheSF3() throws {
        func bounce(soundFont: String?) throws -> (WAVFile, String) {
            let out = temporaryFile("groove.wav")
            let named = soundFont.map { ["--soundfont", $0] } ?? []
            let result = try ProcessRunner.midiviz(
                ["render", Self.groove, "--no-video", "--audio", out, "--loudness", "off", "--quiet"] + named,
                environment: ["MIDIVIZ_SOUNDFONT": ""])
            #expect(result.status == 0, "\(result.stderr)")
            return (try WAVFile(path: out), out)
        }
        let (_, defaultPath) = try bounce(soundFont: nil)
        let (lossless, losslessPath) = try bounce(soundFont: Self.museScoreGeneral.lossless)
        let (vorbis, vorbisPath) = try bounce(soundFont: Self.museScoreGeneral.vorbis)
        defer { for path in [defaultPath, losslessPath, vorbisPath] { unlink(path) } }
        #expect(try Data(contentsOf: URL(fileURLWithPath: defaultPath)) == Data(contentsOf: URL(fileURLWithPath: losslessPath)))
        #expect(try Data(contentsOf: URL(fileURLWithPath: losslessPath)) != Data(contentsOf: URL(fileURLWithPath: vorbisPath)))
        let window = 480, count = min(lossless.frameCount, vorbis.frameCount) / window
        for channel in 0..<2 {
            let a = lossless.envelope(channel: channel, window: window, offset: 0, count: count)
            let b = vorbis.envelope(channel: channel, window: window, offset: 0, count: count)
            let fit = correlation(a, b)
            let level = 10 * log10(a.map { $0 * $0 }.reduce(0, +) / b.map { $0 * $0 }.reduce(0, +))
            print(
                "audio MuseScore General lossless against SF3, channel \(channel): envelope correlation \(String(format: "%.5f", fit)), level \(String(format: "%+.2f", level)) dB"
            )
            #expect(fit >= 0.999 && abs(level) <= 1.5, "channel \(channel): correlation \(fit), level \(level) dB")
        }
    }

    @Test func wavHeaderLengthAndLevelsAreRight() throws {
        let (wav, path) = try bounce(Self.groove)
        defer { unlink(path) }
        #expect(wav.sampleRate == 48_000 && wav.channels == 2 && wav.bitsPerSample == 16)
        #expect(wav.riffSize == wav.fileSize - 8 && wav.dataSize == wav.fileSize - 44)
        // The song lasts 19.225 s; the tail rings out for at most the default 3 s.
        #expect(wav.seconds >= 19.225 && wav.seconds <= 19.225 + 3.001, "\(wav.seconds) s")
        #expect(wav.peak > 0.05 && wav.peak < 0.999, "audible and not clipped: peak \(wav.peak)")
        // The first beat (kick, bass, chord at 0 s) is heard in the first 20 ms.
        let start = wav.envelope(channel: 0, window: 960, offset: 0, count: 1)[0]
        #expect(start > 0.005)
        // The WAV is staged as `.NAME.midiviz-PID-XXXXXX` beside it (PID: the midiviz child's): once
        // the run is over, the output is the only entry of the folder that carries its name.
        let name = URL(fileURLWithPath: path).lastPathComponent
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains(name) } == [name])
    }

    @Test func sameInputGivesTheSameBytes() throws {
        let (_, first) = try bounce(Self.groove)
        let (_, second) = try bounce(Self.groove)
        defer { unlink(first); unlink(second) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: first)) == Data(contentsOf: URL(fileURLWithPath: second)))
    }

    @Test func sampleRate44100IsHonoured() throws {
        let (wav, path) = try bounce(
            TestEnvironment.packageRoot.appendingPathComponent("fixtures/c-major-arpeggio.mid").path,
            ["--sample-rate", "44100", "--no-reverb", "--no-chorus"])
        defer { unlink(path) }
        #expect(wav.sampleRate == 44_100 && wav.seconds >= 8.0 && wav.seconds <= 11.001)
    }

    @Test func hangingNotesAndAHeldPedalDoNotMakeTheSoundRunOn() throws {
        // A note that is never released under a sustain pedal that is never lifted; 1 s long.
        let body: [UInt8] = [0x00, 0xB0, 64, 127, 0x00, 0x90, 60, 100, 0x60, 0x90, 64, 100, 0x60, 0xFF, 0x2F, 0x00]
        var file: [UInt8] = Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0, 96] + Array("MTrk".utf8) + [0, 0, 0, UInt8(body.count)]
        file += body
        let song = temporaryFile("hanging.mid")
        try Data(file).write(to: URL(fileURLWithPath: song))
        defer { unlink(song) }
        let (wav, path) = try bounce(song, ["--max-tail", "1.5"])
        defer { unlink(path) }
        #expect(wav.seconds >= 1.0 && wav.seconds <= 2.5 + 0.001, "\(wav.seconds) s")
    }

    /// C4 held 0-0.5 s in one track and struck again at 0.5 s, until 1 s, in the other: the
    /// second note sounds, and the sound is the same sample for sample whichever track comes
    /// first (the merged stream puts the second note-on before the first note's release when its
    /// track comes first).
    @Test func aKeyStruckAgainInAnotherTrackSoundsWhicheverTrackComesFirst() throws {
        func track(_ body: [UInt8]) -> [UInt8] { Array("MTrk".utf8) + [0, 0, 0, UInt8(body.count)] + body }
        // 96 ticks a quarter at 120 bpm: 96 ticks are 0.5 s.
        let first = track([0x00, 0x90, 60, 100, 0x60, 0x80, 60, 0, 0x00, 0xFF, 0x2F, 0x00])
        let second = track([0x60, 0x90, 60, 100, 0x60, 0x80, 60, 0, 0x00, 0xFF, 0x2F, 0x00])
        var samples: [[Float]] = []
        for tracks in [first + second, second + first] {
            let song = temporaryFile("struck-again.mid")
            try Data(Array("MThd".utf8) + [0, 0, 0, 6, 0, 1, 0, 2, 0, 96] + tracks).write(to: URL(fileURLWithPath: song))
            defer { unlink(song) }
            let (wav, path) = try bounce(song, ["--loudness", "off", "--no-reverb", "--no-chorus", "--max-tail", "0.5"])
            defer { unlink(path) }
            samples.append(wav.samples[0])
        }
        let differing = zip(samples[0], samples[1]).filter { $0 != $1 }.count + abs(samples[0].count - samples[1].count)
        #expect(differing == 0, "the two orders differ in \(differing) samples")
        let rate = 48000
        func rms(_ part: ArraySlice<Float>) -> Double { (part.reduce(0.0) { $0 + Double($1 * $1) } / Double(part.count)).squareRoot() }
        let held = rms(samples[1][(rate / 10)..<(rate * 45 / 100)]), struck = rms(samples[1][(rate * 6 / 10)..<(rate * 95 / 100)])
        #expect(struck > held / 4, "the second note: RMS \(struck) against \(held) for the first")
    }

    /// A signal during a burst of 40,000 notes struck at one instant with 16,384 voices (each
    /// note-on looks through them all: about 20 s of the synthesizer's work here) is acted on
    /// at once: exit 130 within 5 s, no WAV. It once waited for the whole burst.
    @Test func aSignalDuringABurstOfNotesInterruptsAtOnce() throws {
        var body: [UInt8] = []
        for index in 0..<40_000 { body += [0x00, 0x90, UInt8(36 + index % 48), 100] }
        body += [0x60, 0xB0, 123, 0, 0x00, 0xFF, 0x2F, 0x00]
        let count = UInt32(body.count)
        let header = Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0, 96] + Array("MTrk".utf8)
        let song = temporaryFile("burst.mid"), wav = temporaryFile("burst.wav")
        try Data(header + [UInt8(count >> 24), UInt8((count >> 16) & 0xFF), UInt8((count >> 8) & 0xFF), UInt8(count & 0xFF)] + body)
            .write(to: URL(fileURLWithPath: song))
        defer { unlink(song) }
        let process = Process()
        process.executableURL = TestEnvironment.binary
        process.arguments = ["render", song, "--no-video", "--audio", wav, "--soundfont", Self.soundFont!, "--polyphony", "16384", "--quiet"]
        process.standardError = FileHandle.nullDevice
        _ = try ProcessRunner.start(process, signalsBlocked: false)
        Thread.sleep(forTimeInterval: 1.5)
        let signalled = ContinuousClock.now
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        let waited = ContinuousClock.now - signalled
        #expect(process.terminationReason == .exit && process.terminationStatus == 130)
        #expect(waited < .seconds(5), "exited \(waited) after the signal")
        #expect(!FileManager.default.fileExists(atPath: wav))
    }

    /// `--from` brings the synthesizer to the state at the start instead of playing the song up
    /// to it: an organ (program 19) holding C4 from 0 s and E4 from 10 s, and G4 struck at 21 s
    /// and released at 22 s under a sustain pedal held from 20 s, all ringing until 30 s. From
    /// 25 s to 27 s the range's sound is as loud as the full render's there, and each of the
    /// three notes is as strong in it (Goertzel power at its frequency).
    @Test func aLateStartSoundsAsTheFullRenderDoesThere() throws {
        let body: [UInt8] = [
            0x00, 0xC0, 19, 0x00, 0x90, 60, 100,
            0xCB, 0x00, 0x90, 64, 100,  // 9600 ticks: 10 s
            0xCB, 0x00, 0xB0, 64, 127,  // 20 s
            0x87, 0x40, 0x90, 67, 100,  // 960 ticks: 21 s
            0x87, 0x40, 0x80, 67, 0,  // 22 s
            0xBC, 0x00, 0x80, 60, 0,  // 7680 ticks: 30 s
            0x00, 0x80, 64, 0, 0x00, 0xB0, 64, 0, 0x00, 0xFF, 0x2F, 0x00,
        ]
        var file: [UInt8] = Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0x01, 0xE0] + Array("MTrk".utf8) + [0, 0, 0, UInt8(body.count)]
        file += body
        let song = temporaryFile("organ.mid")
        try Data(file).write(to: URL(fileURLWithPath: song))
        defer { unlink(song) }
        let (full, fullPath) = try bounce(song)
        defer { unlink(fullPath) }
        let (range, rangePath) = try bounce(song, ["--from", "25", "--to", "27"])
        defer { unlink(rangePath) }
        let rate = full.sampleRate
        #expect(range.frameCount == 2 * rate)
        let reference = Array(full.samples[0][(25 * rate)..<(27 * rate)])
        func rms(_ samples: [Float]) -> Double { (samples.reduce(0.0) { $0 + Double($1 * $1) } / Double(samples.count)).squareRoot() }
        let levels = (range: rms(range.samples[0]), full: rms(reference))
        #expect(levels.full > 0.01, "the full render sounds there: \(levels)")
        #expect(levels.range > 0.6 * levels.full && levels.range < 1.6 * levels.full, "\(levels)")
        /// Summed over 0.1-s windows: a band about 10 Hz wide, which chorus and detuning stay in.
        func power(_ samples: [Float], at frequency: Double) -> Double {
            let coefficient = 2 * cos(2 * Double.pi * frequency / Double(rate))
            return stride(from: 0, to: samples.count, by: rate / 10).reduce(0.0) { total, start in
                var previous = 0.0, beforePrevious = 0.0
                for sample in samples[start..<min(samples.count, start + rate / 10)] {
                    let current = Double(sample) + coefficient * previous - beforePrevious
                    beforePrevious = previous
                    previous = current
                }
                return total + previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
            }
        }
        for (name, frequency) in [("C4", 261.63), ("E4", 329.63), ("G4", 392.0)] {
            let strength = (range: power(range.samples[0], at: frequency), full: power(reference, at: frequency))
            #expect(strength.range > 0.4 * strength.full && strength.range < 2.5 * strength.full, "\(name): \(strength)")
        }
    }

    @Test func missingSoundFontExits66() throws {
        let out = temporaryFile("none.wav")
        let result = try ProcessRunner.midiviz(["render", Self.groove, "--no-video", "--audio", out, "--soundfont", "/nonexistent/font.sf2"])
        #expect(result.status == 66)
        #expect(result.stderr == "midiviz: cannot read SoundFont /nonexistent/font.sf2: no such file\n")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func fileThatIsNotASoundFontExits65() throws {
        let fake = temporaryFile("fake.sf2"), out = temporaryFile("fake.wav")
        try Data("RIFF1234sfbkLIST but not really".utf8).write(to: URL(fileURLWithPath: fake))
        defer { unlink(fake) }
        let result = try ProcessRunner.midiviz(["render", Self.groove, "--no-video", "--audio", out, "--soundfont", fake])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("midiviz: cannot use SoundFont \(fake): not a SoundFont"))
        #expect(result.stderr.split(separator: "\n").count == 1, "FluidSynth's own log lines stay off the terminal")
        #expect(!FileManager.default.fileExists(atPath: out))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()).filter {
            $0.contains(URL(fileURLWithPath: out).lastPathComponent)
        }
        #expect(leftovers.isEmpty)
    }

    /// Against the fluidsynth command line on the same file, SoundFont, rate and gain: after
    /// aligning by at most one 64-sample block, the 10 ms RMS envelopes of each channel
    /// correlate at 0.99 or better over the common length.
    ///
    /// One file is held to 0.93 instead, and says why: test-rpn-00-00-pitch-bend-range.mid sends a
    /// pitch-bend event every tick (5.2 ms) with bend ranges up to an octave. The fluidsynth player
    /// dispatches each event up to half a tick early (it rounds the tick it has reached), we at
    /// its exact time (to the next 64-sample block); the shifted bend curve moves the beating of
    /// the fast sweeps in the last section (25.3–26 s) and costs 10 ms envelopes about 0.05.
    @Test(
        .enabled(if: AudioTools.fluidsynth != nil, "fluidsynth command line missing: apt-get install fluidsynth (scripts/setup does)"),
        arguments: [
            ("fixtures/demo-groove.mid", 0.99), ("Tests/Corpus/jazz-soft/test-control-40-damper.mid", 0.99),
            ("fixtures/pitch-bend.mid", 0.99), ("fixtures/drum-beat.mid", 0.99),
            ("Tests/Corpus/jazz-soft/test-all-gm-percussion.mid", 0.99),
            ("Tests/Corpus/jazz-soft/test-rpn-00-00-pitch-bend-range.mid", 0.93),
        ])
    func envelopeMatchesTheFluidsynthCommandLine(song: String, minimum: Double) throws {
        let path = TestEnvironment.path(of: song)
        // The synthesizer's own level, as fluidsynth's (normalization has its own tests).
        let (mine, minePath) = try bounce(path, ["--loudness", "off"])
        defer { unlink(minePath) }
        let referencePath = temporaryFile("reference.wav")
        defer { unlink(referencePath) }
        let reference = try ProcessRunner.run(
            URL(fileURLWithPath: Self.fluidsynth!),
            ["-ni", "-q", "-g", "0.2", "-r", "48000", "-F", referencePath, Self.soundFont!, path])
        #expect(reference.status == 0, "\(reference.stderr)")
        let theirs = try WAVFile(path: referencePath)
        let window = 480
        var best = (correlation: -1.0, lag: 0, channels: [Double]())
        for lag in stride(from: -64, through: 64, by: 8) {
            let mineOffset = max(0, lag), theirOffset = max(0, -lag)
            let count = min(mine.frameCount - mineOffset, theirs.frameCount - theirOffset) / window
            let channels = (0..<2).map { channel in
                correlation(
                    mine.envelope(channel: channel, window: window, offset: mineOffset, count: count),
                    theirs.envelope(channel: channel, window: window, offset: theirOffset, count: count))
            }
            if channels.min()! > best.correlation { best = (channels.min()!, lag, channels) }
        }
        print(
            "audio reference \(song): envelope correlation L \(String(format: "%.5f", best.channels[0])) R \(String(format: "%.5f", best.channels[1])) at lag \(best.lag) samples; ours \(String(format: "%.3f", mine.seconds)) s, fluidsynth \(String(format: "%.3f", theirs.seconds)) s"
        )
        #expect(best.correlation >= minimum, "\(song): \(best)")
    }
}
