import Foundation

/// Where the end-to-end tests find the built binary, the corpus and the note reference.
enum TestEnvironment {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The corpus the repository carries: third-party files under `Tests/Corpus/` (each folder
    /// with its source and licence) and our own `fixtures/`.
    static let repositoryCorpusFolders = ["Tests/Corpus", "fixtures"]

    /// Extra files, when present: `$MIDIVIZ_CORPUS`, or `../shared/corpus` beside the checkout.
    static let extraCorpus: URL = {
        if let path = ProcessInfo.processInfo.environment["MIDIVIZ_CORPUS"] { return URL(fileURLWithPath: path) }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
    }()

    /// The `midiviz` built beside the test bundle.
    static let binary: URL = {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for directory in [besideTests, besideTests.deletingLastPathComponent(), packageRoot.appendingPathComponent(".build/debug")] {
            let candidate = directory.appendingPathComponent("midiviz")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return packageRoot.appendingPathComponent(".build/debug/midiviz")
    }()

    /// Every MIDI file of the corpus: the repository's, as paths relative to the package root,
    /// then those of the extra corpus whose bytes the repository does not already hold, as
    /// absolute paths. Says in one line what it found.
    static let corpusFiles: [String] = {
        let own = repositoryCorpusFolders.flatMap { midiFiles(under: packageRoot.appendingPathComponent($0)) }
        let ownBytes = Set(own.compactMap { FileManager.default.contents(atPath: $0.path) })
        let extra = midiFiles(under: extraCorpus).filter { url in
            FileManager.default.contents(atPath: url.path).map { !ownBytes.contains($0) } ?? true
        }
        let root = packageRoot.standardizedFileURL.path + "/"
        print(
            "corpus: \(own.count) files in the repository (\(repositoryCorpusFolders.joined(separator: ", ")))"
                + (extra.isEmpty ? "; no extra corpus at \(extraCorpus.path)" : " + \(extra.count) more from \(extraCorpus.path)"))
        return own.map { String($0.standardizedFileURL.path.dropFirst(root.count)) }
            + extra.map { $0.standardizedFileURL.path }
    }()

    /// Where a file of `corpusFiles` is.
    static func path(of file: String) -> String {
        file.hasPrefix("/") ? file : packageRoot.appendingPathComponent(file).path
    }

    static func midiFiles(under folder: URL) -> [URL] {
        let extensions: Set<String> = ["mid", "midi", "smf", "kar", "rmi"]
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        return walker.compactMap { $0 as? URL }
            .filter { extensions.contains($0.pathExtension.lowercased()) }
            .sorted { $0.path < $1.path }
    }

    /// python3 with mido and pretty_midi, which the oracle needs.
    static let oracleIsAvailable: Bool = {
        let result = try? ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", "-c", "import mido, pretty_midi"])
        return result?.status == 0 && result?.signaled == false
    }()
}
