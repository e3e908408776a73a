/// The synthesizer's messages of one tick, as `SongBuilder` appends them, and the moves that a
/// note struck again across tracks asks for. The merged stream orders one tick's events by
/// track, so a note-on in track 1 comes before a note-off of the same key in track 2: played so,
/// the note-off would end the new note too (a synthesizer ends every voice of the key). Such a
/// note-on, with the rest of its track's messages of the tick, is played right after the note-off
/// instead: the song then sounds the same whatever the order of its tracks.
struct TickMessages {
    private(set) var tick = Int.min
    /// Where this tick's messages begin among all of them.
    private var start = 0
    /// The track of each of this tick's messages.
    private var tracks: [Int] = []
    /// Per message (from `start`) that moves: the last message (from `start`) it is played after.
    private var after: [Int: Int] = [:]

    /// Puts the messages of the tick before in their final order and starts tick `tick`, whose
    /// messages begin at `messages.count`.
    mutating func begin(_ tick: Int, _ messages: inout [TimedMessage]) {
        finish(&messages)
        self.tick = tick
        start = messages.count
    }

    /// Notes that a message of `track` was appended.
    mutating func appended(track: Int) { tracks.append(track) }

    /// Plays the note-on at `noteOn` (an index among all messages, of this tick), and every
    /// later message of its track in this tick, after the message at `noteOff`.
    mutating func play(_ noteOn: Int, after noteOff: Int) {
        after[noteOn - start] = max(after[noteOn - start] ?? -1, noteOff - start)
    }

    /// Puts this tick's messages in their final order: each moved run of a track's messages just
    /// after the message it follows, in the order they came.
    mutating func finish(_ messages: inout [TimedMessage]) {
        defer {
            tracks.removeAll(keepingCapacity: true)
            after.removeAll(keepingCapacity: true)
        }
        guard !after.isEmpty else { return }
        // Each message's place: 2 × its index, or 2 × the message it follows + 1; a track's
        // messages after a moved one move with it.
        var places: [Int] = []
        places.reserveCapacity(tracks.count)
        var follows = -1
        for index in tracks.indices {
            if index > 0 && tracks[index] != tracks[index - 1] { follows = -1 }
            if let message = after[index] { follows = max(follows, message) }
            places.append(follows >= 0 ? 2 * follows + 1 : 2 * index)
        }
        let order = tracks.indices.sorted { (places[$0], $0) < (places[$1], $1) }
        let moved = order.map { messages[start + $0] }
        messages.replaceSubrange(start..<start + moved.count, with: moved)
    }
}
