import Algorithms

/// What the pedals do to how long notes sound, as the synthesizer hears them: a note released
/// while its channel's sustain pedal (CC 64) is down sounds on until the pedal lifts; one
/// sounding when the sostenuto pedal (CC 66) goes down sounds on until that pedal lifts. Either
/// stops early when the same key is struck again on the channel (FluidSynth releases the old
/// voice then) and at the song's end (where the bouncer releases everything).
package struct SustainPedal: Sendable {
    /// The times a channel's pedal is down: [down, up), in order.
    package struct Span: Sendable, Equatable {
        package var channel: Int
        package var down: Double
        package var up: Double
    }

    /// Sustain pedal spans, every channel, by `down`.
    package let sustain: [Span]
    /// Sostenuto pedal spans, every channel, by `down`.
    package let sostenuto: [Span]

    package init(events: [TimedMessage], songEnd: Double) {
        var sustain: [Span] = [], sostenuto: [Span] = []
        var sustainDown = [Double?](repeating: nil, count: 16), sostenutoDown = [Double?](repeating: nil, count: 16)
        for event in events where event.bytes.count >= 3 && event.bytes[0] & 0xF0 == 0xB0 {
            let channel = Int(event.bytes[0] & 0x0F), controller = event.bytes[1], isDown = event.bytes[2] >= 64
            func change(_ down: inout [Double?], _ spans: inout [Span], pressed: Bool) {
                if pressed, down[channel] == nil { down[channel] = event.seconds }
                if !pressed, let start = down[channel] {
                    if event.seconds > start { spans.append(Span(channel: channel, down: start, up: event.seconds)) }
                    down[channel] = nil
                }
            }
            switch controller {
            case 64: change(&sustainDown, &sustain, pressed: isDown)
            case 66: change(&sostenutoDown, &sostenuto, pressed: isDown)
            case 121:  // reset all controllers: the pedals lift
                change(&sustainDown, &sustain, pressed: false)
                change(&sostenutoDown, &sostenuto, pressed: false)
            default: break
            }
        }
        for channel in 0..<16 {
            if let start = sustainDown[channel], songEnd > start { sustain.append(Span(channel: channel, down: start, up: songEnd)) }
            if let start = sostenutoDown[channel], songEnd > start { sostenuto.append(Span(channel: channel, down: start, up: songEnd)) }
        }
        self.sustain = sustain.sorted { ($0.down, $0.channel) < ($1.down, $1.channel) }
        self.sostenuto = sostenuto.sorted { ($0.down, $0.channel) < ($1.down, $1.channel) }
    }

    package var isEmpty: Bool { sustain.isEmpty && sostenuto.isEmpty }

    /// Until when each note sounds (its end, or later under a pedal); nil when no pedal is used.
    package func soundingEnds(of notes: [Note], drumChannel: UInt8) -> [Double]? {
        guard !isEmpty else { return nil }
        let sustainByChannel = Dictionary(grouping: sustain, by: \.channel)
        let sostenutoByChannel = Dictionary(grouping: sostenuto, by: \.channel)
        /// The span of `spans` (sorted by `down`) holding `time`, if any.
        func span(in spans: [Span]?, holding time: Double) -> Span? {
            guard let spans else { return nil }
            let low = spans.partitioningIndex { $0.down > time }
            guard low > 0, time < spans[low - 1].up else { return nil }
            return spans[low - 1]
        }
        // The next start of the same key on the same channel, for each note: by key, in order.
        var nextStrike = [Double](repeating: .infinity, count: notes.count)
        var lastByKey: [Int: Int] = [:]
        for index in notes.indices.sorted(by: { (notes[$0].startSeconds, $0) < (notes[$1].startSeconds, $1) }) {
            let key = Int(notes[index].channel) * 128 + Int(notes[index].pitch)
            if let previous = lastByKey[key] { nextStrike[previous] = notes[index].startSeconds }
            lastByKey[key] = index
        }
        return notes.indices.map { index in
            let note = notes[index]
            guard note.channel != drumChannel else { return note.endSeconds }
            var end = note.endSeconds
            if let held = span(in: sustainByChannel[Int(note.channel)], holding: note.endSeconds) { end = max(end, held.up) }
            // Sostenuto keeps the notes sounding when it went down.
            if let caught = span(in: sostenutoByChannel[Int(note.channel)], holding: note.endSeconds),
                note.startSeconds <= caught.down
            {
                end = max(end, caught.up)
            }
            return max(note.endSeconds, min(end, nextStrike[index]))
        }
    }

    /// Whether any channel's sustain or sostenuto pedal is down at `seconds`.
    package func isDown(at seconds: Double) -> Bool {
        let holds = { (span: Span) in span.down <= seconds && seconds < span.up }
        return sustain.contains(where: holds) || sostenuto.contains(where: holds)
    }
}
