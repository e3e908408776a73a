import ArgumentParser
import Foundation

/// A batch manifest: a `.jsonl` file given as an input, one song per line as a JSON object:
/// `{"input": "a.mid", "output": "a-bars.mp4", "style": "bars", "from": "0:10"}`. `input` is
/// relative to the manifest's folder; `output` (optional) to `--output-dir`; every other key is a
/// render option by its long name, over the command line's (`"chords": true` for a flag).
enum BatchManifest {
    /// The options one line sets, applied to copies of the command line's.
    struct Options {
        var look: LookOptions
        var sound: AudioOptions
        var outputs: OutputOptions
    }

    static func isManifest(_ path: String) -> Bool { path.lowercased().hasSuffix(".jsonl") }

    /// The songs of a manifest, each with its options; any bad line refuses the whole batch.
    static func songs(_ path: String, outputDirectory: String, base: Options) throws(BatchError) -> [(BatchSong, Options)] {
        guard let data = FileManager.default.contents(atPath: path) else { throw .usage("\(path): cannot read the manifest") }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var songs: [(BatchSong, Options)] = []
        for (index, line) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let where_ = "\(path):\(index + 1)"
            guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] else {
                throw .usage("\(where_): not a JSON object")
            }
            guard let input = object["input"] as? String, !input.isEmpty else { throw .usage("\(where_): no \"input\"") }
            let inputPath = input.hasPrefix("/") ? input : folder + "/" + input
            var relative = input
            if let output = object["output"] {
                guard let name = output as? String, !name.isEmpty, !name.hasPrefix("/"), !name.split(separator: "/").contains("..") else {
                    throw .usage("\(where_): \"output\" must be a name inside --output-dir")
                }
                relative = name
            }
            var options = base
            for (key, value) in object.sorted(by: { $0.key < $1.key }) where key != "input" && key != "output" {
                let text: String
                switch value {
                case let string as String: text = string
                case let number as NSNumber: text = number.stringValue  // true and false read as 1 and 0
                default: throw .usage("\(where_): \"\(key)\" must be a string, number or true/false")
                }
                do {
                    try apply(key, text, to: &options)
                } catch {
                    throw .usage("\(where_): \(error.message)")
                }
            }
            do {
                try options.look.validate()
                try options.sound.validate()
                try options.outputs.validate()
            } catch {
                throw .usage("\(where_): \(error)")
            }
            let output = relative == input ? BatchInputs.outputPath(for: input, in: outputDirectory)
                : (outputDirectory.hasSuffix("/") ? outputDirectory : outputDirectory + "/") + relative
            songs.append((BatchSong(input: inputPath, relativePath: input, output: output), options))
        }
        return songs
    }

    /// Sets one option from its text, as the command line would.
    private static func apply(_ key: String, _ text: String, to options: inout Options) throws(BatchError) {
        func value<T: ExpressibleByArgument>(_ type: T.Type = T.self) throws(BatchError) -> T {
            guard let parsed = T(argument: text) else { throw .usage("\"\(key)\": \(text) is not a valid value") }
            return parsed
        }
        func flag() throws(BatchError) -> Bool {
            switch text {
            case "true", "1": return true
            case "false", "0": return false
            default: throw .usage("\"\(key)\" is a flag: true or false")
            }
        }
        switch key {
        case "style": options.look.style = try value()
        case "scheme": options.look.scheme = try value()
        case "color-by": options.look.colorBy = try value()
        case "bars": options.look.bars = try value()
        case "size": options.look.size = try value()
        case "fps": options.look.fps = try value()
        case "speed": options.look.speed = try value()
        case "grid": options.look.grid = try flag()
        case "background": options.look.background = try value()
        case "background-image": options.look.backgroundImage = text
        case "background-dim": options.look.backgroundDim = try value()
        case "loudness": options.sound.loudness = try value()
        case "mute-hidden": options.sound.muteHidden = try flag()
        case "preroll": options.outputs.preroll = try value()
        case "postroll": options.outputs.postroll = try value()
        case "window": options.look.window = try value()
        case "keys": options.look.keys = try value()
        case "chords": options.look.chords = try flag()
        case "labels":
            // true and false (read as 1 and 0) as for a bare `--labels`.
            switch text {
            case "1", "true": options.look.labels = .names
            case "0", "false": options.look.labels = .off
            default: options.look.labels = try value()
            }
        case "lyrics": options.look.lyrics = try flag()
        case "effects": options.look.effects = try flag()
        case "title": options.look.title = text
        case "font": options.look.fontOption = text
        case "soundfont": options.sound.soundfont = text
        case "sample-rate": options.sound.sampleRate = try value()
        case "gain": options.sound.gain = try value()
        case "no-reverb": options.sound.noReverb = try flag()
        case "no-chorus": options.sound.noChorus = try flag()
        case "max-tail": options.sound.maxTailOption = try value()
        case "crf": options.outputs.crf = try value()
        case "preset": options.outputs.preset = text
        case "from": options.outputs.from = try value()
        case "to": options.outputs.to = try value()
        case "no-audio": options.outputs.noAudio = try flag()
        default: throw .usage("unknown key \"\(key)\" (keys are render options by their long names, and input, output)")
        }
    }
}
