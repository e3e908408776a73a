import Testing

@testable import MIDIVizCore

@Suite(.timeLimit(.minutes(30))) struct MessageBytesTests {
    /// Short messages inline and long ones in an array read back the same, and equal values
    /// compare equal however they were built.
    @Test(arguments: [0, 1, 3, 6, 7, 8, 9, 40])
    func readsBackWhatWasStored(count: Int) {
        let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 * 37 + 1) }
        let message = MessageBytes(bytes)
        #expect(Array(message) == bytes)
        #expect(message.count == count)
        var appended = MessageBytes()
        for byte in bytes { appended.append(byte) }
        #expect(appended == message && Array(appended) == bytes)
        #expect(appended.hashValue == message.hashValue)
        var copy = appended
        copy.append(0x7F)
        #expect(Array(appended) == bytes && Array(copy) == bytes + [0x7F], "a copy changes alone")
    }
}

@Suite(.timeLimit(.minutes(30))) struct MergedEventsTests {
    /// Time order; at one tick the lower track first, and within a track file order; twice.
    @Test func mergesByTickThenTrackThenFileOrder() {
        func event(_ tick: Int, _ track: Int, _ tag: UInt8) -> TrackEvent { TrackEvent(tick: tick, bytes: [0xB0, 1, tag]) }
        let tracks = [
            [event(0, 0, 1), event(10, 0, 2), event(10, 0, 3)],
            [],
            [event(5, 2, 4), event(10, 2, 5)],
            [event(0, 3, 6), event(20, 3, 7)],
        ].map(TrackEvents.init)
        let merged = MergedEvents(tracks: tracks)
        let tags = merged.map { $0.bytes[2] }
        #expect(tags == [1, 6, 4, 2, 3, 5, 7])
        #expect(merged.map { $0.bytes[2] } == tags, "walked again, the same")
        #expect(merged.underestimatedCount == 7)
        #expect(merged.map(\.track) == [0, 3, 2, 0, 0, 2, 3], "each event tagged with the track that holds it")
        let regrouped = MergedEvents(events: Array(merged), trackCount: tracks.count)
        #expect(regrouped.tracks == tracks, "a stream split back into its tracks")
    }

    /// A track's events keep ticks from 0 to the largest a MIDI file holds, with their messages.
    @Test func trackEventsKeepEveryTickAFileHolds() {
        let events = [
            TrackEvent(tick: 0, bytes: [0x90, 60, 100]), TrackEvent(tick: SMFFrontEnd.maximumTick, bytes: [0x80, 60, 0]),
            TrackEvent(tick: 1 << 30, bytes: [0xFF, 0x2F, 0]),
        ]
        let track = TrackEvents(events)
        #expect(Array(track) == events)
        #expect(track.tick(at: 1) == Int(Int32.max))
    }

    /// One word each: every event a million-note song holds stays small.
    @Test func staysSmall() {
        #expect(MemoryLayout<MessageBytes>.size == 8)
        #expect(MemoryLayout<TrackEvent>.stride == 16)
        #expect(MemoryLayout<TimedMessage>.stride == 16)
        #expect(MemoryLayout<Note>.stride == 24)
    }
}
