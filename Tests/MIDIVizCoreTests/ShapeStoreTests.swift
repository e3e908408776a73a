import Testing

@testable import MIDIVizCore

/// What shapes refer to by number: texts stored once, lyrics lines in order, and shapes that
/// stay plain bytes.
@Suite(.timeLimit(.minutes(30))) struct ShapeStoreTests {
    /// A shape holds no array and no reference: copying one is copying its bytes. A payload
    /// with an array (or a class) would make every copy of every shape count references again.
    @Test func aShapeIsPlainBytes() {
        #expect(_isPOD(Shape.self))
        #expect(_isPOD(TextLabel.self) && _isPOD(LyricLine.self) && _isPOD(SheetView.self))
    }

    @Test func textsAreStoredOnceAndReadBack() {
        var store = ShapeStore()
        let title = store.latin1("Clair de lune")
        let again = store.add(Array("Clair de lune".utf8))
        let chord = store.add(Array("Am7/G".utf8))
        #expect(title == again && title != chord)
        #expect(title.bytes(in: store) == Array("Clair de lune".utf8) && chord.bytes(in: store) == Array("Am7/G".utf8))
        #expect(store.label(of: Array("Am7/G".utf8)) == chord && store.label(of: Array("Dm".utf8)) == nil)
        // Latin-1 as it is; beyond it, `?`.
        #expect(store.latin1("Café \u{266F}").bytes(in: store) == [67, 97, 102, 0xE9, 32, 63])
        // A tab or line break between words (no glyph) keeps them apart as a space; a no-break
        // space stays itself.
        #expect(ShapeStore.latin1Bytes("Left\tRight\r\nA\u{85}B\u{A0}C") == Array("Left Right  A B".utf8) + [0xA0, 67])
        // Note names and `Drums` need no store; a number from another store reads as nothing.
        #expect(TextLabel.noteName(60).bytes(in: ShapeStore()) == Array("C4".utf8))
        #expect(TextLabel.drums.bytes(in: ShapeStore()) == Array("Drums".utf8))
        #expect(chord.bytes(in: ShapeStore()).isEmpty)
    }

    @Test func linesFollowTheFirst() {
        var store = ShapeStore()
        _ = store.add(lines: [[1, 2]])
        let first = store.add(lines: [[65, 66], [67], [0x3042]])
        #expect(store.characters(of: first) == [65, 66])
        #expect(store.characters(of: first.advanced(by: 2)) == [0x3042])
        #expect(store.characters(of: first.advanced(by: 3)).isEmpty)
    }
}
