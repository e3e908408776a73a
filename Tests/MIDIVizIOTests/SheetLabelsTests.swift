import Foundation
import Testing

@testable import MIDIVizCore
@testable import MIDIVizIO

/// `--labels` in the sheet band: names under the engraver's noteheads, where they fit.
@Suite(.timeLimit(.minutes(30)), .enabled(if: SheetTools.available, Comment(rawValue: SheetTools.missing)))
struct SheetLabelsTests {
    static func scene(_ fixture: String, labels: RenderSettings.Labels) throws -> Scene {
        let song = try SongLoader.load(path: SheetTools.fixture(fixture))
        var settings = RenderSettings(width: 960, height: 540, framesPerSecond: 30, style: RenderSettings.Style(rawValue: "sheet")!)
        settings.labels = labels
        settings.sheet = try SheetEngraver.engrave(song: song, name: fixture, settings: settings)
        return Scene(song: song, settings: settings)
    }

    static func pitch(_ label: SheetLabels.Label) -> UInt8? {
        if case .spelledNote(let pitch, _) = label.text { return pitch }
        if case .writtenNote(let note, _, _) = label.text { return UInt8(note.pitch) }
        return nil
    }

    /// The scale's eight notes are named in order, each under its own notehead, and the frame
    /// with names differs from the frame without only inside the names' boxes.
    @Test func theScaleIsNamedUnderItsNoteheads() throws {
        let fonts = try FontRasterizer().textFonts(canvasSide: 540)
        let named = try Self.scene("c-major-scale.musicxml", labels: .names)
        let labels = try #require(named.sheetLabels).labels
        #expect(labels.compactMap(Self.pitch) == [60, 62, 64, 65, 67, 69, 71, 72])
        let heads = try #require(named.settings.sheet).heads
        for (label, head) in zip(labels, heads) {
            #expect(abs(Double(label.x) - head.x) < 0.5 && Double(label.y) > head.y, "a name under its notehead")
        }
        var plain = named.settings
        plain.labels = .off
        let unnamed = Scene(song: named.song, settings: plain)
        #expect(unnamed.sheetLabels == nil)
        var withNames = FrameRenderer(scene: named, fonts: fonts).makeWorkspace()
        var without = FrameRenderer(scene: unnamed, fonts: fonts).makeWorkspace()
        FrameRenderer(scene: named, fonts: fonts).render(at: 0.5, in: &withNames)
        FrameRenderer(scene: unnamed, fonts: fonts).render(at: 0.5, in: &without)
        var shapes: [Shape] = []
        named.makeShapes(at: 0.5, into: &shapes)
        let half = labels.map(\.halfWidth).max()! + 3
        let boxes = shapes.compactMap { shape -> (x: ClosedRange<Int>, y: ClosedRange<Int>)? in
            guard case .text(_, .small, let center, _, _) = shape else { return nil }
            return (Int(center.x - half)...Int(center.x + half), Int(center.y) - 12...Int(center.y) + 12)
        }
        #expect(boxes.count == 8, "all eight names in the frame at 0.5 s")
        var inside = 0, outside = 0
        for y in 0..<540 {
            for x in 0..<960 where withNames.canvas.color(x: x, y: y) != without.canvas.color(x: x, y: y) {
                if boxes.contains(where: { $0.x.contains(x) && $0.y.contains(y) }) { inside += 1 } else { outside += 1 }
            }
        }
        #expect(inside > 8 * 10, "the names' ink: \(inside) pixels")
        #expect(outside == 0, "\(outside) pixels changed outside the names")
    }

    /// A score's notes are named as its noteheads are written (D#4 with a sharp, where the key of
    /// D spells that pitch Eb4; B#3, which is MIDI 60; C##4), in letters and in solfège; a
    /// hostile pass found names contradicting the noteheads above them.
    @Test(arguments: [
        (RenderSettings.Labels.names, ["F#4", "D#4", "Eb4", "F4", "B#3", "C##4", "C#5"]),
        (.solfege, ["Fa#", "Re#", "Mib", "Fa", "Si#", "Do##", "Do#"]),
    ])
    func namesAreSpelledAsTheNotesAreWritten(labels: RenderSettings.Labels, expected: [String]) throws {
        let scene = try Self.scene("spelled-accidentals.musicxml", labels: labels)
        let names = try #require(scene.sheetLabels).labels.map { String(decoding: $0.text.bytes(in: ShapeStore()), as: UTF8.self) }
        #expect(names == expected)
        #expect(scene.song.notes.map(\.pitch) == [66, 63, 63, 65, 60, 62, 73])
    }

    /// Names are left out where they would overlap: none of those kept covers a notehead or
    /// another name, and of a chord's notes only some are named.
    @Test func namesThatWouldOverlapAreLeftOut() throws {
        let scene = try Self.scene("no-text.musicxml", labels: .names)
        let labels = try #require(scene.sheetLabels).labels
        let notes = scene.song.notes.count
        #expect(labels.count >= 5 && labels.count < notes, "\(labels.count) names for \(notes) notes")
        let half = try #require(scene.sheetLabels).halfHeight
        let music = try #require(scene.settings.sheet)
        let headHalfWidth = Float(music.noteheadHalfWidth), headHalfHeight = Float(music.noteheadHalfWidth / 0.6 / 2)
        for label in labels {
            for head in music.heads {
                let apart = abs(Float(head.x) - label.x) >= label.halfWidth + headHalfWidth || abs(Float(head.y) - label.y) >= half + headHalfHeight
                #expect(apart, "the name at \(label.x),\(label.y) covers the notehead at \(head.x),\(head.y)")
            }
        }
        for (index, a) in labels.enumerated() {
            for b in labels[(index + 1)...] {
                let apart = abs(a.x - b.x) >= a.halfWidth + b.halfWidth || abs(a.y - b.y) >= 2 * half
                #expect(apart, "names at \(a.x),\(a.y) and \(b.x),\(b.y) overlap")
            }
        }
    }
}
