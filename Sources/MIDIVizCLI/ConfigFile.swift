import Foundation
import MIDIVizEngine
import MIDIVizIO
import TOMLKit

/// `--config look.toml`: render options kept in a TOML file by their long names,
/// `style = "keyboard"`, `fps = 30`, `chords = true`, `hide-track = [1, 3]`, read through
/// `RenderOptions.declarations`. An unknown key, a value of the wrong kind or one the option
/// refuses names the file, the line and the key (exit 64); an unreadable file exits 66.
enum ConfigFile {
    struct Failure: Error, CustomStringConvertible {
        var description: String
        /// 64 for a bad file, 66 for one that cannot be read.
        var exitCode: Int32 = 64
    }

    /// Sets the options `path` holds in `options`, each checked on its own.
    static func apply(_ path: String, to options: inout RenderOptions) throws(Failure) {
        var origins: [String: String] = [:]
        try apply(path, to: &options, origins: &origins)
    }

    /// The same, noting where each option came from.
    /// - Parameter origins: gets, for each option the file sets, where: `path:line`.
    static func apply(_ path: String, to options: inout RenderOptions, origins: inout [String: String]) throws(Failure) {
        var text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            let problem = RegularFile.problem(at: path)
            throw Failure(description: "cannot read config \(path): \(problem ?? "not UTF-8 text")", exitCode: problem == nil ? 64 : 66)
        }
        // CRLF is one Character in Swift: as LF, lines split and are counted as the file's.
        text = text.replacingOccurrences(of: "\r\n", with: "\n")
        // TOML's parser ends the text at a NUL byte, and a string at an escaped NUL, without a
        // word: refuse both here.
        let fileLines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if let nul = fileLines.firstIndex(where: { $0.contains("\0") }) {
            throw Failure(description: "\(path):\(nul + 1): a NUL byte: not a TOML text file")
        }
        if let line = lineEscapingNUL(fileLines) {
            throw Failure(description: "\(path):\(line): a string holds \\u0000 (NUL), which no option takes")
        }
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw Failure(description: "\(path):\(error.source.begin.line): not TOML: \(error.description)")
        } catch {
            throw Failure(description: "\(path): not TOML: \(error)")
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let lines = fileLines.map { $0.drop { $0 == " " || $0 == "\t" } }
        /// The line that sets `key`: `key = …`, or a table's `[key]`, `[[key]]` or `key.more = …`.
        func line(of key: String) -> Int {
            for (number, line) in lines.enumerated() {
                let header = line.first == "[" ? line.drop { $0 == "[" || $0 == " " || $0 == "\t" } : nil
                for spelling in [key, "\"\(key)\"", "'\(key)'"] {
                    if let header, header.hasPrefix(spelling), let next = header.dropFirst(spelling.count).first, "]. \t".contains(next) {
                        return number + 1
                    }
                    guard line.hasPrefix(spelling) else { continue }
                    let next = line.dropFirst(spelling.count).drop(while: { $0 == " " || $0 == "\t" }).first
                    if next == "=" || next == "." { return number + 1 }
                }
            }
            return 1
        }
        for (key, value) in table {
            let place = "\(path):\(line(of: key)): \(key)"
            guard let declaration = RenderOptions.declaration(key) else {
                if value.table != nil { throw Failure(description: "\(place): tables are not options; write the keys at the top level") }
                throw Failure(description: "\(place): unknown key (keys are render options by their long names, as in --help)")
            }
            do throws(OptionError) {
                let texts = try Self.texts(of: value, for: declaration)
                try declaration.set(texts, in: &options, pathsFrom: folder)
                if let problem = declaration.problem(in: options) { throw problem }
                origins[declaration.name] = "\(path):\(line(of: key))"
            } catch {
                // The key is the option's name in the file, as written there.
                throw Failure(description: "\(path):\(line(of: key)): \(error.message(prefix: ""))")
            }
        }
    }

    /// A TOML value as the option's texts.
    private static func texts(of value: TOMLValueConvertible, for declaration: OptionDeclaration) throws(OptionError) -> [String] {
        let value = value.tomlValue
        func scalar(_ item: TOMLValue) -> String? {
            switch item.type {
            case .string: return item.string
            case .int: return item.int.map(String.init)
            case .double: return item.double.map { String($0) }
            default: return nil
            }
        }
        switch declaration.kind {
        case .flag:
            guard let bool = value.bool else { throw .wrongKind(option: declaration.name, expected: "a flag: true or false") }
            return [String(bool)]
        case .value:
            // An option that may stand alone: `labels = true` as `--labels`, false as none.
            if let bare = declaration.bare, let bool = value.bool { return [bool ? bare.value : bare.off] }
            guard let text = scalar(value) else { throw .wrongKind(option: declaration.name, expected: "a value: a string or a number") }
            return [text]
        case .list:
            if let text = scalar(value) { return [text] }
            guard let array = value.array else { throw .wrongKind(option: declaration.name, expected: "a list of strings or numbers") }
            var texts: [String] = []
            for element in array {
                guard let text = scalar(element.tomlValue) else {
                    throw .wrongKind(option: declaration.name, expected: "a list of strings or numbers")
                }
                texts.append(text)
            }
            return texts
        }
    }

    /// The options as a TOML file `--config` reads back to the same options: every option with
    /// a value, paths made absolute (from the working folder).
    /// The first line (from 1) with `\u0000` or `\U00000000` after an odd run of backslashes
    /// (an escape, not an escaped backslash), if any.
    static func lineEscapingNUL(_ lines: [Substring]) -> Int? {
        for (index, line) in lines.enumerated() {
            var backslashes = 0
            for (offset, character) in zip(line.indices, line) {
                if character == "\\" {
                    backslashes += 1
                    continue
                }
                if backslashes % 2 == 1 {
                    let rest = line[offset...]
                    if rest.hasPrefix("u0000") || rest.hasPrefix("U00000000") { return index + 1 }
                }
                backslashes = 0
            }
        }
        return nil
    }

    static func toml(_ options: RenderOptions) -> String {
        var lines = ["# midiviz --config FILE: render options by their long names; the command line wins."]
        let resolved = options.resolvingPaths(from: FileManager.default.currentDirectoryPath)
        var group: OptionDeclaration.Group?
        for declaration in RenderOptions.declarations {
            let texts = declaration.texts(of: resolved)
            guard !texts.isEmpty else { continue }
            if declaration.group != group {
                group = declaration.group
                lines.append("# \(declaration.group.rawValue)")
            }
            // A number's value may be a fraction (`fps`: 30000/1001), which TOML writes as a string.
            func literal(_ text: String) -> String { declaration.isNumber && Double(text) != nil ? text : quoted(text) }
            switch declaration.kind {
            case .flag: lines.append("\(declaration.name) = \(texts[0])")
            case .value: lines.append("\(declaration.name) = \(literal(texts[0]))")
            case .list: lines.append("\(declaration.name) = [" + texts.map(literal).joined(separator: ", ") + "]")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A TOML basic string: quotes, backslashes and control characters escaped.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += String(format: "\\u%04X", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
