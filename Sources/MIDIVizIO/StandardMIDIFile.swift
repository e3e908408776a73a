import CMalloc
import CSMF
import Foundation
import MIDIVizCore
import Synchronization

/// Owns a libsmf `smf_t`, loaded from bytes that `SMFFrontEnd` has made safe; freed in `deinit`.
final class StandardMIDIFile {
    private let handle: UnsafeMutablePointer<smf_t>

    /// Loads canonical SMF bytes. The corresponding C function is `smf_load_from_memory`.
    init?(canonicalBytes: [UInt8]) {
        guard
            let handle = canonicalBytes.withUnsafeBytes({ buffer in
                smf_load_from_memory(buffer.baseAddress, Int32(buffer.count))
            })
        else { return nil }
        self.handle = handle
    }

    /// `smf_delete` removes events one at a time, each removal searching, shifting and
    /// renumbering its track: quadratic (half a second for a 20,000-note file). So each event is
    /// first detached (`track` = NULL, as for an event never added) and freed alone, and the
    /// tracks emptied, before `smf_delete` frees the rest. (It removes tracks the same way, but
    /// `readTracks` loads one track a file.) The corresponding C functions are
    /// `smf_event_delete`, `g_ptr_array_set_size` and `smf_delete`.
    deinit {
        for number in 1...max(1, Int(handle.pointee.number_of_tracks)) {
            guard let track = smf_get_track_by_number(handle, Int32(number)),
                let events = track.pointee.events_array
            else { continue }
            for index in 0..<Int(events.pointee.len) {
                guard let event = events.pointee.pdata[index]?.assumingMemoryBound(to: smf_event_t.self) else { continue }
                event.pointee.track = nil
                smf_event_delete(event)
            }
            g_ptr_array_set_size(events, 0)
            track.pointee.number_of_events = 0
        }
        smf_delete(handle)
    }

    var trackCount: Int { Int(handle.pointee.number_of_tracks) }

    /// The tick of the last event of any track. The corresponding C function is `smf_get_length_pulses`.
    var lengthInTicks: Int { Int(smf_get_length_pulses(handle)) }

    /// The events of track `number` (1-based), in file order.
    func events(ofTrack number: Int) -> TrackEvents {
        guard let track = smf_get_track_by_number(handle, Int32(number)), let array = track.pointee.events_array,
            let pdata = array.pointee.pdata
        else { return TrackEvents() }
        var events = TrackEvents()
        events.reserveCapacity(Int(array.pointee.len))
        for position in 0..<Int(array.pointee.len) {
            guard let event = pdata[position]?.assumingMemoryBound(to: smf_event_t.self) else { continue }
            let length = Int(event.pointee.midi_buffer_length)
            guard length > 0, let buffer = event.pointee.midi_buffer else { continue }
            events.append(
                TrackEvent(
                    tick: Int(event.pointee.time_pulses),
                    bytes: MessageBytes(UnsafeBufferPointer(start: buffer, count: length))))
        }
        return events
    }

    /// Every track of a validated file, each loaded by libsmf on its own (`trackFiles`) and freed
    /// before the next: libsmf never holds more than a track's events per worker (a million-note
    /// file is about 200 MB of libsmf events). Two workers read alternate tracks. `tracks` is nil
    /// when libsmf refuses a track; `libraryLines` is what libsmf logged meanwhile (each worker
    /// drains its own thread's lines).
    static func readTracks(of validated: ValidatedSMF) -> (tracks: [TrackEvents]?, lengthInTicks: Int, libraryLines: [String]) {
        let count = validated.trackFiles.count
        let workers = count > 1 ? min(2, AvailableCores.count) : 1
        let results = WorkerResults(count: workers)
        GLibLogCapture.install()
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            let files = validated.trackFiles
            _ = GLibLogCapture.drain()
            var tracks: [TrackEvents] = []
            var length = 0
            for index in stride(from: worker, to: count, by: workers) {
                guard let file = StandardMIDIFile(canonicalBytes: files[index]), file.trackCount == 1 else {
                    results.store(.init(tracks: nil, length: 0, lines: GLibLogCapture.drain()), at: worker)
                    return
                }
                tracks.append(file.events(ofTrack: 1))
                length = max(length, file.lengthInTicks)
            }
            results.store(.init(tracks: tracks, length: length, lines: GLibLogCapture.drain()), at: worker)
        }
        // libsmf's events, freed track by track (mostly in the workers' malloc arenas), would
        // stay resident through the build: a million-note file's peak is 7 MB lower without
        // them. It walks every arena of the process: only for files that large.
        if validated.canonicalBytes.count >= 1 << 20 { midiviz_release_free_memory() }
        var found: [[TrackEvents]] = []
        var length = 0
        let values = results.values
        let lines = values.flatMap(\.lines)
        for value in values {
            guard let tracks = value.tracks else { return (nil, 0, lines) }
            found.append(tracks)
            length = max(length, value.length)
        }
        let tracks = (0..<count).map { found[$0 % workers][$0 / workers] }
        return (tracks, length, lines)
    }
}

/// What each worker of `readTracks` found, stored under a lock.
private final class WorkerResults: Sendable {
    struct Found: Sendable {
        var tracks: [TrackEvents]?
        var length: Int
        var lines: [String]
    }

    private let stored: Mutex<[Found]>

    init(count: Int) { stored = Mutex(Array(repeating: Found(tracks: nil, length: 0, lines: []), count: count)) }

    func store(_ result: Found, at index: Int) {
        stored.withLock { $0[index] = result }
    }

    var values: [Found] { stored.withLock { $0 } }
}

@available(*, unavailable)
extension StandardMIDIFile: Sendable {}
