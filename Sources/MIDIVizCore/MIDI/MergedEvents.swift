/// The events of every track as one stream, in time order (ties: the lower track first, then
/// file order), merged as it is read with a heap over the tracks' next events: no merged copy
/// is made, and it can be walked more than once.
public struct MergedEvents: Sequence, Sendable {
    /// Each track's events in file order.
    public let tracks: [[MIDIEvent]]

    public init(tracks: [[MIDIEvent]]) {
        self.tracks = tracks
    }

    public var underestimatedCount: Int { tracks.reduce(0) { $0 + $1.count } }

    public func makeIterator() -> Iterator { Iterator(tracks) }

    public struct Iterator: IteratorProtocol {
        private let tracks: [[MIDIEvent]]
        private var positions: [Int]
        /// A binary min-heap of (tick, track) of each unfinished track's next event.
        private var heap: [(tick: Int, track: Int)]

        init(_ tracks: [[MIDIEvent]]) {
            self.tracks = tracks
            positions = Array(repeating: 0, count: tracks.count)
            heap = tracks.indices.compactMap { track in tracks[track].first.map { (tick: $0.tick, track: track) } }
            for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
        }

        public mutating func next() -> MIDIEvent? {
            guard let track = heap.first?.track else { return nil }
            let event = tracks[track][positions[track]]
            positions[track] += 1
            if positions[track] < tracks[track].count {
                heap[0].tick = tracks[track][positions[track]].tick
            } else {
                heap.swapAt(0, heap.count - 1)
                heap.removeLast()
            }
            if !heap.isEmpty { siftDown(0) }
            return event
        }

        private func precedes(_ a: Int, _ b: Int) -> Bool {
            heap[a].tick < heap[b].tick || (heap[a].tick == heap[b].tick && heap[a].track < heap[b].track)
        }

        private mutating func siftDown(_ start: Int) {
            var parent = start
            while true {
                let left = 2 * parent + 1, right = left + 1
                var smallest = parent
                if left < heap.count && precedes(left, smallest) { smallest = left }
                if right < heap.count && precedes(right, smallest) { smallest = right }
                if smallest == parent { return }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
    }
}
