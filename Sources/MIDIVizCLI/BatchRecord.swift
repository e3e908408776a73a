import Foundation
import MIDIVizCore

/// What made an output, kept beside it as `NAME.mp4.midiviz.json`: the input's bytes (size and
/// FNV-1a hash), every option that shapes the output, and the midiviz version. A batch skips a
/// song whose output and record are there and match.
struct BatchRecord: Equatable {
    var inputBytes: Int
    var inputHash: UInt64
    var options: String
    var version: String
    var outputBytes: Int

    static func path(of output: String) -> String { output + ".midiviz.json" }

    static func hash(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    var json: JSONValue {
        .object([("input_bytes", .int(inputBytes)), ("input_fnv1a64", .string(String(inputHash, radix: 16))),
                 ("options", .string(options)), ("midiviz", .string(version)), ("output_bytes", .int(outputBytes))])
    }

    /// The record beside `output`, if there is one and it reads.
    static func read(for output: String) -> BatchRecord? {
        guard let data = FileManager.default.contents(atPath: path(of: output)),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let inputBytes = object["input_bytes"] as? Int, let hashText = object["input_fnv1a64"] as? String,
              let inputHash = UInt64(hashText, radix: 16), let options = object["options"] as? String,
              let version = object["midiviz"] as? String, let outputBytes = object["output_bytes"] as? Int
        else { return nil }
        return BatchRecord(inputBytes: inputBytes, inputHash: inputHash, options: options, version: version, outputBytes: outputBytes)
    }

    /// Writes the record under a temporary name, then renames it into place.
    func write(for output: String) throws(BatchError) {
        try BatchReport.write(json.text + "\n", to: Self.path(of: output))
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
