/// One track's events in file order, their ticks and messages kept in two arrays: 12 bytes an
/// event where a `TrackEvent` takes 16 (a million-note song holds two million while it is built).
/// Ticks fit 31 bits (`SMFFrontEnd.maximumTick`).
package struct TrackEvents: RandomAccessCollection, Sendable, Equatable {
    private var ticks: [Int32] = []
    private var messages: [MessageBytes] = []

    package init() {}

    package init(_ events: some Sequence<TrackEvent>) {
        for event in events { append(event) }
    }

    package mutating func reserveCapacity(_ count: Int) {
        ticks.reserveCapacity(count)
        messages.reserveCapacity(count)
    }

    package mutating func append(_ event: TrackEvent) {
        precondition((0...SMFFrontEnd.maximumTick).contains(event.tick), "a tick beyond what a MIDI file holds")
        ticks.append(Int32(event.tick))
        messages.append(event.bytes)
    }

    package var startIndex: Int { 0 }
    package var endIndex: Int { ticks.count }

    package subscript(position: Int) -> TrackEvent {
        TrackEvent(tick: Int(ticks[position]), bytes: messages[position])
    }

    /// The tick of event `position`, without its message.
    package func tick(at position: Int) -> Int { Int(ticks[position]) }
}
