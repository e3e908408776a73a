import Testing

@testable import MIDIVizCore

@Suite(.timeLimit(.minutes(30))) struct NoteLabelsTests {
    func name(_ pitch: UInt8, _ spelling: ChordName.Spelling, solfege: Bool = false, octave: Bool = true) -> String {
        String(decoding: TextLabel.spelledNote(pitch, NoteNaming(solfege: solfege, spelling: spelling, octave: octave)).bytes(in: ShapeStore()), as: UTF8.self)
    }

    @Test func namesAreSpelledAsChordsAre() {
        #expect(name(60, .common) == "C4")
        #expect(name(61, .sharps) == "C#4" && name(61, .flats) == "Db4" && name(61, .common) == "Db4")
        #expect(name(66, .common) == "F#4" && name(66, .flats) == "Gb4")
        #expect(name(21, .common) == "A0" && name(108, .common) == "C8" && name(0, .common) == "C-1")
        #expect(name(70, .flats, solfege: true, octave: false) == "Sib")
        #expect(name(67, .common, solfege: true, octave: false) == "Sol")
        #expect(name(63, .sharps, solfege: true, octave: false) == "Re#")
    }

    /// Eb major (three flats) from 0 s, D major (two sharps) from 2 s.
    func songInTwoKeys() -> Song {
        let notes = [
            Note(startSeconds: 0.5, endSeconds: 1.5, pitch: 63, velocity: 100, channel: 0, track: 0),
            Note(startSeconds: 2.5, endSeconds: 3.5, pitch: 63, velocity: 100, channel: 0, track: 0),
        ]
        return Song(
            format: 0, division: .ticksPerQuarter(96), endTick: 768, durationSeconds: 4,
            tracks: [TrackSummary(name: nil, noteCount: 2, channels: [0], programs: [])], notes: notes, tempoChanges: [],
            timeSignatures: [],
            keySignatures: [
                KeySignature(seconds: 0, tick: 0, sharps: -3, isMinor: false),
                KeySignature(seconds: 2, tick: 384, sharps: 2, isMinor: false),
            ],
            synthEvents: [], warnings: [])
    }

    /// A labeler whose names are 10 pixels high (`TextSize.small` on a 625-pixel side).
    func labeler(_ labels: RenderSettings.Labels) -> NoteLabeler {
        var settings = RenderSettings(width: 1000, height: 625)
        settings.labels = labels
        return NoteLabeler(song: songInTwoKeys(), settings: settings)
    }

    @Test func theKeySignatureInForceSpellsTheNoteAndTheRoomDecidesTheOctave() {
        let labeler = labeler(.names)
        #expect(labeler.pixels == 10)
        #expect(labeler.spelling(at: 1) == .flats && labeler.spelling(at: 2) == .sharps)
        #expect(labeler.label(63, at: 1, room: 100) == .spelledNote(63, NoteNaming(solfege: false, spelling: .flats, octave: true)))
        #expect(labeler.label(63, at: 3, room: 100) == .spelledNote(63, NoteNaming(solfege: false, spelling: .sharps, octave: true)))
        // "Eb4" needs about 3 × 0.62 × 10 = 18.6 pixels, "Eb" 12.4.
        #expect(labeler.label(63, at: 1, room: 15) == .spelledNote(63, NoteNaming(solfege: false, spelling: .flats, octave: false)))
        #expect(labeler.label(63, at: 1, room: 10) == nil)
        #expect(self.labeler(.off).label(63, at: 1, room: 100) == nil)
        #expect(
            self.labeler(.solfege).label(63, at: 1, room: 100)
                == .spelledNote(63, NoteNaming(solfege: true, spelling: .flats, octave: false)))
    }

    /// Labels add text and nothing else: every other shape is as without them, and each name
    /// lies on a note or a key.
    @Test(arguments: [RenderSettings.Style.keyboard, .roll])
    func labelsOnlyAddNamesOnNotesAndKeys(style: RenderSettings.Style) {
        var settings = RenderSettings(width: 1280, height: 720, framesPerSecond: 30, style: style, keys: .song)
        var plain: [Shape] = [], labelled: [Shape] = []
        Scene(song: songInTwoKeys(), settings: settings).makeShapes(at: 1, into: &plain)
        settings.labels = .names
        Scene(song: songInTwoKeys(), settings: settings).makeShapes(at: 1, into: &labelled)
        func isName(_ shape: Shape) -> Bool {
            if case .text(.spelledNote, _, _, _, _) = shape { return true } else { return false }
        }
        func isOctaveName(_ shape: Shape) -> Bool {
            if case .text(.noteName, _, _, _, _) = shape { return true } else { return false }
        }
        #expect(labelled.filter { !isName($0) && !isOctaveName($0) } == plain.filter { !isOctaveName($0) })
        let names = labelled.filter(isName)
        // The sounding Eb4 on its note and its key; the note to come at 2.5 s, in D major, is a D#4.
        let flat = TextLabel.spelledNote(63, NoteNaming(solfege: false, spelling: .flats, octave: true))
        let sharp = TextLabel.spelledNote(63, NoteNaming(solfege: false, spelling: .sharps, octave: true))
        let labels: [TextLabel] = names.compactMap { if case .text(let label, _, _, _, _) = $0 { return label } else { return nil } }
        #expect(labels.filter { $0 == flat }.count == 2 && labels.filter { $0 == sharp }.count == 1 && labels.count == 3)
        let boxes: [Rect] = labelled.compactMap {
            switch $0 {
            case .roundedRect(let rect, _, _, _), .rect(let rect, _): return rect
            default: return nil
            }
        }
        for case .text(_, _, let center, _, _) in names {
            #expect(boxes.contains { $0.minX <= center.x && center.x <= $0.minX + $0.width + 1 && $0.minY <= center.y && center.y <= $0.minY + $0.height })
        }
    }
}

/// A note named as a score writes it.
@Suite(.timeLimit(.minutes(30))) struct WrittenNoteTests {
    /// Spelled as given when the letter and alteration name the pitch, with the octave that goes
    /// with them; nil when they name another pitch (a transposing instrument's written note).
    @Test func aWrittenNoteSpellsItsPitchOrNothing() throws {
        let bSharp = try #require(WrittenNote(pitch: 60, step: 6, alter: 1))
        #expect(bSharp.octave == 3 && bSharp.pitch == 60)
        #expect(String(decoding: TextLabel.writtenNote(bSharp, solfege: false, octave: true).bytes(in: ShapeStore()), as: UTF8.self) == "B#3")
        let cFlat = try #require(WrittenNote(pitch: 71, step: 0, alter: -1))
        #expect(String(decoding: TextLabel.writtenNote(cFlat, solfege: false, octave: true).bytes(in: ShapeStore()), as: UTF8.self) == "Cb5")
        #expect(String(decoding: TextLabel.writtenNote(cFlat, solfege: true, octave: false).bytes(in: ShapeStore()), as: UTF8.self) == "Dob")
        #expect(WrittenNote(pitch: 72, step: 1, alter: 0) == nil, "a D written for a sounding C")
        #expect(WrittenNote(pitch: 60, step: 0, alter: 3) == nil && WrittenNote(pitch: 60, step: 7, alter: 0) == nil)
        #expect(WrittenNote(pitch: 0, step: 6, alter: 1) == nil, "B#-2 is beyond the names")
        for pitch in 0..<128 {
            for step in 0..<7 {
                for alter in -2...2 {
                    guard let note = WrittenNote(pitch: UInt8(pitch), step: step, alter: alter) else { continue }
                    #expect(note.pitch == pitch)
                }
            }
        }
    }
}
