/// The merged stream, with one change inside a tick: a track that releases a key is read before
/// the tracks that strike that key at the same tick, all its events of the tick with it.
/// The stream orders a tick's events by track, so a note-on in track 1 would come before a
/// note-off of the same key in track 2 and be ended by it (zero length, silent). Read this way, a
/// note struck again as another track lets the key go is a new note, drawn and heard, whatever
/// the order of the tracks; every other event keeps its place relative to its own track's. When
/// tracks would each have to come before the other (each releasing a key the other strikes),
/// the tick keeps the stream's order.
struct TickOrder<Base: IteratorProtocol<MIDIEvent>>: IteratorProtocol {
    private var base: Base
    private var waiting: MIDIEvent?
    /// This tick's events, in the order they are given, and how many have been.
    private var events: [MIDIEvent] = []
    private var given = 0
    /// Per channel × key, the first run (of one track's events) striking it in the tick
    /// numbered `firstStrikeTick`.
    private var firstStriker = [Int](repeating: 0, count: 16 * 128)
    private var firstStrikeTick = [Int](repeating: -1, count: 16 * 128)
    private var tickNumber = 0
    /// Per channel × key, the runs (of one track's events) striking and releasing it in this
    /// tick, and the keys they hold.
    private var strikers = [[Int]](repeating: [], count: 16 * 128)
    private var releasers = [[Int]](repeating: [], count: 16 * 128)
    private var touched: [Int] = []

    init(_ base: Base) { self.base = base }

    mutating func next() -> MIDIEvent? {
        if given < events.count {
            defer { given += 1 }
            return events[given]
        }
        events.removeAll(keepingCapacity: true)
        guard let first = waiting ?? base.next() else { return nil }
        waiting = nil
        events.append(first)
        while let event = base.next() {
            guard event.tick == first.tick else {
                waiting = event
                break
            }
            events.append(event)
        }
        if events[0].track != events[events.count - 1].track { reorder() }
        given = 1
        return events[0]
    }

    /// A note-on or note-off's channel × key, and whether it strikes (a note-on of velocity 0
    /// releases); nil for any other event.
    @inline(__always)
    private static func note(_ bytes: MessageBytes) -> (key: Int, strikes: Bool)? {
        guard bytes.count == 3, bytes[0] >= 0x80, bytes[0] < 0xA0 else { return nil }
        return (Int(bytes[0] & 0x0F) * 128 + Int(bytes[1] & 0x7F), bytes[0] >= 0x90 && bytes[2] > 0)
    }

    /// Whether a track releases a key that an earlier track strikes in this tick: without one,
    /// the stream's order has every releasing track first (the common case, found without
    /// building lists).
    private mutating func releasesWhatAnEarlierTrackStrikes() -> Bool {
        tickNumber += 1
        var run = 0
        for index in events.indices {
            if index > 0 && events[index].track != events[index - 1].track { run += 1 }
            guard let (key, strikes) = Self.note(events[index].bytes) else { continue }
            if strikes {
                if firstStrikeTick[key] != tickNumber {
                    firstStrikeTick[key] = tickNumber
                    firstStriker[key] = run
                }
            } else if firstStrikeTick[key] == tickNumber && firstStriker[key] < run {
                return true
            }
        }
        return false
    }

    /// Puts each releasing track's run before the runs it must precede, keeping the stream's
    /// order wherever it is free to; at once done where the stream's order already has that.
    private mutating func reorder() {
        guard releasesWhatAnEarlierTrackStrikes() else { return }
        var runs: [Range<Int>] = []
        var start = 0
        for index in 1...events.count where index == events.count || events[index].track != events[index - 1].track {
            runs.append(start..<index)
            start = index
        }
        // Per key, the runs striking it and those releasing it; each releasing run must come
        // before each other run striking the key.
        for (run, range) in runs.enumerated() {
            for index in range {
                guard let (key, strikes) = Self.note(events[index].bytes) else { continue }
                if strikers[key].isEmpty && releasers[key].isEmpty { touched.append(key) }
                if strikes {
                    if strikers[key].last != run { strikers[key].append(run) }
                } else if releasers[key].last != run {
                    releasers[key].append(run)
                }
            }
        }
        var edges: [(before: Int, after: Int)] = []
        for key in touched {
            for releaser in releasers[key] {
                for striker in strikers[key] where striker != releaser { edges.append((releaser, striker)) }
            }
            strikers[key].removeAll(keepingCapacity: true)
            releasers[key].removeAll(keepingCapacity: true)
        }
        touched.removeAll(keepingCapacity: true)
        // The runs in the stream's order, each as soon as every run it must follow has come.
        var waitingFor = [Int](repeating: 0, count: runs.count)
        var followers = [Int: [Int]]()
        for edge in edges {
            waitingFor[edge.after] += 1
            followers[edge.before, default: []].append(edge.after)
        }
        var ready = runs.indices.filter { waitingFor[$0] == 0 }
        var order: [Int] = []
        order.reserveCapacity(runs.count)
        var next = 0
        while next < ready.count {
            let run = ready[next]
            next += 1
            order.append(run)
            for follower in followers[run] ?? [] {
                waitingFor[follower] -= 1
                if waitingFor[follower] == 0 {
                    // Among the runs still to come, in the stream's order.
                    var place = next
                    while place < ready.count && ready[place] < follower { place += 1 }
                    ready.insert(follower, at: place)
                }
            }
        }
        guard order.count == runs.count else { return }
        events = order.flatMap { events[runs[$0]] }
    }
}
