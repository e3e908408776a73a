/// The events of every track as one stream, in time order (ties: the lower track first, then
/// file order), merged as it is read with a heap over the tracks' next events: no merged copy
/// is made, and it can be walked more than once.
package struct MergedEvents: Sequence, Sendable {
    /// Each track's events in file order.
    package let tracks: [TrackEvents]

    package init(tracks: [TrackEvents]) {
        self.tracks = tracks
    }

    /// The events of `trackCount` tracks, each tagged with its track, in stream order.
    package init(events: [MIDIEvent], trackCount: Int) {
        var tracks = [TrackEvents](repeating: TrackEvents(), count: trackCount)
        for event in events { tracks[event.track].append(TrackEvent(tick: event.tick, bytes: event.bytes)) }
        self.tracks = tracks
    }

    package var underestimatedCount: Int { tracks.reduce(0) { $0 + $1.count } }

    package func makeIterator() -> Iterator { Iterator(tracks) }

    package struct Iterator: IteratorProtocol {
        private let tracks: [TrackEvents]
        private var positions: [Int]
        /// A binary min-heap of each unfinished track's next event as one number, tick << 16 |
        /// track (ticks fit 31 bits and tracks 16 in a validated file): one comparison orders
        /// by tick, then by track.
        private var heap: [Int]

        init(_ tracks: [TrackEvents]) {
            precondition(tracks.count <= 1 << 16, "more tracks than a MIDI file holds")
            self.tracks = tracks
            positions = Array(repeating: 0, count: tracks.count)
            heap = tracks.indices.compactMap { track in tracks[track].isEmpty ? nil : tracks[track].tick(at: 0) << 16 | track }
            for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
        }

        package mutating func next() -> MIDIEvent? {
            guard let first = heap.first else { return nil }
            let track = first & 0xFFFF
            let events = tracks[track]
            let position = positions[track]
            positions[track] = position + 1
            if position + 1 < events.count {
                heap[0] = events.tick(at: position + 1) << 16 | track
            } else {
                heap[0] = heap[heap.count - 1]
                heap.removeLast()
            }
            if heap.count > 1 { siftDown(0) }
            let event = events[position]
            return MIDIEvent(tick: event.tick, track: track, bytes: event.bytes)
        }

        private mutating func siftDown(_ start: Int) {
            heap.withUnsafeMutableBufferPointer { heap in
                var parent = start
                let moving = heap[parent]
                while true {
                    let left = 2 * parent + 1
                    guard left < heap.count else { break }
                    let right = left + 1
                    let child = right < heap.count && heap[right] < heap[left] ? right : left
                    guard heap[child] < moving else { break }
                    heap[parent] = heap[child]
                    parent = child
                }
                heap[parent] = moving
            }
        }
    }

    /// The events `isIncluded` keeps, in stream order, found track by track without merging
    /// the others (a few tempo events out of millions).
    package func filter(_ isIncluded: (MIDIEvent) -> Bool) -> [MIDIEvent] {
        var found: [(event: MIDIEvent, track: Int, position: Int)] = []
        for (track, events) in tracks.enumerated() {
            for (position, stored) in events.enumerated() {
                let event = MIDIEvent(tick: stored.tick, track: track, bytes: stored.bytes)
                if isIncluded(event) { found.append((event, track, position)) }
            }
        }
        return found.sorted { ($0.event.tick, $0.track, $0.position) < ($1.event.tick, $1.track, $1.position) }.map(\.event)
    }
}
