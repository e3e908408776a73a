/// How a file's text bytes are read. SMF text carries no declared encoding: karaoke files are
/// UTF-8 or a Western 8-bit code page. The whole set of a song's lyrics is judged at once, by
/// what the bytes are: UTF-8 when all of it is valid UTF-8 and some of it is not ASCII, else
/// Windows-1252 (Latin-1 with the printable characters Windows puts at 0x80-0x9F).
package enum TextEncoding: String, Sendable, Equatable {
    case ascii = "ASCII", utf8 = "UTF-8", windows1252 = "Latin-1"

    /// The encoding of `texts` taken together.
    package static func detect(_ texts: [[UInt8]]) -> TextEncoding {
        guard texts.contains(where: { $0.contains { $0 >= 0x80 } }) else { return .ascii }
        // Judged on the whole, so that a character split between two syllables still counts.
        let joined = texts.flatMap { $0 }
        return String(validating: joined, as: UTF8.self) == nil ? .windows1252 : .utf8
    }

    /// The characters of each of `texts`, each cut at its first NUL (as C strings in files are).
    /// A UTF-8 character split between two texts goes whole to the first, which holds its lead byte.
    package func decode(each texts: [[UInt8]]) -> [[Unicode.Scalar]] {
        var borrowed = 0  // continuation bytes the previous text took from this one
        return texts.enumerated().map { index, text in
            var bytes = Array(text.prefix { $0 != 0 }.dropFirst(borrowed))
            borrowed = 0
            if self == .utf8, index + 1 < texts.count, !bytes.isEmpty {
                // An incomplete sequence at the end: its lead byte announces more bytes than follow.
                for back in 1...min(3, bytes.count) {
                    let byte = bytes[bytes.count - back]
                    guard byte & 0xC0 == 0x80 else {
                        let missing = (byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1) - back
                        let following = texts[index + 1].prefix(max(0, missing))
                        if missing > 0, following.count == missing, following.allSatisfy({ $0 & 0xC0 == 0x80 }) {
                            bytes += following
                            borrowed = missing
                        }
                        break
                    }
                }
            }
            return decode(bytes)
        }
    }

    /// The characters of `bytes`; invalid UTF-8 becomes U+FFFD.
    package func decode(_ bytes: [UInt8]) -> [Unicode.Scalar] {
        switch self {
        case .ascii, .utf8:
            return Array(String(decoding: bytes, as: UTF8.self).unicodeScalars)
        case .windows1252:
            return bytes.map { byte in
                guard byte >= 0x80, byte < 0xA0 else { return Unicode.Scalar(byte) }
                let value = Self.windows1252High[Int(byte - 0x80)]
                return value == 0 ? Unicode.Scalar(byte) : Unicode.Scalar(value) ?? Unicode.Scalar(byte)
            }
        }
    }

    /// `characters` with their control characters (C0, DEL, C1: a terminal's escapes, CR, LF)
    /// as spaces, as lyrics and names are shown.
    package static func controlsAsSpaces<Characters: Sequence<Unicode.Scalar>>(_ characters: Characters) -> [Unicode.Scalar] {
        characters.map { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) ? " " : $0 }
    }

    /// Windows-1252 at 0x80-0x9F (0 where it has no character: those stay C1 controls).
    private static let windows1252High: [UInt32] = [
        0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
        0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
    ]
}
