import Foundation
import Testing

/// Every corpus file, through the real binary in a child process: it loads (exit 0, valid JSON)
/// or is refused with exit 65 and one line naming the file; never a signal.
@Suite struct CorpusRobustnessTests {
    @Test func corpusIsPresent() {
        #expect(TestEnvironment.corpusFiles().count >= 90, "expected the shared corpus at \(TestEnvironment.corpus.path)")
    }

    @Test(arguments: TestEnvironment.corpusFiles())
    func fileLoadsOrIsRefusedCleanly(file: String) throws {
        let path = TestEnvironment.corpus.appendingPathComponent(file).path
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
