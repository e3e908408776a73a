import Foundation

/// Where the end-to-end tests find the built binary, the shared corpus and the oracle.
enum TestEnvironment {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared/corpus` beside the checkout (CI has it), or `$MIDIVIZ_CORPUS`.
    static let corpus: URL = {
        if let path = ProcessInfo.processInfo.environment["MIDIVIZ_CORPUS"] { return URL(fileURLWithPath: path) }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
    }()

    static let oracleTools = corpus.deletingLastPathComponent().appendingPathComponent("tools")

    /// The `midiviz` built beside the test bundle.
    static let binary: URL = {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for directory in [besideTests, besideTests.deletingLastPathComponent(), packageRoot.appendingPathComponent(".build/debug")] {
            let candidate = directory.appendingPathComponent("midiviz")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return packageRoot.appendingPathComponent(".build/debug/midiviz")
    }()

    /// Every MIDI file of the corpus, as paths relative to it, sorted.
    static func corpusFiles() -> [String] {
        let extensions: Set<String> = ["mid", "midi", "smf", "kar", "rmi"]
        guard let walker = FileManager.default.enumerator(at: corpus, includingPropertiesForKeys: nil) else { return [] }
        let prefix = corpus.standardizedFileURL.path + "/"
        return walker.compactMap { $0 as? URL }
            .filter { extensions.contains($0.pathExtension.lowercased()) }
            .map { String($0.standardizedFileURL.path.dropFirst(prefix.count)) }
            .sorted()
    }

    /// python3 with mido and pretty_midi, which the oracle needs.
    static let oracleIsAvailable: Bool = {
        let result = try? ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"),
                                            ["python3", "-c", "import mido, pretty_midi"])
        return result?.status == 0 && result?.signaled == false
    }()
}
