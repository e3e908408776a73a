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

    deinit { smf_delete(handle) }

    var trackCount: Int { Int(handle.pointee.number_of_tracks) }

    /// The tick of the last event of any track. The corresponding C function is `smf_get_length_pulses`.
    var lengthInTicks: Int { Int(smf_get_length_pulses(handle)) }

    /// Every event of every track, merged in time order, copied into Swift values.
    /// The corresponding C functions are `smf_rewind` and `smf_get_next_event`.
    func mergedEvents() -> [MIDIEvent] {
        smf_rewind(handle)
        var events: [MIDIEvent] = []
        while let event = smf_get_next_event(handle) {
            let length = Int(event.pointee.midi_buffer_length)
            guard length > 0, let buffer = event.pointee.midi_buffer else { continue }
            events.append(MIDIEvent(tick: Int(event.pointee.time_pulses),
                                    track: Int(event.pointee.track_number) - 1,
                                    bytes: Array(UnsafeBufferPointer(start: buffer, count: length))))
        }
        return events
    }
}

@available(*, unavailable)
extension StandardMIDIFile: Sendable {}
