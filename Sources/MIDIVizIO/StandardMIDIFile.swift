import CSMF
import MIDIVizCore

/// Owns a libsmf `smf_t`, loaded from bytes that `SMFFrontEnd` has made safe; freed in `deinit`.
final class StandardMIDIFile {
    private let handle: UnsafeMutablePointer<smf_t>

    /// Loads canonical SMF bytes. The corresponding C function is `smf_load_from_memory`.
    init?(canonicalBytes: [UInt8]) {
        guard let handle = canonicalBytes.withUnsafeBytes({ buffer in
            smf_load_from_memory(buffer.baseAddress, Int32(buffer.count))
        }) else { return nil }
        self.handle = handle
    }

    /// `smf_delete` removes events one at a time, each removal searching, shifting and
    /// renumbering its track, and then tracks the same way: quadratic in both (half a second
    /// for a 20,000-note file, seconds for 65,535 tracks). So each event is first detached
    /// (`track` = NULL, as for an event never added) and freed alone, then each track detached
    /// (`smf` = NULL) and freed alone, before `smf_delete` frees the rest. The corresponding C
    /// functions are `smf_event_delete`, `smf_track_delete`, `g_ptr_array_set_size` and `smf_delete`.
    deinit {
        for number in 1...max(1, Int(handle.pointee.number_of_tracks)) {
            guard let track = smf_get_track_by_number(handle, Int32(number)),
                  let events = track.pointee.events_array else { continue }
            for index in 0..<Int(events.pointee.len) {
                guard let event = events.pointee.pdata[index]?.assumingMemoryBound(to: smf_event_t.self) else { continue }
                event.pointee.track = nil
                smf_event_delete(event)
            }
            g_ptr_array_set_size(events, 0)
            track.pointee.number_of_events = 0
        }
        for number in 1...max(1, Int(handle.pointee.number_of_tracks)) {
            guard let track = smf_get_track_by_number(handle, Int32(number)) else { continue }
            track.pointee.smf = nil
            smf_track_delete(track)
        }
        if let tracks = handle.pointee.tracks_array { g_ptr_array_set_size(tracks, 0) }
        handle.pointee.number_of_tracks = 0
        smf_delete(handle)
    }

    var trackCount: Int { Int(handle.pointee.number_of_tracks) }

    /// The tick of the last event of any track. The corresponding C function is `smf_get_length_pulses`.
    var lengthInTicks: Int { Int(smf_get_length_pulses(handle)) }

    /// Every event of every track, merged in time order (ties: the lower track first, then
    /// file order), copied into Swift values. libsmf's own `smf_get_next_event` looks at every
    /// track for every event (65,535 tracks took 40 s): this merges the tracks' event arrays
    /// with a heap instead. The corresponding C function is `smf_get_track_by_number`.
    func mergedEvents() -> [MIDIEvent] {
        var tracks: [(events: UnsafeMutablePointer<gpointer?>, count: Int)] = []
        var total = 0
        for number in 1...max(1, trackCount) {
            guard let track = smf_get_track_by_number(handle, Int32(number)), let array = track.pointee.events_array,
                  array.pointee.len > 0, let pdata = array.pointee.pdata else {
                tracks.append((UnsafeMutablePointer(bitPattern: 1)!, 0))
                continue
            }
            tracks.append((pdata, Int(array.pointee.len)))
            total += Int(array.pointee.len)
        }
        func event(_ track: Int, _ position: Int) -> UnsafeMutablePointer<smf_event_t> {
            tracks[track].events[position]!.assumingMemoryBound(to: smf_event_t.self)
        }
        var merge = TrackMerge(heads: tracks.indices.compactMap { track in
            tracks[track].count > 0 ? (Int(event(track, 0).pointee.time_pulses), track) : nil
        })
        var positions = [Int](repeating: 0, count: tracks.count)
        var events: [MIDIEvent] = []
        events.reserveCapacity(total)
        while let track = merge.first {
            let current = event(track, positions[track])
            positions[track] += 1
            let next = positions[track] < tracks[track].count ? Int(event(track, positions[track]).pointee.time_pulses) : nil
            merge.replaceFirst(nextTick: next)
            let length = Int(current.pointee.midi_buffer_length)
            guard length > 0, let buffer = current.pointee.midi_buffer else { continue }
            events.append(MIDIEvent(tick: Int(current.pointee.time_pulses), track: track,
                                    bytes: Array(UnsafeBufferPointer(start: buffer, count: length))))
        }
        return events
    }
}

/// A binary min-heap of the tracks' next events, by (tick, track): which track to take from next.
struct TrackMerge {
    private var heap: [(tick: Int, track: Int)]

    init(heads: [(tick: Int, track: Int)]) {
        heap = heads
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
    }

    /// The track whose next event comes first.
    var first: Int? { heap.first?.track }

    /// Advances the first track to its next event's tick, or drops it when it has none.
    mutating func replaceFirst(nextTick: Int?) {
        if let nextTick {
            heap[0].tick = nextTick
        } else {
            heap.swapAt(0, heap.count - 1)
            heap.removeLast()
        }
        if !heap.isEmpty { siftDown(0) }
    }

    private func precedes(_ a: Int, _ b: Int) -> Bool {
        (heap[a].tick, heap[a].track) < (heap[b].tick, heap[b].track)
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

@available(*, unavailable)
extension StandardMIDIFile: Sendable {}
