import Foundation
import Testing

@testable import MIDIVizCore

/// Colours per track and channel, hidden tracks and channels: what is drawn, and what is heard
/// with `--mute-hidden`.
@Suite(.timeLimit(.minutes(30))) struct TrackLookTests {
    /// Two hands as two tracks (1, right: C5 E5 G5 on channel 1; 2, left: C3 G3 on channel 2)
    /// and a drum track (3, channel 10), after a conductor track (0), at 120 bpm.
    static func song() -> Song {
        func track(_ index: Int, _ name: String, _ events: [(Int, [UInt8])]) -> [MIDIEvent] {
            [MIDIEvent(tick: 0, track: index, bytes: MessageBytes([0xFF, 0x03] + Array(name.utf8)))]
                + events.map { MIDIEvent(tick: $0.0, track: index, bytes: MessageBytes($0.1)) }
        }
        let events =
            track(0, "Song", [])
            + track(
                1, "Right hand",
                [
                    (0, [0x90, 72, 100]), (480, [0x80, 72, 0]), (480, [0x90, 76, 100]),
                    (960, [0x80, 76, 0]), (960, [0x90, 79, 100]), (1440, [0x80, 79, 0]),
                ])
            + track(2, "Left hand", [(0, [0x91, 48, 90]), (960, [0x81, 48, 0]), (960, [0x91, 55, 90]), (1920, [0x81, 55, 0])])
            + track(
                3, "Drums",
                [
                    (0, [0x99, 36, 110]), (60, [0x89, 36, 0]), (480, [0x99, 38, 110]), (540, [0x89, 38, 0]),
                    (960, [0x99, 36, 110]), (1020, [0x89, 36, 0]),
                ])
        let sorted = events.enumerated().sorted { ($0.element.tick, $0.element.track, $0.offset) < ($1.element.tick, $1.element.track, $1.offset) }
        return SongBuilder.build(
            format: 1, division: .ticksPerQuarter(480), trackCount: 4, events: sorted.map(\.element),
            endTick: 1920, warnings: [])
    }

    static let settings: RenderSettings = {
        var settings = RenderSettings.forTesting
        settings.style = .roll
        settings.scheme = .ocean
        return settings
    }()

    func frame(_ song: Song, _ settings: RenderSettings, at seconds: Double = 0.6) -> Canvas {
        let fonts = TextFonts.empty(canvasSide: 270)
        let renderer = FrameRenderer(scene: Scene(song: song, settings: settings), fonts: fonts)
        var workspace = renderer.makeWorkspace()
        renderer.render(at: seconds, in: &workspace)
        return workspace.canvas
    }

    @Test func aHiddenTrackIsNotDrawnAndTheOthersAreAsBefore() {
        let song = Self.song()
        var hidden = Self.settings
        hidden.trackLook.hiddenTracks = [1]
        var only = Self.settings
        only.trackLook.onlyTracks = [0, 2, 3]
        var removed = song
        removed.notes.removeAll { $0.track == 1 }
        let expected = frame(removed, Self.settings)
        #expect(frame(song, hidden).pixels == expected.pixels)
        #expect(frame(song, only).pixels == expected.pixels)
        #expect(frame(song, Self.settings).pixels != expected.pixels, "the right hand was on screen")
        var channel = Self.settings
        channel.trackLook.hiddenChannels = [10]
        var noDrums = song
        noDrums.notes.removeAll { $0.channel == 9 }
        #expect(frame(song, channel).pixels == frame(noDrums, Self.settings).pixels)
    }

    /// Orange is nowhere in the ocean scheme: with `--track-color 1=#FF8800` it appears, on the
    /// right hand's notes only.
    @Test func aTrackColourPaintsThatTracksNotes() {
        let song = Self.song()
        var orange = Self.settings
        orange.trackLook.trackColors = [1: RGBA(hex: "#FF8800")!]
        func orangePixels(_ canvas: Canvas) -> Int {
            canvas.pixels.filter { pixel in
                let r = Int(pixel & 0xFF), g = Int((pixel >> 8) & 0xFF), b = Int((pixel >> 16) & 0xFF)
                return r > 120 && r > g + 40 && g > b + 30
            }.count
        }
        #expect(orangePixels(frame(song, Self.settings)) == 0)
        #expect(orangePixels(frame(song, orange)) > 50)
        var hiddenToo = orange
        hiddenToo.trackLook.hiddenTracks = [1]
        #expect(orangePixels(frame(song, hiddenToo)) == 0, "the colour is the right hand's only")
        // A channel colour; the track's wins where both are given.
        var channel = Self.settings
        channel.trackLook.channelColors = [1: RGBA(hex: "#FF8800")!]
        #expect(orangePixels(frame(song, channel)) > 50)
        channel.trackLook.trackColors = [1: RGBA(hex: "#0000FF")!]
        #expect(orangePixels(frame(song, channel)) == 0)
    }

    /// Two hands get two clearly different colours with `--color-by track`, in every scheme.
    @Test(arguments: ColorScheme.allCases)
    func twoHandsGetTwoDifferentColours(scheme: ColorScheme) {
        var settings = Self.settings
        settings.scheme = scheme
        settings.colorBy = .track
        let song = Self.song()
        let colors = NoteColors(song: song, settings: settings, pitchRange: 40...90)
        let right = colors.color(ofTrack: 1), left = colors.color(ofTrack: 2)
        #expect(song.notes.contains { $0.track == 1 } && song.notes.contains { $0.track == 2 })
        let distance = abs(right.r - left.r) + abs(right.g - left.g) + abs(right.b - left.b)
        #expect(distance > 0.4, "\(scheme): \(right) and \(left)")
    }

    @Test func mutingTakesOutTheHiddenNotesOnly() {
        let song = Self.song()
        var look = TrackLook()
        look.hiddenTracks = [1]
        let muted = song.muting(hiddenBy: look)
        func notes(_ song: Song) -> [(Double, UInt8, UInt8)] {
            song.synthEvents.filter { $0.bytes.count == 3 && $0.bytes[0] & 0xF0 == 0x90 && $0.bytes[2] > 0 }
                .map { ($0.seconds, $0.bytes[0] & 0x0F, $0.bytes[1]) }
        }
        #expect(notes(song).count == 3 + 2 + 3)
        #expect(notes(muted).count == 2 + 3 && !notes(muted).contains { $0.1 == 0 })
        // Every note-off of the right hand is gone with its note-on; the others' stay.
        let offs = muted.synthEvents.filter { $0.bytes.count == 3 && ($0.bytes[0] & 0xF0 == 0x80) }
        #expect(offs.allSatisfy { $0.bytes[0] & 0x0F != 0 } && offs.count == 2 + 3)
        #expect(muted.notes.count == song.notes.count, "still drawn unless hidden too")
    }

    /// The look's text (what `batch` compares to tell whether a video is up to date) does not
    /// depend on the order its sets and dictionaries hold it in.
    @Test func theLooksTextIsInOrder() {
        var look = TrackLook()
        look.hiddenChannels = [9, 3, 16, 5, 7, 12]
        look.trackColors = [4: RGBA(1, 0, 0), 1: RGBA(0, 0, 1), 3: RGBA(0, 1, 0)]
        var settings = RenderSettings.forTesting
        settings.trackLook = look
        let text = String(describing: settings)
        #expect(text.contains("hiddenChannels: [3, 5, 7, 9, 12, 16]"))
        #expect(text.contains("trackColors: [1: #0000FF, 3: #00FF00, 4: #FF0000]"))
    }
}
