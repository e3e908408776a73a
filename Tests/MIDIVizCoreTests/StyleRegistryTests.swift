import Testing

@testable import MIDIVizCore

/// Styles are the registered layouts, by name; each built-in constant is its own layout.
@Suite(.timeLimit(.minutes(30)))
struct StyleRegistryTests {
    @Test func eachStyleIsItsRegisteredLayoutByName() {
        let names = StyleRegistry.layouts.map { $0.name }
        #expect(Set(names).count == names.count, "two styles share a name: \(names)")
        #expect(RenderSettings.Style.allCases.map(\.rawValue) == names)
        for style in RenderSettings.Style.allCases {
            #expect(RenderSettings.Style(rawValue: style.rawValue) == style)
            #expect(style.layout.name == style.rawValue)
            #expect(RenderSettings.Style.helpText.contains(style.layout.helpText))
        }
        #expect(RenderSettings.Style(rawValue: "spiral") == nil)
        let constants: [(RenderSettings.Style, String)] = [(.circles, "circles"), (.bars, "bars"), (.roll, "roll"), (.keyboard, "keyboard")]
        for (style, name) in constants { #expect(style.rawValue == name) }
    }

    /// What the registry says of each style is what frames do: the scrolling styles draw bar
    /// lines, a whole song's lead-in is how long a note is on screen before it sounds.
    @Test(arguments: RenderSettings.Style.allCases)
    func aStylesDeclaredTimesAreThoseOfItsFrames(style: RenderSettings.Style) {
        var settings = RenderSettings.forTesting
        settings.style = style
        let onScreen = style.layout.secondsOnScreenBeforeStart(settings: settings)
        #expect(settings.leadInSeconds >= onScreen && settings.leadInSeconds <= onScreen + 2 / settings.frameRate.perSecond)
        let notes = [60, 64, 67].map { Note(startSeconds: 1, endSeconds: 1.5, pitch: UInt8($0), velocity: 110, channel: 0, track: 0) }
        let song = Song(
            format: 0, division: .ticksPerQuarter(96), endTick: 960, durationSeconds: 5,
            tracks: [TrackSummary(name: nil, noteCount: notes.count, channels: [0], programs: [])], notes: notes, tempoChanges: [],
            timeSignatures: [], keySignatures: [], synthEvents: [], warnings: [])
        let scene = Scene(song: song, settings: settings)
        #expect(scene.beatGrid.lines.isEmpty != style.layout.scrolls)
    }
}
