import Algorithms

/// `--labels` in the sheet band: each note's name under its notehead (the engraver's own
/// notehead positions, `SheetMusic.heads`), where it fits: a name that would overlap another
/// name or a notehead is left out. Worked out once; a frame draws those under the band.
struct SheetLabels: Sendable {
    struct Label: Sendable {
        /// The name's centre in the strip.
        var x: Float
        var y: Float
        var text: TextLabel
        var halfWidth: Float
    }

    /// In strip columns, increasing.
    let labels: [Label]
    let color: RGBA
    /// Half a name's height (its capitals').
    let halfHeight: Float

    /// Nil when labels are off or the band shows no engraving.
    init?(song: Song, settings: RenderSettings, labeler: NoteLabeler) {
        guard labeler.isOn, SheetBand.isShown(settings: settings), let music = settings.sheet, !music.heads.isEmpty else { return nil }
        color = SheetBand.colors(settings: settings).ink.withAlpha(0.9)
        // The song's notes by the onset they are engraved at: the nearest onset within a 16th
        // (a MIDI file's notes are notated on a grid of sixteenths).
        let onsets = Array(Set(music.heads.map(\.quarter))).sorted()
        var notesAt = [[Note]](repeating: [], count: onsets.count)
        for note in song.notes where note.channel != Scene.drumChannel {
            let quarter = song.quarters(atSeconds: note.startSeconds)
            let after = onsets.partitioningIndex { $0 >= quarter }
            let nearest = [after - 1, after].filter { onsets.indices.contains($0) }.min { abs(onsets[$0] - quarter) < abs(onsets[$1] - quarter) }
            if let nearest, abs(onsets[nearest] - quarter) <= 0.13 { notesAt[nearest].append(note) }
        }
        // At each onset, heads from the lowest on the page up take the notes from the lowest
        // pitch up; an onset whose heads and notes differ in number gets no names.
        let space = Float(music.noteheadHalfWidth / 0.6)
        let headHalfHeight = space / 2, headHalfWidth = Float(music.noteheadHalfWidth)
        var candidates: [Label] = []
        for (index, quarter) in onsets.enumerated() {
            let heads = music.heads.filter { $0.quarter == quarter }.sorted { $0.y > $1.y }
            let notes = notesAt[index].sorted { $0.pitch < $1.pitch }
            guard heads.count == notes.count else { continue }
            for (head, note) in zip(heads, notes) {
                guard let text = labeler.name(note.pitch, at: note.startSeconds, written: head.written) else { continue }
                // A note name: its bytes are its own, not stored.
                let width = Float(text.bytes(in: ShapeStore()).count) * Overlay.averageCharacterEms * labeler.pixels
                let y = Float(head.y) + headHalfHeight + space * 0.3 + labeler.capHeight / 2
                candidates.append(Label(x: Float(head.x), y: y, text: text, halfWidth: width / 2))
            }
        }
        // Left to right, the lowest first at one column; kept when clear of the names kept and of
        // every notehead.
        candidates.sort { ($0.x, -$0.y) < ($1.x, -$1.y) }
        let heads = music.heads.sorted { $0.x < $1.x }
        halfHeight = labeler.capHeight / 2
        let halfHeight = self.halfHeight + 1
        var kept: [Label] = []
        for label in candidates {
            let clearOfNames = kept.reversed().prefix { $0.x + $0.halfWidth + label.halfWidth + 2 > label.x }.allSatisfy {
                abs($0.y - label.y) >= 2 * halfHeight + 1
            }
            guard clearOfNames else { continue }
            let from = heads.partitioningIndex { Float($0.x) + headHalfWidth >= label.x - label.halfWidth }
            let clearOfHeads = heads[from...].prefix { Float($0.x) - headHalfWidth <= label.x + label.halfWidth }.allSatisfy {
                abs(Float($0.y) - label.y) >= headHalfHeight + halfHeight
            }
            if clearOfHeads { kept.append(label) }
        }
        labels = kept
    }

    /// The names under the band of `view`, as text shapes in the frame.
    func append(for view: SheetView, to shapes: inout [Shape]) {
        let top = Float(Int(view.band.minY) + (Int(view.band.height) - view.stripHeight) / 2)
        let left = Float(view.left)
        let first = labels.partitioningIndex { $0.x + $0.halfWidth >= left }
        for label in labels[first...] {
            let x = label.x - left + view.band.minX
            if x - label.halfWidth > view.band.maxX { break }
            let y = label.y + top
            guard y + halfHeight <= view.band.maxY, y - halfHeight >= view.band.minY else { continue }
            shapes.append(.text(label.text, .small, center: Point(x, y), color))
        }
    }
}
