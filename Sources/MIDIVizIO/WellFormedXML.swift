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

    /// Nil when `bytes` are well-formed XML; else the line where the parser stopped.
    static func problem(_ bytes: [UInt8]) -> String? {
        let parser = XMLParser(data: Data(bytes))
        parser.shouldResolveExternalEntities = false
        let errors = ErrorWatch()
        parser.delegate = errors
        // `parse()` says true for a document cut short (swift-corelibs-foundation): the delegate
        // and the parser's error tell.
        guard !parser.parse() || errors.line != nil || parser.parserError != nil else { return nil }
        return "line \(errors.line ?? parser.lineNumber)"
    }

    /// Notes the first error the parser reports.
    private final class ErrorWatch: NSObject, XMLParserDelegate {
        var line: Int?

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            if line == nil { line = parser.lineNumber }
        }
    }
}
