/// Which notes are drawn, and in which colour where the user chose one: colours per track and
/// per channel, hidden tracks and channels, or only some tracks. Tracks are numbered from 0 as
/// `midiviz info` lists them, channels from 1 to 16 as musicians count them.
package struct TrackLook: Sendable, Equatable {
    package var trackColors: [Int: RGBA] = [:]
    package var channelColors: [Int: RGBA] = [:]
    package var hiddenTracks: Set<Int> = []
    package var hiddenChannels: Set<Int> = []
    /// When not empty, only these tracks are drawn.
    package var onlyTracks: Set<Int> = []

    package init() {}

    /// Whether any note may be hidden.
    package var hidesAny: Bool { !hiddenTracks.isEmpty || !hiddenChannels.isEmpty || !onlyTracks.isEmpty }

    package func shows(_ note: Note) -> Bool {
        if !onlyTracks.isEmpty && !onlyTracks.contains(note.track) { return false }
        return !hiddenTracks.contains(note.track) && !hiddenChannels.contains(Int(note.channel) + 1)
    }

    /// The colour chosen for the note's track, else for its channel; nil for the scheme's.
    package func color(of note: Note) -> RGBA? {
        if trackColors.isEmpty && channelColors.isEmpty { return nil }
        return trackColors[note.track] ?? channelColors[Int(note.channel) + 1]
    }
}

extension TrackLook: CustomStringConvertible, CustomDebugStringConvertible {
    /// The same text for the same look, whatever order its sets and dictionaries hold it in
    /// (what `batch` compares to tell whether a video is up to date).
    package var description: String {
        func colors(_ colors: [Int: RGBA]) -> String { "[" + colors.keys.sorted().map { "\($0): \(colors[$0]!.hex)" }.joined(separator: ", ") + "]" }
        func numbers(_ set: Set<Int>) -> String { "\(set.sorted())" }
        return "TrackLook(trackColors: \(colors(trackColors)), channelColors: \(colors(channelColors)), hiddenTracks: \(numbers(hiddenTracks)), "
            + "hiddenChannels: \(numbers(hiddenChannels)), onlyTracks: \(numbers(onlyTracks)))"
    }

    package var debugDescription: String { description }
}

extension Song {
    /// The song without what `look` hides: its notes are not drawn.
    package func showing(_ look: TrackLook) -> Song {
        guard look.hidesAny else { return self }
        var song = self
        song.notes = notes.filter(look.shows)
        return song
    }

    /// The song with the hidden notes silent too: their note-ons, and the note-offs that end
    /// them, are taken out of what the synthesizer plays (controllers and programs stay).
    package func muting(hiddenBy look: TrackLook) -> Song {
        guard look.hidesAny else { return self }
        // A hidden note's start, channel and key: its note-on in the synthesizer's events.
        struct Start: Hashable { var seconds: Double; var slot: Int }
        var hidden = Set<Start>()
        for note in notes where !look.shows(note) {
            hidden.insert(Start(seconds: note.startSeconds, slot: Int(note.channel) * 128 + Int(note.pitch)))
        }
        guard !hidden.isEmpty else { return self }
        var song = self
        var silenced = [Bool](repeating: false, count: 16 * 128)
        song.synthEvents = synthEvents.filter { event in
            let bytes = event.bytes
            guard bytes.count >= 3 else { return true }
            let slot = Int(bytes[0] & 0x0F) * 128 + Int(bytes[1] & 0x7F)
            switch bytes[0] & 0xF0 {
            case 0x90 where bytes[2] > 0:
                silenced[slot] = hidden.contains(Start(seconds: event.seconds, slot: slot))
                return !silenced[slot]
            case 0x80, 0x90:
                defer { silenced[slot] = false }
                return !silenced[slot]
            default:
                return true
            }
        }
        return song
    }
}
