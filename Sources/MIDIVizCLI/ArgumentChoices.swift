import ArgumentParser
import Foundation
import MIDIVizEngine

/// Options that may stand without their value (`--labels` alone is `--labels names`), from
/// their declarations.
enum BareOptions {
    /// Each such option's flag, its value when it stands alone, and its choices.
    static let defaults: [String: (value: String, choices: Set<String>)] = Dictionary(
        uniqueKeysWithValues: RenderOptions.declarations.compactMap { declaration in
            declaration.bare.map { ("--" + declaration.name, ($0.value, Set(declaration.choices))) }
        })

    /// The arguments with each bare option's value put in: where the option ends the line or
    /// another option or a file name (`--labels song.mid`) follows it. Any other word is left as
    /// its value, so that a misspelt one is refused by name.
    static func expand(_ arguments: [String]) -> [String] {
        var result: [String] = []
        for (index, argument) in arguments.enumerated() {
            if argument == "--" { return result + arguments[index...] }
            result.append(argument)
            guard let bare = defaults[argument] else { continue }
            guard index + 1 < arguments.count else { result.append(bare.value); continue }
            let next = arguments[index + 1]
            if bare.choices.contains(next) { continue }
            if next.hasPrefix("-") || next.contains(".") || next.contains("/") || FileManager.default.fileExists(atPath: next) {
                result.append(bare.value)
            }
        }
        return result
    }
}

/// `frame --at`: seconds (`12.5`) or `mm:ss.fff`.
struct AtTime: ExpressibleByArgument {
    var seconds: Double

    init?(argument: String) {
        guard let seconds = SongTime.seconds(argument) else { return nil }
        self.seconds = seconds
    }
}

/// `--segment K/N`.
struct SegmentSpec: ExpressibleByArgument {
    let segment: RenderSegment

    init?(argument: String) {
        let parts = argument.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]),
            let segment = RenderSegment(index: index, count: count)
        else { return nil }
        self.segment = segment
    }
}

enum ProgressStyle: String, ExpressibleByArgument {
    case bar, json
}
