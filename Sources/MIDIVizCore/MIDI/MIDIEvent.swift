/// One event of the merged stream of all tracks, as read from the file: its tick, the 0-based
/// track it came from, and its complete message bytes (status first).
public struct MIDIEvent: Sendable, Equatable {
    public var tick: Int
    public var track: Int
    public var bytes: MessageBytes

    public init(tick: Int, track: Int, bytes: MessageBytes) {
        self.tick = tick
        self.track = track
        self.bytes = bytes
    }
}
