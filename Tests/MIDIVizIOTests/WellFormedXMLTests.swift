import Foundation
import Testing

@testable import MIDIVizIO

/// A score cut short is told from a whole one before MuseScore reads it (it reads up to the cut
/// and says nothing): each fixture score is whole, and every cut of one is not.
@Suite(.timeLimit(.minutes(30))) struct WellFormedXMLTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("fixtures/sheet")

    @Test func wholeScoresAreWellFormedAndEveryCutIsNot() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.path).filter { $0.hasSuffix(".musicxml") }.sorted()
        #expect(names.count >= 3, "\(names)")
        for name in names {
            let bytes = [UInt8](try Data(contentsOf: Self.fixtures.appendingPathComponent(name)))
            #expect(WellFormedXML.problem(bytes) == nil, "\(name)")
            // Cut inside its body (the root element is open): at a tag, inside one, in text.
            for fraction in [0.2, 0.5, 0.9, 0.99] {
                let cut = Array(bytes.prefix(Int(Double(bytes.count) * fraction)))
                #expect(WellFormedXML.problem(cut) != nil, "\(name) cut at \(fraction)")
            }
        }
        #expect(WellFormedXML.problem(Array("<a><b></a>".utf8)) != nil, "crossed elements")
        #expect(WellFormedXML.problem(Array("not xml".utf8)) != nil)
        #expect(WellFormedXML.problem(Array("<a>x</a>".utf8)) == nil)
        // Cut short, and a "billion laughs" (libxml2 stops it): each said as it is.
        #expect(WellFormedXML.problem(Array("<a><b>x".utf8)) == "not well-formed XML (line 1): cut short or damaged")
        let laughs =
            #"<?xml version="1.0"?><!DOCTYPE a [<!ENTITY l "lol">"#
            + (1...9).map { level in "<!ENTITY l\(level) \"" + String(repeating: "&l\(level == 1 ? "" : String(level - 1));", count: 10) + "\">" }.joined()
            + "]><a>&l9;</a>"
        #expect(WellFormedXML.problem(Array(laughs.utf8))?.hasSuffix("its entities expand without bound") == true, "\(laughs)")
        // Past libxml2's 10 MB a whole document is not called cut short: it is left to MuseScore.
        let big = "<a>" + String(repeating: "<b>a large score</b>\n", count: 500_000) + "</a>"
        #expect(big.utf8.count > 10_000_000 && WellFormedXML.problem(Array(big.utf8)) == nil)
        // The root named after a comment; a note anywhere in a partwise score; other XML is not MusicXML.
        #expect(WellFormedXML.musicXMLProblem(Array(#"<?xml version="1.0"?><!-- x --><score-timewise version="3.1"/>"#.utf8)) == WellFormedXML.timewiseRefused)
        #expect(WellFormedXML.musicXMLProblem(Array(#"<score-partwise><part><measure><note/></measure></part></score-partwise>"#.utf8)) == nil)
        #expect(WellFormedXML.musicXMLProblem(Array(#"<score-partwise><part><measure/></part></score-partwise>"#.utf8))?.contains("no notes") == true)
        #expect(WellFormedXML.musicXMLProblem(Array(#"<svg><note/></svg>"#.utf8)) == nil)
    }
}
