import Foundation
import ZIPFoundation

/// Whether a compressed score (MusicXML's `.mxl`, MuseScore's `.mscz`: ZIP archives) is whole:
/// each XML file in it reads back with its checksum and is well-formed (`WellFormedXML`).
/// MuseScore reads an archive whose score is cut short up to where it stops and says nothing,
/// so it would render with some of its notes.
enum ZippedScore {
    /// A ZIP archive's first bytes (a local file header).
    static let signature: [UInt8] = [0x50, 0x4B, 0x03, 0x04]
    /// The extensions of scores that are ZIP archives.
    static let extensions: Set<String> = ["mxl", "mscz"]
    /// The extensions of the files in them that are XML.
    static let xmlExtensions: Set<String> = ["xml", "musicxml", "mscx"]
    /// An XML file larger than this is not read (a ZIP bomb); MuseScore's own scores are a few
    /// megabytes, and libxml2 checks no more than about 10 (`WellFormedXML.inputTooLarge`).
    static let largestXML: UInt64 = 64 << 20

    /// An entry that inflates to more than its declared size.
    private struct LargerThanDeclared: Error {}

    /// Nil when `bytes` are a ZIP archive whose XML files are whole; else what is wrong.
    static func problem(_ bytes: [UInt8]) -> String? {
        let archive: Archive
        do { archive = try Archive(data: Data(bytes), accessMode: .read) } catch { return "not a ZIP archive: cut short or damaged" }
        var files = 0
        var xmlFiles: [String: [UInt8]] = [:]
        for entry in archive where entry.type == .file {
            files += 1
            guard xmlExtensions.contains(URL(fileURLWithPath: entry.path).pathExtension.lowercased()) else { continue }
            guard entry.uncompressedSize <= largestXML else { return "\(entry.path) in it is over \(largestXML >> 20) MB" }
            var xml: [UInt8] = []
            do {
                // The declared size is the archive's word: inflating stops past it.
                _ = try archive.extract(entry) { chunk in
                    xml += chunk
                    if UInt64(xml.count) > entry.uncompressedSize { throw LargerThanDeclared() }
                }
            } catch is LargerThanDeclared {
                return "\(entry.path) in it is larger than the archive says: damaged"
            } catch {
                return "\(entry.path) in it cannot be read back: damaged"
            }
            if let problem = WellFormedXML.problem(xml) { return "\(entry.path) in it is \(problem)" }
            xmlFiles[entry.path] = xml
        }
        // The score is the file the container names (others, a template, are not read).
        if let container = xmlFiles["META-INF/container.xml"], let root = WellFormedXML.attribute("full-path", ofFirst: "rootfile", in: container),
            let score = xmlFiles[root], let problem = WellFormedXML.musicXMLProblem(score)
        {
            return "\(root) in it is \(problem)"
        }
        return files == 0 ? "an empty ZIP archive" : nil
    }
}
