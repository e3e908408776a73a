import Foundation
import Testing

/// Every corpus file, through the real binary in a child process: it loads (exit 0, valid JSON)
/// or is refused with exit 65 and one line naming the file; never a signal.
@Suite(.timeLimit(.minutes(30))) struct CorpusRobustnessTests {
    /// The repository carries every kind of file the suites need, with nothing beside it.
    @Test func repositoryCorpusIsComplete() {
        let own = TestEnvironment.corpusFiles.filter { !$0.hasPrefix("/") }
        #expect(own.count >= 95, "\(own.count) files in \(TestEnvironment.repositoryCorpusFolders)")
        for kind in [
            "jazz-soft/test-2-tracks-type-0.mid", "jazz-soft/test-2-tracks-type-2.mid", "jazz-soft/test-karaoke-kar.mid",
            "jazz-soft/test-corrupt-file-missing-byte.mid", "jazz-soft/test-smpte-offset.mid", "fixtures/smpte-25fps.mid",
            "piano-midi.de/bach/bach_846.mid", "piano-midi.de/bach/bach_format0.mid",
            "musescore-cc0/concerto_for_orchestra_1.mid", "fixtures/c-major-arpeggio.rmi",
            "fixtures/truncated-30-tracks.mid", "fixtures/sysex-tracks-without-end.mid",
        ] {
            #expect(own.contains { $0.hasSuffix(kind) }, "missing \(kind)")
        }
        for folder in ["jazz-soft", "piano-midi.de", "musescore-cc0"] {
            let source = TestEnvironment.packageRoot.appendingPathComponent("Tests/Corpus/\(folder)/SOURCE.md").path
            #expect((try? String(contentsOfFile: source, encoding: .utf8))?.contains("Licence") == true, "\(source) names no licence")
        }
    }

    @Test(arguments: TestEnvironment.corpusFiles)
    func fileLoadsOrIsRefusedCleanly(file: String) throws {
        let path = TestEnvironment.path(of: file)
        let result = try ProcessRunner.midiviz(["info", "--json", "--notes", path])
        #expect(!result.signaled, "killed by signal \(result.status)")
        #expect(result.status == 0 || result.status == 65, "exit \(result.status): \(result.stderr)")
        if result.status == 0 {
            #expect(result.stderr.isEmpty, "glib or libsmf noise reached stderr: \(result.stderr)")
            let object = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
            #expect(object?["notes"] is [Any])
        } else {
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].contains(path), "stderr: \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
    }
}
