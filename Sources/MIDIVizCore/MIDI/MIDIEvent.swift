/// One event of the merged stream of all tracks, as read from the file: its tick, the 0-based
/// track it came from, and its complete message bytes (status first).
package struct MIDIEvent: Sendable, Equatable {
    package var tick: Int
    package var track: Int
    package var bytes: MessageBytes

    package init(tick: Int, track: Int, bytes: MessageBytes) {
        self.tick = tick
        self.track = track
        self.bytes = bytes
    }
}

/// An event as a track holds it: its tick and message, the track being the one that holds it.
/// A million-note song keeps two million of these while it is built: 16 bytes each.
package struct TrackEvent: Sendable, Equatable {
    package var tick: Int
    package var bytes: MessageBytes

    package init(tick: Int, bytes: MessageBytes) {
        self.tick = tick
        self.bytes = bytes
    }
}
