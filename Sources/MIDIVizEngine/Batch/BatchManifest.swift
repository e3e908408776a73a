import Foundation

/// A batch manifest: a `.jsonl` file given as an input, one song per line as a JSON object:
/// `{"input": "a.mid", "output": "a-bars.mp4", "style": "bars", "hide-track": [2]}`. `input` and
/// options naming files are relative to the manifest's folder; `output` (optional) to the
/// output folder; every other key is a render option by its long name, over the batch's
/// (`"chords": true` for a flag), read through `RenderOptions.declarations`.
enum BatchManifest {
    static func isManifest(_ path: String) -> Bool { path.lowercased().hasSuffix(".jsonl") }

    /// A JSON value of a manifest line (a number as it reads, for an option's text).
    enum Value: Decodable {
        case text(String)
        case number(String)
        case bool(Bool)
        case list([Value])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let bool = try? container.decode(Bool.self) {
                self = .bool(bool)
            } else if let int = try? container.decode(Int.self) {
                self = .number(String(int))
            } else if let double = try? container.decode(Double.self) {
                self = .number(String(double))
            } else if let text = try? container.decode(String.self) {
                self = .text(text)
            } else {
                self = .list(try container.decode([Value].self))
            }
        }
    }

    /// The songs of a manifest, each with its options; any bad line refuses the whole batch.
    static func songs(_ path: String, outputDirectory: String, base: RenderOptions) throws(BatchError) -> [BatchSong] {
        guard let data = FileManager.default.contents(atPath: path) else { throw .usage("\(path): cannot read the manifest") }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var songs: [BatchSong] = []
        var text = String(decoding: data, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }  // a byte-order mark, as some editors write
        text = text.replacingOccurrences(of: "\r\n", with: "\n")  // CRLF line ends (one Character in Swift)
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let place = "\(path):\(index + 1)"
            guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            guard let object = try? JSONDecoder().decode([String: Value].self, from: Data(line.utf8)) else {
                throw .usage("\(place): not a JSON object of strings, numbers, true/false and lists")
            }
            var keys: Set<String> = []
            if let twice = (JSONObjectKeys.keys(of: line) ?? []).first(where: { !keys.insert($0).inserted }) {
                throw .usage("\(place): \"\(twice)\" is given twice (give each key once)")
            }
            guard let given = object["input"] else { throw .usage("\(place): no \"input\"") }
            guard case .text(let input) = given, !input.isEmpty else { throw .usage("\(place): \"input\" must name a file, as a string") }
            let inputPath = RenderOptions.resolvePath(input, from: folder)
            var relative: String?
            if let output = object["output"] {
                guard case .text(let name) = output else { throw .usage("\(place): \"output\" must name the video, as a string") }
                guard !name.isEmpty, !name.hasPrefix("/"), !name.split(separator: "/").contains("..") else {
                    throw .usage("\(place): \"output\" must be a name inside the output folder")
                }
                // `sub/` or `sub/.`: a folder, where a video must be named.
                guard !name.hasSuffix("/"), ![".", ".."].contains(PathParts(name).name) else {
                    throw .usage("\(place): \"output\" names a folder (\(name)): name the video, as \"sub/a.mp4\"")
                }
                relative = name
            }
            var options = base
            for (key, value) in object.sorted(by: { $0.key < $1.key }) where key != "input" && key != "output" {
                do throws(OptionError) {
                    guard let declaration = RenderOptions.declaration(key) else { throw .unknown(key) }
                    guard declaration.perSong else { throw .notPerSong(key) }
                    let texts = try Self.texts(of: value, for: declaration)
                    try declaration.set(texts, in: &options, pathsFrom: folder)
                } catch .unknown(let key) {
                    throw .usage("\(place): unknown key \"\(key)\" (keys are render options by their long names, and input, output)")
                } catch {
                    throw .usage("\(place): \(error.message(prefix: ""))")
                }
            }
            do throws(OptionError) {
                // The line wins over the command line: an option of the batch's that
                // contradicts one of the line's is put back to its default for this song.
                try options.settle(preferring: Set(object.keys))
            } catch {
                throw .usage("\(place): \(error.message(prefix: ""))")
            }
            // An "output" named as the input (`a.mid`) is taken as named, and refused as no video.
            let output =
                relative.map { (outputDirectory.hasSuffix("/") ? outputDirectory : outputDirectory + "/") + $0 }
                ?? BatchPlan.outputPath(for: input, in: outputDirectory)
            songs.append(BatchSong(input: inputPath, relativePath: input, output: output, options: options))
        }
        return songs
    }

    /// A line's value as the option's texts.
    private static func texts(of value: Value, for declaration: OptionDeclaration) throws(OptionError) -> [String] {
        switch (declaration.kind, value) {
        case (.flag, .bool(let bool)): return [String(bool)]
        case (.flag, _): throw .wrongKind(option: declaration.name, expected: "a flag: true or false")
        case (.value, .bool(let bool)) where declaration.bare != nil: return [bool ? declaration.bare!.value : declaration.bare!.off]
        case (.value, .text(let text)), (.value, .number(let text)): return [text]
        case (.value, _): throw .wrongKind(option: declaration.name, expected: "a value: a string or a number")
        case (.list, .text(let text)), (.list, .number(let text)): return [text]
        case (.list, .list(let items)):
            var texts: [String] = []
            for item in items {
                switch item {
                case .text(let text), .number(let text): texts.append(text)
                default: throw .wrongKind(option: declaration.name, expected: "a list of strings or numbers")
                }
            }
            return texts
        case (.list, _): throw .wrongKind(option: declaration.name, expected: "a list of strings or numbers")
        }
    }
}
