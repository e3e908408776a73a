import Foundation
import MIDIVizCore
import Testing

/// What a user reads and loads: `--help`, `--version`, the shell completions.
@Suite(.timeLimit(.minutes(30))) struct HelpAndCompletionTests {
    static let commands = [[String](), ["render"], ["batch"], ["demo"], ["frame"], ["info"]]

    /// Defaults read as a user would type them: no Swift values, no default said twice, no
    /// machine-dependent default, and ASCII only (the man page's roff drops the rest).
    @Test(arguments: commands)
    func helpShowsDefaultsAsTyped(command: [String]) throws {
        let result = try ProcessRunner.midiviz(command + ["--help"])
        #expect(result.status == 0)
        let help = result.stdoutText
        #expect(help.contains("USAGE: midiviz"))
        for bad in ["FrameSize(", "width:", "(default: all). (default:", "3600.0", "default: 3.0", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf)\n"] {
            #expect(!help.contains(bad), "\(bad) in \(command) --help")
        }
        // A default stated in the text and again by the parser reads "(default: …). (default: …)".
        let flattened = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(flattened.range(of: #"\(default:[^()]*\)\. \(default:"#, options: .regularExpression) == nil, "\(flattened)")
        let nonASCII = help.unicodeScalars.filter { !$0.isASCII }
        #expect(nonASCII.isEmpty, "non-ASCII in \(command) --help: \(String(String.UnicodeScalarView(nonASCII)))")
        if command == ["render"] {
            #expect(flattened.contains("(default: 1920x1080)"))
            #expect(flattened.contains("--jobs <n> Render on this many cores (default: all of them); batch: render this many songs at once"))
        }
        if command == ["demo"] { #expect(flattened.contains("for demo, demo.mp4 in the current folder)")) }
    }

    @Test func versionComesFromTheSource() throws {
        let result = try ProcessRunner.midiviz(["--version"])
        #expect(result.status == 0)
        #expect(result.stdoutText == MIDIVizVersion.current + "\n")
    }

    /// The bash completion script loads in bash and completes subcommands and option values.
    @Test func bashCompletionLoadsAndCompletes() throws {
        let script = try ProcessRunner.midiviz(["--generate-completion-script", "bash"])
        #expect(script.status == 0)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("midiviz-completion-\(getpid()).bash")
        try script.stdout.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        func complete(_ words: [String]) throws -> [String] {
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let program = """
                source '\(file.path)' || exit 3
                spec=$(complete -p midiviz) || exit 4
                function=$(sed -E 's/.* -F ([^ ]+) .*/\\1/' <<<"$spec")
                COMP_WORDS=(\(quoted)); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
                COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
                "$function" midiviz "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
                printf '%s\\n' "${COMPREPLY[@]}"
                """
            let result = try ProcessRunner.run(URL(fileURLWithPath: "/bin/bash"), ["-c", program])
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdoutText.split(separator: "\n").map(String.init)
        }
        let subcommands = try complete(["midiviz", "re"])
        let styles = try complete(["midiviz", "render", "x.mid", "--style", ""])
        let sizes = try complete(["midiviz", "render", "x.mid", "--size", ""])
        #expect(subcommands == ["render"])
        #expect(Set(styles) == Set(RenderSettings.Style.allCases.map(\.rawValue)) && styles.contains("keyboard"))
        #expect(sizes.contains("1080p") && sizes.contains("vertical"), "\(sizes)")
    }
}
