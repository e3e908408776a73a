/// The headers of a Soft Karaoke (`.kar`) file: text events (or lyric events, in some files)
/// that begin with `@` and a capital letter. `@K` names the kind of file ("MIDI KARAOKE FILE"),
/// `@V` its version, `@I` information, `@L` the language; the first `@T` is the song's title and
/// the `@T` after it the artist and other credits. They are not words to sing.
package struct KaraokeHeaders: Sendable, Equatable {
    /// The first `@T`, trimmed; nil when there is none (or it is blank).
    package var title: String?
    /// The `@T` lines after the first: the artist, the author.
    package var credits: [String]

    /// Whether an event's bytes are a header: `@` and a capital letter.
    package static func isHeader(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 2 && bytes[0] == UInt8(ascii: "@") && (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(bytes[1])
    }

    /// The headers of `song`'s text and lyric events, decoded as its lyrics are.
    package init(song: Song) {
        let texts = song.texts.map(\.bytes)
        let encoding = TextEncoding.detect(texts)
        var titles: [String] = []
        for bytes in texts where Self.isHeader(bytes) && bytes[1] == UInt8(ascii: "T") {
            let scalars = encoding.decode(Array(bytes.dropFirst(2).prefix { $0 != 0 }))
            let text = String(String.UnicodeScalarView(scalars.map { $0.value < 0x20 ? " " : $0 }))
            let trimmed = text.trimmingSpaces
            if !trimmed.isEmpty { titles.append(trimmed) }
        }
        title = titles.first
        credits = Array(titles.dropFirst())
    }
}

extension Song {
    /// The title a render shows unless told otherwise: the `.kar` title (the first `@T`), else
    /// the first track's name. A name that is itself a karaoke header is not shown as it is:
    /// `@TTitle` is `Title`, any other (`@KMIDI KARAOKE FILE`) no title.
    package var defaultTitle: String? {
        if let title = KaraokeHeaders(song: self).title { return title }
        guard let name = tracks.first?.name else { return nil }
        let bytes = Array(name.utf8)
        guard KaraokeHeaders.isHeader(bytes) else { return name }
        let title = String(name.dropFirst(2)).trimmingSpaces
        return bytes[1] == UInt8(ascii: "T") && !title.isEmpty ? title : nil
    }
}

extension String {
    /// Without spaces at either end.
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
