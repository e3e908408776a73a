import ArgumentParser
import Foundation
import MIDIVizCore

extension RenderSettings.Style: ExpressibleByArgument {}
extension RenderSettings.ColorBy: ExpressibleByArgument {}
extension RenderSettings.BarsLayout: ExpressibleByArgument {}
extension RenderSettings.KeyRange: ExpressibleByArgument {}
extension RenderSettings.Labels: ExpressibleByArgument {}

extension ColorScheme: ExpressibleByArgument {}

/// Options that may stand without their value: `--labels` alone is `--labels names`.
enum BareOptions {
    /// Each option's value when it stands alone, its value for "none" (`labels = false` in a
    /// config file or a batch manifest), and its choices.
    static let defaults: [String: (value: String, off: String, choices: Set<String>)] = [
        "--labels": ("names", RenderSettings.Labels.off.rawValue, Set(RenderSettings.Labels.allCases.map(\.rawValue))),
    ]

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

/// `--size`: `WxH` or a name.
struct FrameSize: ExpressibleByArgument, Equatable {
    var width: Int
    var height: Int

    static let named: [String: FrameSize] = [
        "720p": FrameSize(width: 1280, height: 720), "1080p": FrameSize(width: 1920, height: 1080),
        "4k": FrameSize(width: 3840, height: 2160), "square": FrameSize(width: 1080, height: 1080),
        "vertical": FrameSize(width: 1080, height: 1920),
    ]

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    init?(argument: String) {
        if let size = Self.named[argument.lowercased()] { self = size; return }
        let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) else { return nil }
        self.init(width: width, height: height)
    }

    /// As a user types it, in `--help` and the man page.
    var defaultValueDescription: String { "\(width)x\(height)" }

    /// What shells complete; any `WIDTHxHEIGHT` is accepted too.
    static var defaultCompletionKind: CompletionKind { .list(["720p", "1080p", "4k", "square", "vertical", "1920x1080"]) }
}

/// A time in the song: seconds (`12.5`) or `mm:ss.fff`.
struct SongTime: ExpressibleByArgument {
    var seconds: Double

    init?(argument: String) {
        let parts = argument.split(separator: ":", omittingEmptySubsequences: false)
        switch parts.count {
        case 1:
            guard let value = Double(argument), value.isFinite, value >= 0 else { return nil }
            seconds = value
        case 2:
            // Digits only before the colon: `-0:01` is not one second.
            guard !parts[0].isEmpty, parts[0].allSatisfy({ $0.isASCII && $0.isNumber }), let minutes = Int(parts[0]),
                  let rest = Double(parts[1]), rest >= 0, rest < 60 else { return nil }
            seconds = Double(minutes) * 60 + rest
        default:
            return nil
        }
    }
}

/// `--background`: `#RRGGBB` (a gradient from it) or `transparent`.
enum Background: ExpressibleByArgument, Equatable {
    case color(RGBA)
    case transparent

    init?(argument: String) {
        if argument.lowercased() == "transparent" { self = .transparent; return }
        guard let color = RGBA(hex: argument) else { return nil }
        self = .color(color)
    }

    static var defaultCompletionKind: CompletionKind { .list(["transparent", "#202040"]) }
}

/// A colour as `#RRGGBB`.
extension RGBA: ExpressibleByArgument {
    public init?(argument: String) { self.init(hex: argument) }
}

/// `--track-color 2=#ff8800`, `--channel-color 10=#808080`: a number and a colour.
struct NumberedColor: ExpressibleByArgument, Equatable {
    var number: Int
    var color: RGBA

    init?(argument: String) {
        let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, let number = Int(parts[0].trimmingCharacters(in: .whitespaces)),
              let color = RGBA(hex: parts[1].trimmingCharacters(in: .whitespaces)) else { return nil }
        self.number = number
        self.color = color
    }

    /// As typed: `2=#FF8800`.
    var text: String { "\(number)=" + color.hex }
}
