/// `sheet`: the engraved score alone, scrolling right to left past a playhead; the notes
/// sounding now are lit. The engraving is made before the frames (`RenderSettings.sheet`); without
/// it the page stays blank.
struct SheetLayout: StyleLayout {
    static let name = "sheet"
    static let helpText = "sheet (the engraved score scrolling past a playhead)"
    static let lyricsNearTop = false

    static func visibleSpan(settings: RenderSettings) -> (Note, Double) -> (from: Double, until: Double) {
        stillNoteSpan(settings: settings)
    }

    let scene: Scene

    func appendBackdrop(to shapes: inout [Shape]) {
        let paper = SheetBand.colors(settings: scene.settings).paper
        if paper.a > 0 { shapes.append(.rect(SheetBand.rect(settings: scene.settings), paper)) }
    }

    /// The band is drawn by the scene for every style that shows it (`SheetBand`).
    func append(at seconds: Double, to shapes: inout [Shape]) {}
}
