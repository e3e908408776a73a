import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Whether an uncompressed score (MusicXML, MuseScore's `.mscx`) is whole XML: MuseScore reads
/// a file cut short up to where it stops and says nothing, so a score missing its end would
/// render with some of its notes. The corresponding C library is libxml2 (through `XMLParser`),
/// which reads no DTD and nothing from the network.
enum WellFormedXML {
    /// The extensions of scores that are plain XML.
    static let extensions: Set<String> = ["musicxml", "xml", "mscx"]

    /// libxml2's error for entities that expand without bound (a loop, or a "billion laughs").
    static let entityLoop = 89
    /// libxml2's internal error, which it gives for a document past its size limit ("Huge input
    /// lookup", about 10 MB).
    static let inputTooLarge = 1

    /// Nil when `bytes` are well-formed XML; else why not, for a message: "not well-formed XML
    /// (line 3): cut short or damaged".
    static func problem(_ bytes: [UInt8]) -> String? {
        let parser = XMLParser(data: Data(bytes))
        parser.shouldResolveExternalEntities = false
        let errors = ErrorWatch()
        parser.delegate = errors
        // `parse()` says true for a document cut short (swift-corelibs-foundation): the delegate
        // and the parser's error tell.
        guard !parser.parse() || errors.line != nil || parser.parserError != nil else { return nil }
        let code = errors.code ?? (parser.parserError as NSError?)?.code
        // libxml2 reads no more than about 10 MB of one document without XML_PARSE_HUGE (which
        // would also lift its guard against entity bombs): a larger score is left to MuseScore,
        // unchecked, as before this check.
        if code == inputTooLarge { return nil }
        let why = code == entityLoop ? "its entities expand without bound" : "cut short or damaged"
        return "not well-formed XML (line \(errors.line ?? parser.lineNumber)): \(why)"
    }

    /// Why a score-timewise MusicXML is refused.
    static let timewiseRefused = "a score-timewise MusicXML, which MuseScore 3 does not read: convert it to score-partwise"

    /// Why MuseScore 3 cannot read well-formed `bytes` that are MusicXML, if it cannot: a
    /// score-timewise one, or one with no notes (MuseScore crashes on one without parts, and
    /// finds nothing in one without notes). Nil for other XML.
    static func musicXMLProblem(_ bytes: [UInt8]) -> String? {
        let (root, note) = firstElement("note", in: bytes)
        switch root {
        case "score-timewise": return timewiseRefused
        case "score-partwise" where note == nil: return "a MusicXML score with no notes in it (no <note> element)"
        default: return nil
        }
    }

    /// The attribute `attribute` of the first element named `element` in well-formed `bytes`.
    static func attribute(_ attribute: String, ofFirst element: String, in bytes: [UInt8]) -> String? {
        firstElement(element, in: bytes).attributes?[attribute]
    }

    /// In one reading of `bytes`, up to the first element named `name`: the root element's
    /// name, and that element's attributes (nil when there is none).
    private static func firstElement(_ name: String, in bytes: [UInt8]) -> (root: String?, attributes: [String: String]?) {
        let parser = XMLParser(data: Data(bytes))
        parser.shouldResolveExternalEntities = false
        let watch = ElementWatch(name)
        parser.delegate = watch
        _ = parser.parse()
        return (watch.root, watch.attributes)
    }

    /// Notes the root element's name and the attributes of the first element of one name, and
    /// stops there.
    private final class ElementWatch: NSObject, XMLParserDelegate {
        let name: String
        var root: String?
        var attributes: [String: String]?

        init(_ name: String) { self.name = name }

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            if root == nil { root = elementName }
            guard elementName == name else { return }
            self.attributes = attributes
            parser.abortParsing()
        }
    }

    /// Notes the first error the parser reports.
    private final class ErrorWatch: NSObject, XMLParserDelegate {
        var line: Int?
        var code: Int?

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            guard line == nil else { return }
            line = parser.lineNumber
            code = (parseError as NSError).code
        }
    }
}
