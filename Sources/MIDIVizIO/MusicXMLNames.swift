import Foundation
import MIDIVizCore

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A MusicXML score's title and its parts' names, with how many staves each has: MuseScore 3's
/// MIDI of a score names no track, so a song read from a score takes its title and its tracks'
/// names from the score (MuseScore's MusicXML of it). The corresponding C library is libxml2
/// (through `XMLParser`), which reads no DTD and nothing from the network.
struct MusicXMLNames: Equatable {
    /// `work-title`, else `movement-title`, else the words of a credit typed `title`, else the
    /// largest centred credit words (MuseScore writes a title frame's text only there); nil
    /// when none has text.
    var title: String?
    /// Each part in the part list's order: its `part-name` (nil when empty) and its staves.
    var parts: [(name: String?, staves: Int)]

    static func == (lhs: MusicXMLNames, rhs: MusicXMLNames) -> Bool {
        lhs.title == rhs.title && lhs.parts.map(\.name) == rhs.parts.map(\.name) && lhs.parts.map(\.staves) == rhs.parts.map(\.staves)
    }

    /// Nil when `bytes` are not a score-partwise MusicXML that can be read whole.
    init?(_ bytes: [UInt8]) {
        let parser = XMLParser(data: Data(bytes))
        parser.shouldResolveExternalEntities = false
        let reader = Reader()
        parser.delegate = reader
        // `parse()` says true for a document cut short (swift-corelibs-foundation): the delegate
        // and the parser's error tell.
        guard parser.parse(), !reader.failed, parser.parserError == nil, reader.isPartwise else { return nil }
        // The largest centred words, the first of a size (a title's second line after it).
        let centred = reader.credits.filter(\.isCentred).reduce(nil as Reader.CreditWords?) { best, words in
            (best?.size ?? -1) >= words.size ? best : words
        }
        let typed = reader.credits.first(where: \.isTitle)
        title = [reader.workTitle, reader.movementTitle, typed?.text, centred?.text].compactMap { $0 }.first { !$0.isEmpty }
        parts = reader.partIDs.map { id in (reader.partNames[id].flatMap { $0.isEmpty ? nil : $0 }, reader.staves[id] ?? 1) }
    }

    /// The name of each staff in score order (MuseScore's MIDI has a track for each, after a
    /// first one of tempo only): a part's name, with its staff's number when it has several.
    var staffNames: [String?] {
        parts.flatMap { part in
            part.staves <= 1 ? [part.name] : (1...part.staves).map { staff in part.name.map { "\($0), staff \(staff)" } }
        }
    }

    /// Names what `song` leaves unnamed: its first track by the title (the song's title, as in
    /// a MIDI file), the tracks after it by the staves, when there is one a staff.
    func name(_ song: inout Song) {
        if let title, !song.tracks.isEmpty, song.tracks[0].name?.isEmpty ?? true { song.tracks[0].name = title }
        let names = staffNames
        guard song.tracks.count == names.count + 1 else { return }
        for (index, name) in zip(song.tracks.indices.dropFirst(), names) where song.tracks[index].name?.isEmpty ?? true {
            song.tracks[index].name = name
        }
    }

    /// Collects the texts and counts as the parser goes.
    private final class Reader: NSObject, XMLParserDelegate {
        var isPartwise = false
        var failed = false
        /// Words of a credit (text on the page): their size in points, centred or not, and
        /// whether their credit is typed `title`.
        struct CreditWords {
            var text: String
            var size: Double
            var isCentred: Bool
            var isTitle: Bool
        }
        var credits: [CreditWords] = []
        private var creditIsTitle = false
        private var creditAttributes: [String: String] = [:]
        var workTitle: String?, movementTitle: String?
        var partIDs: [String] = []
        var partNames: [String: String] = [:]
        var staves: [String: Int] = [:]
        private var path: [String] = []
        private var text = ""
        private var scorePart: String?, part: String?

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            if path.isEmpty { isPartwise = elementName == "score-partwise" }
            path.append(elementName)
            text = ""
            if elementName == "score-part", let id = attributes["id"] {
                scorePart = id
                if !partIDs.contains(id) { partIDs.append(id) }
            }
            if elementName == "part", path.count == 2 { part = attributes["id"] }
            if elementName == "credit" { creditIsTitle = false }
            if elementName == "credit-words" { creditAttributes = attributes }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) { failed = true }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            let parent = path.dropLast().last
            switch elementName {
            case "work-title" where parent == "work" && workTitle == nil: workTitle = value
            case "movement-title" where path.count == 2 && movementTitle == nil: movementTitle = value
            case "part-name" where parent == "score-part":
                if let scorePart, partNames[scorePart] == nil { partNames[scorePart] = value }
            case "staves" where parent == "attributes":
                if let part, staves[part] == nil, let count = Int(value), (1...64).contains(count) { staves[part] = count }
            case "credit-type" where parent == "credit": if value == "title" { creditIsTitle = true }
            case "credit-words" where parent == "credit":
                let size = creditAttributes["font-size"].flatMap(Double.init) ?? 0
                credits.append(CreditWords(text: value, size: size, isCentred: creditAttributes["justify"] == "center", isTitle: creditIsTitle))
            case "score-part": scorePart = nil
            case "part" where path.count == 2: part = nil
            default: break
            }
            path.removeLast()
            text = ""
        }
    }
}
