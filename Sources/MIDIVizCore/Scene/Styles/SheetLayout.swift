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

    /// The band is drawn by the scene for every style that shows it (`SheetBand`); here only
    /// `--effects`: sparks from the playhead as notes strike, higher notes higher.
    func append(at seconds: Double, to shapes: inout [Shape]) {
        guard scene.settings.effects else { return }
        let notes = scene.song.notes
        var struck: [Int] = []
        scene.index.forEachVisible(at: seconds) { index in
            if notes[index].channel != Scene.drumChannel, Sparks.isLive(notes[index], at: seconds) { struck.append(index) }
        }
        let chosen = Sparks.chosen(struck)
        let height = Float(scene.settings.height), unit = Float(scene.settings.textSide)
        let x = SheetBand.playheadX(settings: scene.settings)
        for index in chosen.notes {
            let note = notes[index]
            let y = height / 2 - (Float(note.pitch) - 60) * unit * 0.006
            let burst = Sparks.Burst(
                origin: Point(x, y), direction: Point(0, -1), spread: 0.8, speed: unit * 0.35, gravity: unit * 0.6, lineWidth: max(2, unit * 0.003))
            Sparks.append(for: note, at: seconds, burst: burst, color: scene.colors.color(of: note), most: chosen.sparksEach, to: &shapes)
        }
    }
}
