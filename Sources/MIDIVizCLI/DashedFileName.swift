import Foundation

/// A file name that begins with `-` (`-dash.mid`), given before `--`: the argument parser
/// would take it for short options (`-d -a -s -h`, and `-h` prints the help, exit 0). It is
/// refused with one line saying how to name it instead (exit 64).
enum DashedFileName {
    /// The first argument before `--` that is a single-dash word naming a file: it has a file
    /// extension (`-dash.mid`, `-x.mp4`) or is a file here. Negative numbers (`-2`, `-0.5`) are
    /// values, not names.
    static func first(in arguments: [String]) -> String? {
        for argument in arguments {
            if argument == "--" { return nil }
            guard argument.hasPrefix("-"), !argument.hasPrefix("--"), argument.count > 2 else { continue }
            let rest = argument.dropFirst()
            if let first = rest.first, first.isNumber || first == "." { continue }
            let hasExtension = rest.lastIndex(of: ".").map { dot in
                let suffix = rest[rest.index(after: dot)...]
                return !suffix.isEmpty && suffix.allSatisfy { $0.isLetter || $0.isNumber }
            }
            if hasExtension == true || FileManager.default.fileExists(atPath: argument) { return argument }
        }
        return nil
    }

    /// The line that refuses `name`.
    static func message(_ name: String) -> String {
        "\(name) begins with '-', so it would be read as options: write ./\(name) (a song may also come last, after '--': "
            + "midiviz render [OPTIONS] -- \(name))"
    }
}
