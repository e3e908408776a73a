import Foundation
import MIDIVizCore
import MIDIVizEngine

/// What made an output, kept beside it as `NAME.mp4.midiviz.json`: the input's bytes (size and
/// FNV-1a hash), every option that shapes the output (by `RenderOptions.declarations`, files as
/// absolute paths), and the midiviz version. A batch skips a song whose output and record are
/// there and match.
struct BatchRecord: Codable, Equatable {
    var inputBytes: Int
    var inputHash: String
    var options: [String: [String]]
    var version: String
    var outputBytes: Int

    enum CodingKeys: String, CodingKey {
        case inputBytes = "input_bytes", inputHash = "input_fnv1a64", options, version = "midiviz", outputBytes = "output_bytes"
    }

    init(input bytes: [UInt8], options: RenderOptions) {
        inputBytes = bytes.count
        inputHash = String(Self.hash(bytes), radix: 16)
        self.options = Self.texts(of: options)
        version = MIDIVizVersion.current
        outputBytes = 0
    }

    /// The options that shape an output, by name; files as absolute paths.
    static func texts(of options: RenderOptions) -> [String: [String]] {
        let folder = FileManager.default.currentDirectoryPath
        var texts: [String: [String]] = [:]
        for declaration in RenderOptions.declarations where declaration.shapesOutput {
            texts[declaration.name] = declaration.texts(of: options).map { declaration.isPath ? ConfigFile.resolve($0, from: folder) : $0 }
        }
        return texts
    }

    static func path(of output: String) -> String { output + ".midiviz.json" }

    static func hash(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// The record beside `output`, if there is one and it reads.
    static func read(for output: String) -> BatchRecord? {
        guard let data = FileManager.default.contents(atPath: path(of: output)) else { return nil }
        return try? JSONDecoder().decode(BatchRecord.self, from: data)
    }

    /// Writes the record under a temporary name, then renames it into place.
    func write(for output: String) throws(BatchError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(self)) ?? Data()
        try BatchReport.write(String(decoding: data, as: UTF8.self) + "\n", to: Self.path(of: output))
    }

    /// The output is there, as large as when it was made, and its record says it was made from
    /// the same input with the same options by this version (what `self` records, but for the
    /// output's size, which only the record knows).
    func isUpToDate(output: String) -> Bool {
        guard let recorded = Self.read(for: output),
              let size = (try? FileManager.default.attributesOfItem(atPath: output))?[.size] as? Int else { return false }
        var made = self
        made.outputBytes = recorded.outputBytes
        return recorded == made && size == recorded.outputBytes
    }
}
