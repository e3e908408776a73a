import Testing

@testable import MIDIVizCore

/// `--direction`: in `keyboard` and `roll`, a note travels the way asked, at every size.
@Suite(.timeLimit(.minutes(30))) struct DirectionTests {
    /// One E4 from `start` for 0.4 s, in a song of 60 s.
    func song(start: Double) -> Song {
        let notes = [Note(startSeconds: start, endSeconds: start + 0.4, pitch: 64, velocity: 100, channel: 0, track: 0)]
        return Song(
            format: 0, division: .ticksPerQuarter(96), endTick: 96, durationSeconds: 60,
            tracks: [TrackSummary(name: nil, noteCount: 1, channels: [0], programs: [])],
            notes: notes, tempoChanges: [], timeSignatures: [], keySignatures: [], synthEvents: [], warnings: [])
    }

    /// Where the note is at `seconds`: the centre of the light it adds to its frame.
    func centroid(_ settings: RenderSettings, at seconds: Double) -> Point? {
        func canvas(_ song: Song) -> Canvas {
            let renderer = FrameRenderer(scene: Scene(song: song, settings: settings), fonts: .empty(canvasSide: settings.textSide))
            var workspace = renderer.makeWorkspace()
            renderer.render(at: seconds, in: &workspace)
            return workspace.canvas
        }
        let with = canvas(song(start: 2)), without = canvas(song(start: 50))
        var sum: Float = 0, x: Float = 0, y: Float = 0
        for row in 0..<with.height {
            for column in 0..<with.width {
                let light = max(0, with.color(x: column, y: row).luma - without.color(x: column, y: row).luma)
                (sum, x, y) = (sum + light, x + light * Float(column), y + light * Float(row))
            }
        }
        return sum > 1 ? Point(x / sum, y / sum) : nil
    }

    @Test(arguments: [RenderSettings.Style.keyboard, .roll], [(480, 270), (270, 480)])
    func notesTravelTheWayAsked(style: RenderSettings.Style, size: (Int, Int)) throws {
        for direction in RenderSettings.Direction.allCases {
            var settings = RenderSettings.forTesting
            settings.style = style
            (settings.width, settings.height) = size
            settings.direction = direction
            settings.title = "A title"
            let before = try #require(centroid(settings, at: 1.0), "\(style) \(direction): the note is on screen")
            let after = try #require(centroid(settings, at: 1.4))
            let (dx, dy) = (after.x - before.x, after.y - before.y)
            switch direction {
            case .down: #expect(dy > 5 && abs(dx) < 1, "\(style) \(size) down: \(dx), \(dy)")
            case .up: #expect(dy < -5 && abs(dx) < 1, "\(style) \(size) up: \(dx), \(dy)")
            case .right: #expect(dx > 5 && abs(dy) < 1, "\(style) \(size) right: \(dx), \(dy)")
            case .left: #expect(dx < -5 && abs(dy) < 1, "\(style) \(size) left: \(dx), \(dy)")
            }
            // Whatever the direction, the note stays out of the header.
            let header = Scene(song: song(start: 2), settings: settings).bands.headerHeight
            #expect(before.y > header && after.y > header)
        }
    }

    /// Tiny and odd frames with every overlay, direction, split, velocity and key range draw
    /// without trapping (the bands give way when the frame is too small for them).
    @Test func tinyFramesDrawWithEveryOption() {
        var notes: [Note] = []
        for step in 0..<20 {
            let start = Double(step) * 0.1
            notes.append(Note(startSeconds: start, endSeconds: start + 0.3, pitch: UInt8(30 + step * 3), velocity: UInt8(5 + step * 6), channel: 0, track: 0))
        }
        let song = Song(
            format: 0, division: .ticksPerQuarter(96), endTick: 96, durationSeconds: 3,
            tracks: [TrackSummary(name: "Piano", noteCount: notes.count, channels: [0], programs: [])],
            notes: notes, tempoChanges: [], timeSignatures: [], keySignatures: [], synthEvents: [], warnings: [])
        for (width, height) in [(2, 2), (16, 16), (16, 64), (64, 16), (96, 54), (40, 300)] {
            for style in RenderSettings.Style.allCases {
                for direction in [nil] + RenderSettings.Direction.allCases {
                    var settings = RenderSettings.forTesting
                    (settings.width, settings.height, settings.style, settings.direction) = (width, height, style, direction)
                    (settings.title, settings.chords, settings.colorBy) = ("Title", true, .track)
                    (settings.split, settings.velocity, settings.keys) = (.auto, true, .span(low: 40, high: 41))
                    let scene = Scene(song: song, settings: settings)
                    #expect(scene.bands.notesTop <= scene.bands.notesBottom, "\(width)x\(height) \(style) \(direction as Any)")
                    let renderer = FrameRenderer(scene: scene, fonts: .empty(canvasSide: settings.textSide))
                    var workspace = renderer.makeWorkspace()
                    renderer.render(at: 1.05, in: &workspace)
                    #expect(workspace.canvas.width == width && workspace.canvas.height == height)
                }
            }
        }
    }
}
