import Foundation
import Testing

@testable import MIDIVizCore
@testable import MIDIVizIO

/// Whether the sheet-music tools are here: MuseScore 3, and python3 with Verovio.
enum SheetTools {
    static let available: Bool = {
        guard ScoreTools.museScore() != nil, let python = ScoreTools.python() else { return false }
        guard let run = try? ScoreTools.run(python, ["-c", "import verovio"]) else { return false }
        return run.exitedCleanly
    }()

    static let missing = "needs musescore3 (apt) and python3 with verovio (pip, scripts/requirements-sheet.txt); scripts/setup installs them"

    static func fixture(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("fixtures/sheet/\(name)").path
    }
}

/// The notehead of each note reaches the playhead when the note sounds. The noteheads are found
/// in the rendered frame's pixels, on the rows where librsvg says the engraver drew them (their
/// SVG elements' ink), never from the onset table the renderer scrolls by.
@Suite(.timeLimit(.minutes(30)), .enabled(if: SheetTools.available, Comment(rawValue: SheetTools.missing)))
struct SheetSyncTests {
    struct Head {
        var centerX: Double
        var centerY: Double
        var width: Double
        var height: Double
    }

    /// The noteheads of the engraving, in document order (one staff: time order), in strip pixels.
    static func noteheads(_ engraving: SheetEngraver.Engraving) throws -> [Head] {
        let svg = String(decoding: engraving.svg, as: UTF8.self)
        let ids = svg.matches(of: try Regex(#"<g id="([^"]+)" class="notehead""#)).compactMap { $0.output[1].substring.map(String.init) }
        let document = try SVGDocument(bytes: engraving.svg)
        return try ids.map { id in
            let box = try #require(document.inkBounds(ofElement: id, width: engraving.documentWidth, height: engraving.documentHeight))
            return Head(centerX: box.x + box.width / 2, centerY: engraving.top + box.y + box.height / 2, width: box.width, height: box.height)
        }
    }

    /// Whether a pixel is ink (dark, or the lit notes' colour), not paper or the faint playhead.
    static func isInk(_ color: RGBA) -> Bool { 0.3 * color.r + 0.59 * color.g + 0.11 * color.b < 0.55 }

    /// For each note: the offset in frames between the playhead and the centre of its notehead in
    /// the frame drawn at the note's start. Fails when a notehead is not under the playhead.
    /// - Parameter written: the notehead of each note in time order (the fixture's own structure,
    ///   for a score with repeats); nil: one notehead a note, in time order.
    static func offsets(fixture: String, fromMIDI: Bool, written: [Int]? = nil) throws -> [Double] {
        var song = try SongLoader.load(path: SheetTools.fixture(fixture))
        if fromMIDI { song.musicXML = nil }  // engraved from the notation MIDI, as a MIDI file is
        var settings = RenderSettings(width: 960, height: 540, framesPerSecond: 60, style: RenderSettings.Style(rawValue: "sheet")!)
        settings.title = nil
        let engraving = try SheetEngraver.engraving(song: song, name: fixture, settings: settings)
        settings.sheet = engraving.music
        let heads = try noteheads(engraving)
        let notes = song.notes.sorted { $0.startSeconds < $1.startSeconds }
        let written = written ?? Array(notes.indices)
        try #require(written.count == notes.count && heads.count == written.max().map { $0 + 1 }, "\(heads.count) heads, \(notes.count) notes")
        let renderer = FrameRenderer(scene: Scene(song: song, settings: settings), fonts: .empty(canvasSide: 540))
        var workspace = renderer.makeWorkspace()
        let playhead = Int(SheetBand.playheadX(settings: settings))
        let stripTop = (settings.height - engraving.music.height) / 2
        var offsets: [Double] = []
        for (index, note) in notes.enumerated() {
            renderer.render(at: note.startSeconds, in: &workspace)
            let headIndex = written[index]
            let head = heads[headIndex]
            // How far the neighbouring heads are.
            let before = headIndex > 0 ? head.centerX - heads[headIndex - 1].centerX : .infinity
            let after = headIndex + 1 < heads.count ? heads[headIndex + 1].centerX - head.centerX : .infinity
            let reach = Int(min(3 * head.width, 0.45 * min(before, after)))
            // On each row of the notehead, the run of ink nearest the playhead; rows where it is
            // much wider than a notehead (a staff or ledger line) are left out. The head's centre
            // is the mean column of the ink kept: a notehead is symmetric about its centre.
            var columns: [Int] = []
            let firstRow = stripTop + Int((head.centerY - 0.45 * head.height).rounded())
            let lastRow = stripTop + Int((head.centerY + 0.45 * head.height).rounded())
            for row in firstRow...lastRow {
                let ink = (playhead - reach...playhead + reach).filter { isInk(workspace.canvas.color(x: $0, y: row)) }
                guard let nearest = ink.min(by: { abs($0 - playhead) < abs($1 - playhead) }) else { continue }
                var low = nearest, high = nearest
                while ink.contains(low - 1) { low -= 1 }
                while ink.contains(high + 1) { high += 1 }
                if Double(high - low + 1) > 1.3 * head.width { continue }
                columns += Array(low...high)
            }
            try #require(!columns.isEmpty, "note \(index) (pitch \(note.pitch) at \(note.startSeconds) s): no notehead within \(reach) px of the playhead")
            let low = columns.min()!, high = columns.max()!
            let offsetPixels = Double(columns.reduce(0, +)) / Double(columns.count) + 0.5 - Double(playhead) - 0.5
            // Pixels a second near this note, from the engraving and the song's own times: with the
            // next note, or the one before when the next is after a jump.
            let neighbour = index + 1 < notes.count && written[index + 1] == headIndex + 1 ? index + 1 : index - 1
            let pixelsPerSecond = abs(heads[written[neighbour]].centerX - head.centerX) / abs(notes[neighbour].startSeconds - note.startSeconds)
            offsets.append(offsetPixels / pixelsPerSecond * settings.frameRate.perSecond)
            if ProcessInfo.processInfo.environment["SHEET_DEBUG"] != nil {
                let table = engraving.music.x(atQuarter: song.quarters(atSeconds: note.startSeconds))
                print("note \(index) run \(low)...\(high) offset \(offsetPixels) px; svg head x \(head.centerX) w \(head.width), table x \(table)")
            }
            #expect(
                (low...high).contains(playhead),
                "note \(index) (pitch \(note.pitch) at \(note.startSeconds) s): its notehead spans \(low)...\(high), the playhead is at \(playhead)")
        }
        return offsets
    }

    /// Each fixture read as a score, and again notated from its MIDI export.
    @Test(arguments: ["c-major-scale.musicxml", "pickup-tempo.musicxml"], [false, true])
    func noteheadsReachThePlayheadWhenTheySound(fixture: String, fromMIDI: Bool) throws {
        let offsets = try Self.offsets(fixture: fixture, fromMIDI: fromMIDI)
        let worst = offsets.map(abs).max() ?? 0
        print(
            "sheet sync \(fixture) (\(fromMIDI ? "as MIDI" : "score")): worst offset \(String(format: "%.3f", worst)) frames at 60 fps over \(offsets.count) notes"
        )
        #expect(worst <= 1, "worst offset \(worst) frames")
    }

    /// Scores played in passes (MuseScore's MIDI and Verovio's timemap unfold them) but engraved
    /// once: on each pass the page goes back (or over the first ending) as a reader's eye does,
    /// and each note's notehead reaches the playhead when it sounds.
    /// A score with a repeat and two endings (played 1 2 1 3 4), one with D.C. al Fine (played
    /// 1 2 3 1 2) and one repeated from its pickup (0 1 2 0 1 2): the fixtures' noteheads, engraved once, in the order they are played.
    static let passes: [(fixture: String, written: [Int])] = [
        // Bar 1 (heads 0-3), its first ending (4-7), the second ending (8-11), bar 4 (12-15).
        ("repeat-endings.musicxml", [0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15]),
        // Bar 1 (heads 0-3), its first ending (4-7), bar 1 again, then bar 3 (8-11): Verovio's
        // own expansion played the ending once and went on (0 to 11), the page 4 s behind.
        ("first-ending.musicxml", Array(0..<8) + Array(0..<4) + Array(8..<12)),
        // Bars 1-3 (heads 0-11), then bars 1-2 again.
        ("da-capo-fine.musicxml", Array(0..<12) + Array(0..<8)),
        // A pickup (head 0) and bars 1-2 (heads 1-7), all played twice: the page goes back to the
        // pickup bar, which Verovio numbers before its staff.
        ("pickup-repeat.musicxml", Array(0..<8) + Array(0..<8)),
    ]

    @Test(arguments: passes.indices)
    func noteheadsReachThePlayheadOnEachPass(index: Int) throws {
        let (fixture, written) = Self.passes[index]
        let offsets = try Self.offsets(fixture: fixture, fromMIDI: false, written: written)
        let worst = offsets.map(abs).max() ?? 0
        print("sheet sync \(fixture) (score): worst offset \(String(format: "%.3f", worst)) frames at 60 fps over \(offsets.count) notes")
        #expect(worst <= 1, "worst offset \(worst) frames")
        // Notated from its MIDI, the passes are written out: one notehead a note.
        let unfolded = try Self.offsets(fixture: fixture, fromMIDI: true)
        #expect(unfolded.map(abs).max() ?? 0 <= 1)
    }

    /// The final bar line reaches the playhead as the last note ends, not before: a whole
    /// note's bar line passed it while the note still sounded (the page went on at the pace of
    /// the quarters before). Found in the frame's pixels.
    @Test(arguments: [false, true])
    func theFinalBarLineReachesThePlayheadAsTheLastNoteEnds(fromMIDI: Bool) throws {
        var song = try SongLoader.load(path: SheetTools.fixture("whole-note-end.musicxml"))
        if fromMIDI { song.musicXML = nil }
        var settings = RenderSettings(width: 960, height: 540, framesPerSecond: 60, style: RenderSettings.Style(rawValue: "sheet")!)
        settings.title = nil
        let engraving = try SheetEngraver.engraving(song: song, name: "whole-note-end.musicxml", settings: settings)
        settings.sheet = engraving.music
        // A bar line crosses the staff: the rows of the last notehead (G4, on a line) are inked
        // across in its column. The notehead itself lies further left than the columns searched.
        let head = try #require(try Self.noteheads(engraving).last)
        let stripTop = (settings.height - engraving.music.height) / 2
        let rows = stripTop + Int((head.centerY - 0.4 * head.height).rounded())...stripTop + Int((head.centerY + 0.4 * head.height).rounded())
        let renderer = FrameRenderer(scene: Scene(song: song, settings: settings), fonts: .empty(canvasSide: 540))
        var workspace = renderer.makeWorkspace()
        let playhead = Int(SheetBand.playheadX(settings: settings))
        /// The columns near the playhead inked on every row of the staff: bar lines.
        func barLineColumns(at seconds: Double) -> [Int] {
            renderer.render(at: seconds, in: &workspace)
            return (playhead - 30...playhead + 30).filter { x in rows.allSatisfy { Self.isInk(workspace.canvas.color(x: x, y: $0)) } }
        }
        let end = try #require(song.notes.map(\.endSeconds).max())
        // The staff ends at its last line's right edge (a final double bar's thick line, its thin
        // one a few pixels before).
        let atEnd = barLineColumns(at: end)
        #expect(atEnd.max().map { abs($0 - playhead) <= 3 } == true, "bar line at \(atEnd), the playhead at \(playhead)")
        // There the page stays, in the ringing and the frames after it.
        let held = barLineColumns(at: end + 0.5), later = barLineColumns(at: end + 3)
        #expect(held.max().map { abs($0 - playhead) <= 3 } == true && later == held, "bar line at \(held), then \(later)")
        // Halfway through the whole note, its bar line is still ahead.
        let last = try #require(song.notes.max { $0.startSeconds < $1.startSeconds })
        let halfway = barLineColumns(at: (last.startSeconds + last.endSeconds) / 2)
        #expect(halfway.allSatisfy { $0 > playhead + 3 }, "bar line at \(halfway), the playhead at \(playhead)")
    }
}
