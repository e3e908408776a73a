/// A visual style: how a scene's notes are laid out as shapes. A new style is one type
/// conforming to this protocol, in a file of its own, plus its line in `StyleRegistry.layouts`.
protocol StyleLayout: SendableMetatype {
    /// Its name on the command line: `--style NAME`.
    static var name: String { get }
    /// The name with a few words on what it draws, for `--help`: `roll (a scrolling piano roll)`.
    static var helpText: String { get }
    /// Seconds of music on screen at speed 1 when `--window` is not given (scrolling styles).
    static var defaultWindowSeconds: Double { get }
    /// Whether notes travel across the frame: bar and beat lines travel with them.
    static var scrolls: Bool { get }
    /// Whether the karaoke lines go near the top of the frame (else near the bottom).
    static var lyricsNearTop: Bool { get }
    /// The way its notes travel, for the styles that can be turned by `--direction` (the
    /// scene mirrors or turns its shapes); nil for the others.
    static var travel: RenderSettings.Direction? { get }
    /// How long a note is on screen before it starts sounding: a whole-song video starts this
    /// long (and a frame) before the song.
    static func secondsOnScreenBeforeStart(settings: RenderSettings) -> Double
    /// When a note comes into view and when it has gone, from its start and the end of its
    /// sound (a pedal may hold it past its end); worked out once per scene for every note.
    static func visibleSpan(settings: RenderSettings) -> (_ note: Note, _ soundingEnd: Double) -> (from: Double, until: Double)

    /// Lays out `scene`'s notes between `scene.bands.notesTop` and `notesBottom`: the title,
    /// chord, legend and lyrics have the rest of the frame.
    init(scene: Scene)
    /// The shapes of this style that are the same in every frame (drawn once into the backdrop).
    func appendBackdrop(to shapes: inout [Shape])
    /// The shapes of the moment `seconds`.
    func append(at seconds: Double, to shapes: inout [Shape])
    /// Where everything drawn moves by whole pixels from frame to frame, if anywhere.
    var scrollArea: ScrollArea? { get }
    /// The shapes of the moment `seconds` when `scrollArea` is a layer: first those that fall
    /// on it, of the notes `drawn` picks, then those drawn over it (of every note); returns
    /// how many fall. `visible`: the notes visible at the moments looked up before.
    func appendLayered(at seconds: Double, notes drawn: NotesDrawn, visible: inout VisibleNotes, to shapes: inout [Shape]) -> Int
    /// Appends the falling shapes at `seconds` that differ from those at `earlier` moved
    /// `shift` pixels down the layer, for the frame to draw only where they lie; false when
    /// it cannot tell.
    func appendLayerChanges(from earlier: Double, to seconds: Double, shift: Int, visible: inout VisibleNotes, to shapes: inout [Shape]) -> Bool
    /// When `scrollArea` moves left: the shapes of the moment `seconds`, with the notes `drawn`
    /// picks, and where the notes' shapes lie among them (nil: the style draws every note, and
    /// cannot tell where its notes' shapes lie).
    func appendMoving(at seconds: Double, notes drawn: NotesDrawn, visible: inout VisibleNotes, to shapes: inout [Shape]) -> Range<Int>?
    /// When `scrollArea` moves left: the notes' shapes at `seconds` (`new`) and at `earlier`
    /// (`old`, not moved) of the notes whose shapes are not those at `earlier` moved `shift`
    /// pixels; false when it cannot tell.
    func appendMovingChanges(
        from earlier: Double, to seconds: Double, shift: Int, visible: inout VisibleNotes, new: inout [Shape], old: inout [Shape]
    ) -> Bool
}

extension StyleLayout {
    static var defaultWindowSeconds: Double { 8 }
    static var scrolls: Bool { false }
    static var travel: RenderSettings.Direction? { nil }
    static func secondsOnScreenBeforeStart(settings: RenderSettings) -> Double { 0.5 }
    var scrollArea: ScrollArea? { nil }
    func appendLayered(at seconds: Double, notes drawn: NotesDrawn, visible: inout VisibleNotes, to shapes: inout [Shape]) -> Int {
        append(at: seconds, to: &shapes)
        return 0
    }
    func appendLayerChanges(from earlier: Double, to seconds: Double, shift: Int, visible: inout VisibleNotes, to shapes: inout [Shape]) -> Bool {
        false
    }
    func appendMoving(at seconds: Double, notes drawn: NotesDrawn, visible: inout VisibleNotes, to shapes: inout [Shape]) -> Range<Int>? {
        append(at: seconds, to: &shapes)
        return nil
    }
    func appendMovingChanges(
        from earlier: Double, to seconds: Double, shift: Int, visible: inout VisibleNotes, new: inout [Shape], old: inout [Shape]
    ) -> Bool { false }

    /// How long notes that do not move stay: a drum hit briefly, a note while it sounds and
    /// fades (and at least while its sparks fly).
    static func stillNoteSpan(settings: RenderSettings) -> (Note, Double) -> (from: Double, until: Double) {
        let fade = settings.fadeSeconds, drum = settings.drumSeconds
        let sparks = settings.effects ? Sparks.lifeSeconds : 0
        return { note, soundingEnd in
            (
                note.startSeconds,
                note.channel == Scene.drumChannel
                    ? note.startSeconds + drum
                    : max(soundingEnd + fade, note.startSeconds + sparks)
            )
        }
    }
}

/// Which notes' shapes a frame drawn over the one before makes: a frame moving left
/// (`StyleLayout.appendMoving`), or the falling notes of a layer moving down
/// (`StyleLayout.appendLayered`).
package enum NotesDrawn {
    case all
    /// None: only the shapes beside the notes.
    case none
    /// Those `accepts` takes, given where a note's shapes may lie (a pixel or two to spare) and
    /// whether the note is live at the playhead (it sounds, or a drum hit flashes). `tiles`,
    /// when given: `accepts` takes no note that is not live and touches none of their marked
    /// tiles, so a style may leave such notes out without asking.
    case lying(tiles: ChangedTiles? = nil, accepts: (_ region: Rect, _ live: Bool) -> Bool)

    /// Whether a note's shapes are made; `region` and `live` are worked out only for `lying`.
    @inline(__always)
    func draws(region: () -> Rect, live: () -> Bool) -> Bool {
        switch self {
        case .all: true
        case .none: false
        case .lying(_, let accepts): accepts(region(), live())
        }
    }
}
