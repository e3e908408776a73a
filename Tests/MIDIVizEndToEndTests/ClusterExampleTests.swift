import Foundation
import Testing

/// The Kubernetes example as shipped: its container command, taken from the YAML, run by `sh`
/// once for each index with the variables an Indexed Job gives a pod (its `/data` a temporary
/// folder), then the merge its comment gives. No cluster runs here; the command is what fails
/// or works, and it is run unchanged.
@Suite(
    .enabled(if: VideoTools.available, "ffmpeg/ffprobe or a SoundFont missing: apt-get install ffmpeg timgm6mb-soundfont (scripts/setup does)"),
    .timeLimit(.minutes(30)))
struct ClusterExampleTests {
    /// The pod's command (the `args:` block, a folded YAML scalar), the `MIDIVIZ_SHARD_COUNT`
    /// it sets, `completions`, and the merge command of the comment.
    static func kubernetesExample() throws -> (command: String, shardCount: String, completions: Int, merge: String) {
        let yaml = try String(contentsOfFile: TestEnvironment.path(of: "docs/batch/kubernetes-indexed-job.yaml"), encoding: .utf8)
        let lines = yaml.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "args:" })
        var command: [String] = []
        for line in lines[(start + 1)...] {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.hasSuffix(":") { break }  // the next key (volumeMounts:)
            command.append(command.isEmpty ? String(text.dropFirst(2)) : text)
        }
        let countLine = try #require(lines.firstIndex { $0.contains("name: MIDIVIZ_SHARD_COUNT") })
        let count = lines[countLine + 1].split(separator: "\"").dropFirst().first.map(String.init) ?? ""
        let completions =
            Int(
                try #require(lines.first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("completions:") }).split(separator: ":")[1].trimmingCharacters(
                    in: .whitespaces)) ?? 0
        let merge = try #require(lines.first { $0.contains("midiviz batch --merge-reports") }).drop { $0 == "#" || $0 == " " }
        return (command.joined(separator: " "), count, completions, String(merge))
    }

    @Test func theKubernetesIndexedJobRunsAsShipped() throws {
        let example = try Self.kubernetesExample()
        #expect(example.completions == 3 && example.shardCount == "3")
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("midiviz-k8s-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        try FileManager.default.createDirectory(atPath: data + "/songs", withIntermediateDirectories: true)
        for fixture in ["c-major-arpeggio.mid", "drum-beat.mid", "pitch-bend.mid"] {
            try FileManager.default.copyItem(atPath: TestEnvironment.path(of: "fixtures/" + fixture), toPath: data + "/songs/" + fixture)
        }
        let path = TestEnvironment.binary.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        // No /data/reports yet: the pod makes it.
        for index in 0..<example.completions {
            let pod = try ProcessRunner.run(
                URL(fileURLWithPath: "/bin/sh"), ["-c", example.command.replacingOccurrences(of: "/data", with: data)],
                environment: [
                    "JOB_COMPLETION_INDEX": String(index), "MIDIVIZ_SHARD_COUNT": example.shardCount, "PATH": path,
                    "MIDIVIZ_SOUNDFONT": AudioTools.soundFont ?? "",
                ])
            #expect(pod.status == 0, "index \(index): \(pod.stderr)")
        }
        let merge = try ProcessRunner.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", example.merge.replacingOccurrences(of: "/data", with: data)], environment: ["PATH": path])
        #expect(merge.status == 0, "\(merge.stderr)")
        let all = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: data + "/reports/all.json"))) as? [String: Any]
        let totals = all?["totals"] as? [String: Any] ?? [:]
        #expect(totals["songs"] as? Int == 3 && totals["rendered"] as? Int == 3 && totals["shards"] as? Int == 3)
        // Every song once, its video whole: the frames the report adds up are the videos'.
        var frames = 0
        for name in ["c-major-arpeggio", "drum-beat", "pitch-bend"] { frames += try VideoTools.probe(data + "/videos/\(name).mp4")["video"]?.frames ?? 0 }
        #expect(frames > 0 && totals["frames"] as? Int == frames)
    }
}
