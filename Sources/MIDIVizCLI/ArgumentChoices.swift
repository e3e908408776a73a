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

/// `frame --at`: seconds (`12.5`), `mm:ss.fff` or `bar:N`, as `--from` takes them; any other
/// text is kept, to be refused as `--from` refuses it (argument-parser's own message would not
/// say what a time is).
struct AtTime: ExpressibleByArgument {
    let text: String

    init?(argument: String) { text = argument }

    /// The time, or the error refusing the text (64).
    func time() throws -> TimeSpec {
        guard let time = TimeSpec(optionText: text) else {
            throw fail(OptionError.invalid(option: "at", value: text, expected: TimeSpec.expected).message(prefix: "--"), code: 64)
        }
        return time
    }
}

/// `--segment K/N`.
enum SegmentSpec: ExpressibleByArgument {
    case fixed(RenderSegment)
    /// K and N from the engine's variables, as `batch --shard auto` finds them.
    case auto

    init?(argument: String) {
        if argument == "auto" {
            self = .auto
            return
        }
        let parts = argument.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]),
            let segment = RenderSegment(index: index, count: count)
        else { return nil }
        self = .fixed(segment)
    }

    /// The segment: as given, or found in `environment` (a Slurm array, GitLab `parallel:`, a
    /// Kubernetes Indexed Job or MIDIVIZ_SHARD=K/N).
    func resolve(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws -> RenderSegment {
        switch self {
        case .fixed(let segment): return segment
        case .auto:
            let shard: BatchShard
            do throws(BatchError) {
                shard = try BatchShard.fromEnvironment(environment)
            } catch {
                throw fail("--segment auto: \(error.message)", code: 64)
            }
            guard let segment = RenderSegment(index: shard.index, count: shard.count) else {
                throw fail("--segment auto: the environment gives segment \(shard), past \(RenderSegment.maximumCount) segments", code: 64)
            }
            return segment
        }
    }
}

enum ProgressStyle: String, ExpressibleByArgument {
    case bar, json
}
