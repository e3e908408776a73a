import Foundation

/// The keys of a JSON object's top level as written, in order and with any given twice:
/// `JSONDecoder` keeps one of two equal keys and says nothing, where other readers (Python,
/// JavaScript) keep the other.
enum JSONObjectKeys {
    /// The keys of `text`, a valid JSON object (already decoded as one); nil if it is not one.
    static func keys(of text: Substring) -> [String]? {
        let bytes = Array(text.utf8)
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        var keys: [String] = []
        var depth = 0
        var expectsKey = false
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case quote:
                var end = index + 1
                while end < bytes.count && bytes[end] != quote { end += bytes[end] == backslash ? 2 : 1 }
                guard end < bytes.count else { return nil }
                if depth == 1 && expectsKey {
                    // Decoded as JSON decodes it: `"st\u0079le"` is `style`.
                    guard let key = try? JSONDecoder().decode(String.self, from: Data(bytes[index...end])) else { return nil }
                    keys.append(key)
                    expectsKey = false
                }
                index = end
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                if depth == 1 { expectsKey = bytes[index] == UInt8(ascii: "{") }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
            case UInt8(ascii: ","):
                if depth == 1 { expectsKey = true }
            default:
                break
            }
            index += 1
        }
        return keys
    }
}
