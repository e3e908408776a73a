import Testing

@testable import MIDIVizCore

@Suite(.timeLimit(.minutes(30))) struct NoteIndexTests {
    func notes(count: Int, seed: UInt64) -> [Note] {
        var random = SeededNumbers(state: seed)
        return (0..<count).map { _ in
            let start = Double.random(in: 0..<120, using: &random)
            // Mostly short notes, some held for minutes, some of no length.
            let length = [0, 0.1, 0.5, 2, 90][Int.random(in: 0..<5, using: &random)] * Double.random(in: 0...1, using: &random)
            return Note(
                startSeconds: start, endSeconds: start + length, pitch: UInt8.random(in: 21...108, using: &random),
                velocity: 100, channel: 0, track: 0)
        }.sorted { $0.startSeconds < $1.startSeconds }
    }

    /// The index finds exactly the notes a scan of every note finds, in song order, at
    /// random times, at the edges of spans and outside the song.
    @Test(arguments: [0, 1, 15, 16, 17, 1000, 5000])
    func findsWhatAScanFinds(count: Int) {
        let notes = notes(count: count, seed: UInt64(count) + 7)
        let lead = 1.5, fade = 0.25
        let index = NoteIndex(notes: notes, visibleFrom: { $0.startSeconds - lead }, visibleUntil: { $0.endSeconds + fade })
        var random = SeededNumbers(state: 99)
        var times = (0..<300).map { _ in Double.random(in: -5..<130, using: &random) }
        times += notes.prefix(50).flatMap { [$0.startSeconds - lead, $0.endSeconds + fade] }
        times += [-1e19, 1e19, .infinity, -.infinity, .nan]
        for time in times {
            var found: [Int] = []
            index.forEachVisible(at: time) { found.append($0) }
            let expected = notes.indices.filter { notes[$0].startSeconds - lead <= time && time <= notes[$0].endSeconds + fade }
            #expect(found == expected, "at \(time)")
            if found != expected { return }
        }
    }

    /// The notes in any of a few parts (begun by one time, lasting until another) are those a
    /// scan finds, each once, in song order: parts apart, overlapping, one inside another,
    /// empty, and the part that is the notes visible at a moment.
    @Test(arguments: [1, 16, 1000, 5000])
    func findsThePartsAScanFinds(count: Int) {
        let notes = notes(count: count, seed: UInt64(count) + 3)
        let lead = 1.5
        let index = NoteIndex(notes: notes, visibleFrom: { $0.startSeconds - lead }, visibleUntil: { $0.endSeconds })
        var random = SeededNumbers(state: 41)
        for _ in 0..<200 {
            let parts = (0..<Int.random(in: 1...3, using: &random)).map { _ in
                let begunBy = Double.random(in: -5..<130, using: &random), lastingUntil = Double.random(in: -5..<130, using: &random)
                // Some begun after a time: a few seconds before, or any time.
                let begunAfter = Bool.random(using: &random) ? begunBy - Double.random(in: 0..<5, using: &random) : -.infinity
                return NoteIndex.Part(begunAfter: begunAfter, begunBy: begunBy, lastingUntil: lastingUntil)
            }
            let expected = notes.indices.filter { note in
                let from = notes[note].startSeconds - lead, until = max(from, notes[note].endSeconds)
                return parts.contains { $0.begunAfter < from && from <= $0.begunBy && until >= $0.lastingUntil }
            }
            #expect(index.indices(inAnyOf: parts) == expected, "\(parts)")
            let moment = parts[0].begunBy
            #expect(index.indices(inAnyOf: [NoteIndex.Part(begunBy: moment, lastingUntil: moment)]) == index.visible(at: moment))
        }
        #expect(index.indices(inAnyOf: []) == [])
    }

    /// A worker's kept lookups (`VisibleNotes`) answer as the index does, whatever order the
    /// moments come in: a frame and the one before, again, a jump back, the same moment twice.
    @Test func keptLookupsAnswerAsTheIndexDoes() {
        let notes = notes(count: 2000, seed: 5)
        let index = NoteIndex(notes: notes, visibleFrom: { $0.startSeconds - 2 }, visibleUntil: { $0.endSeconds })
        var kept = VisibleNotes()
        var random = SeededNumbers(state: 17)
        var moments: [Double] = []
        for _ in 0..<100 {
            let now = Double.random(in: 0..<120, using: &random)
            moments += [now, now + 1.0 / 30, now, now + 1.0 / 30, now + 2.0 / 30, now - 5, now - 5]
        }
        for moment in moments {
            let found = kept.at(moment, in: index)
            #expect(found == index.visible(at: moment), "at \(moment)")
            if found != index.visible(at: moment) { return }
        }
    }

    /// Notes out of order (a visibleFrom that is not monotonic) are still found, in the order
    /// they come into view.
    @Test func unsortedSpansAreFound() {
        let notes = [
            Note(startSeconds: 5, endSeconds: 6, pitch: 60, velocity: 1, channel: 0, track: 0),
            Note(startSeconds: 1, endSeconds: 9, pitch: 62, velocity: 1, channel: 0, track: 0),
        ]
        let index = NoteIndex(notes: notes) { $0.endSeconds }
        var found: [Int] = []
        index.forEachVisible(at: 5.5) { found.append($0) }
        #expect(found == [1, 0])
    }

    /// 300,000 notes never released in an hour-long song: the old index listed each note in
    /// every second it spans (about 5e8 entries, gigabytes); this one holds three numbers a
    /// note, and a moment shows every note begun before it.
    @Test func notesHeldForAnHourStayBounded() {
        let count = 300_000
        let notes = (0..<count).map { index in
            Note(startSeconds: Double(index) / 100, endSeconds: 3600, pitch: UInt8(21 + index % 88), velocity: 100, channel: 0, track: 0)
        }
        let index = NoteIndex(notes: notes) { $0.endSeconds }
        var visible = 0
        index.forEachVisible(at: 1000.005) { _ in visible += 1 }
        #expect(visible == 100_001)
        visible = 0
        index.forEachVisible(at: 3600.5) { _ in visible += 1 }
        #expect(visible == 0)
    }
}
