import Testing

@testable import MIDIVizCore

@Suite(.timeLimit(.minutes(30))) struct DrumLaneTests {
    func drum(_ start: Double, key: UInt8, velocity: UInt8) -> Note {
        Note(startSeconds: start, endSeconds: start + 0.1, pitch: key, velocity: velocity, channel: 9, track: 1)
    }

    /// Hits of one slot struck less than `mergeSeconds` after the slot's last drawn hit are drawn
    /// as it, with the loudest velocity among them; other slots and pitched notes are apart.
    @Test func hitsOfOneSlotCloseTogetherAreDrawnAsTheFirst() {
        let notes = [
            drum(0.000, key: 36, velocity: 50),  // kick: drawn
            Note(startSeconds: 0.001, endSeconds: 0.5, pitch: 36, velocity: 90, channel: 0, track: 0),  // a pitched C2
            drum(0.005, key: 38, velocity: 70),  // snare: its own slot
            drum(0.010, key: 35, velocity: 100),  // kick 10 ms after the first: drawn as it, louder
            drum(0.024, key: 36, velocity: 20),  // still within 25 ms of the first
            drum(0.030, key: 36, velocity: 60),  // 30 ms after the first: drawn
            drum(0.050, key: 36, velocity: 40),  // 20 ms after that one
            drum(0.056, key: 36, velocity: 80),  // 26 ms after it: drawn
        ]
        #expect(DrumLane.drawnVelocities(of: notes, drumChannel: 9) == [100, 90, 70, 0, 0, 60, 0, 80])
    }

    /// A song of `count` pitched notes over 4 s and a kick and a hi-hat struck `perSecond` times
    /// a second each.
    func song(pitched count: Int, drumsPerSecond perSecond: Int) -> Song {
        var random = SeededNumbers(state: 5)
        let pitched = (0..<count).map { _ -> Note in
            let start = Double.random(in: 0..<4, using: &random)
            return Note(startSeconds: start, endSeconds: start + 0.2, pitch: UInt8.random(in: 48...72, using: &random), velocity: 90, channel: 0, track: 0)
        }
        let drums = (0..<(4 * perSecond)).flatMap { hit in
            [36, 42].map { key in drum(Double(hit) / Double(perSecond) + Double.random(in: 0..<0.002, using: &random), key: UInt8(key), velocity: 100) }
        }
        let notes = (pitched + drums).sorted { $0.startSeconds < $1.startSeconds }
        return Song(
            format: 1, division: .ticksPerQuarter(96), endTick: 768, durationSeconds: 4.2,
            tracks: [
                TrackSummary(name: nil, noteCount: count, channels: [0], programs: []),
                TrackSummary(name: nil, noteCount: drums.count, channels: [9], programs: []),
            ],
            notes: notes, tempoChanges: [], timeSignatures: [], keySignatures: [], synthEvents: [], warnings: [])
    }

    /// In a dense song the drum lane's hits stop growing with how often a slot is struck: at
    /// 200 hits a second on each of two slots, at most one in each `mergeSeconds` (and one more)
    /// of the hits flashing is drawn, in circles, bars and the keyboard; in a song that is not
    /// dense, every hit flashing is drawn, as before.
    @Test(arguments: [RenderSettings.Style.circles, .bars, .keyboard])
    func aDenseSongsDrumLaneDrawsAHitPerMergeTime(style: RenderSettings.Style) throws {
        var settings = RenderSettings.forTesting
        settings.style = style
        let flashing = Int((settings.drumSeconds * 200).rounded(.up))
        for (pitched, dense) in [(40, false), (8000, true)] {
            let scene = Scene(song: song(pitched: pitched, drumsPerSecond: 200), settings: settings)
            #expect(scene.isDense == dense)
            #expect((scene.drumVelocities != nil) == dense)
            var shapes: [Shape] = []
            scene.makeShapes(at: 2, into: &shapes)
            // The lane's rings: at the kick's and the hi-hat's places (the circles style rings notes too).
            let places = Set([0, 3].map { DrumLane(scene: scene, centerY: 0).x(ofSlot: $0) })
            let rings = shapes.filter { if case .ring(let center, _, _, _) = $0 { return places.contains(center.x) } else { return false } }.count
            if dense {
                let most = 2 * (Int((settings.drumSeconds / DrumLane.mergeSeconds).rounded(.up)) + 1)
                #expect(rings <= most && rings >= most / 2, "\(rings) rings, at most \(most)")
            } else {
                #expect(abs(rings - 2 * flashing) <= 2, "\(rings) rings for \(2 * flashing) hits flashing")
            }
        }
    }

    /// Whether a song is dense is measured over the style's own window where it has one (roll,
    /// keyboard); in circles and bars, which have none, over the default, so `--window` (which
    /// the render warns has no effect there) changes nothing, not even how the drum lane merges
    /// hits. A song of 2,000 notes over 4.2 s (400 pitched, 1,600 drum hits) is dense in a 20-s
    /// window and not in a half-second one.
    @Test func aWindowChangesDensityOnlyInAStyleThatHasOne() throws {
        let song = song(pitched: 400, drumsPerSecond: 200)
        for style in [RenderSettings.Style.circles, .bars, .roll, .keyboard] {
            var settings = RenderSettings.forTesting
            settings.style = style
            let plain = Scene(song: song, settings: settings)
            for (window, dense) in [(0.5, false), (20.0, true)] {
                settings.window = window
                let scene = Scene(song: song, settings: settings)
                #expect(scene.isDense == (style.scrolls ? dense : plain.isDense), "\(style), --window \(window)")
                #expect((scene.drumVelocities != nil) == scene.isDense, "\(style), --window \(window)")
            }
        }
    }
}
