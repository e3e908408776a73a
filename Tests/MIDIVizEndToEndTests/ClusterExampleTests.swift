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
    /// `sh -c command` with only the engine variables given: any the test run itself has (a CI
    /// engine's own) are removed, as a pod or job would not have them.
    static func shell(_ command: String, in folder: URL? = nil, environment: [String: String]) throws -> ProcessRunner.Result {
        let engines = [
            "MIDIVIZ_SHARD", "MIDIVIZ_SHARD_COUNT", "CI_NODE_INDEX", "CI_NODE_TOTAL", "JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID",
            "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_MAX", "SLURM_ARRAY_TASK_STEP", "SLURM_ARRAY_TASK_COUNT",
        ].filter { environment[$0] == nil }
        return try ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"), engines.flatMap { ["-u", $0] } + ["/bin/sh", "-c", command], currentDirectory: folder,
            environment: environment)
    }

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
            let pod = try Self.shell(
                example.command.replacingOccurrences(of: "/data", with: data),
                environment: [
                    "JOB_COMPLETION_INDEX": String(index), "MIDIVIZ_SHARD_COUNT": example.shardCount, "PATH": path,
                    "MIDIVIZ_SOUNDFONT": AudioTools.soundFont ?? "",
                ])
            #expect(pod.status == 0, "index \(index): \(pod.stderr)")
        }
        let merge = try Self.shell(example.merge.replacingOccurrences(of: "/data", with: data), environment: ["PATH": path])
        #expect(merge.status == 0, "\(merge.stderr)")
        let all = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: data + "/reports/all.json"))) as? [String: Any]
        let totals = all?["totals"] as? [String: Any] ?? [:]
        #expect(totals["songs"] as? Int == 3 && totals["rendered"] as? Int == 3 && totals["shards"] as? Int == 3)
        // Every song once, its video whole: the frames the report adds up are the videos'.
        var frames = 0
        for name in ["c-major-arpeggio", "drum-beat", "pitch-bend"] { frames += try VideoTools.probe(data + "/videos/\(name).mp4")["video"]?.frames ?? 0 }
        #expect(frames > 0 && totals["frames"] as? Int == frames)
    }

    /// A folder `songs/` of three fixtures; removed by the caller.
    static func songsFolder() throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("midiviz-ci-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: root + "/songs", withIntermediateDirectories: true)
        for fixture in ["c-major-arpeggio.mid", "drum-beat.mid", "pitch-bend.mid"] {
            try FileManager.default.copyItem(atPath: TestEnvironment.path(of: "fixtures/" + fixture), toPath: root + "/songs/" + fixture)
        }
        return root
    }

    /// The `script:` items of a GitLab job.
    static func gitLabScript(_ lines: [String], job: String) -> [String] {
        guard let start = lines.firstIndex(of: job + ":") else { return [] }
        var items: [String] = []
        var inScript = false
        for line in lines[(start + 1)...] {
            if !line.hasPrefix(" ") && !line.isEmpty { break }  // the next job
            if line.trimmingCharacters(in: .whitespaces) == "script:" {
                inScript = true
            } else if inScript, line.hasPrefix("    - ") {
                items.append(String(line.dropFirst(6)))
            } else if inScript {
                inScript = false
            }
        }
        return items
    }

    /// The GitLab and GitHub Actions examples' commands as shipped: each shard's with the
    /// variables the engine gives it (GitLab's CI_NODE_INDEX/TOTAL; the matrix's MIDIVIZ_SHARD),
    /// then the merge job's: three songs rendered once, the merged report whole.
    @Test(arguments: ["gitlab-ci.yml", "github-actions.yml"])
    func theCIExamplesRunAsShipped(example: String) throws {
        let text = try String(contentsOfFile: TestEnvironment.path(of: "docs/batch/" + example), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let root = try Self.songsFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = TestEnvironment.binary.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let base = ["PATH": path, "MIDIVIZ_SOUNDFONT": AudioTools.soundFont ?? ""]
        func sh(_ command: String, _ environment: [String: String]) throws -> ProcessRunner.Result {
            try Self.shell(command, in: URL(fileURLWithPath: root), environment: base.merging(environment) { $1 })
        }
        var shards: [(command: String, environment: [String: String])] = []
        var merge = ""
        if example == "gitlab-ci.yml" {
            let render = Self.gitLabScript(lines, job: "render")
            #expect(render.count == 1 && lines.contains("  parallel: 3"))
            for index in 1...3 { shards.append((render.joined(separator: "\n"), ["CI_NODE_INDEX": String(index), "CI_NODE_TOTAL": "3"])) }
            merge = Self.gitLabScript(lines, job: "merge").joined(separator: "\n")
        } else {
            let render = try #require(lines.first { $0.contains("- run: midiviz batch songs/") }).components(separatedBy: "- run: ")[1]
            #expect(lines.contains("      MIDIVIZ_SHARD: ${{ matrix.shard }}/3") && lines.contains("        shard: [1, 2, 3]"))
            for index in 1...3 {
                shards.append((render.replacingOccurrences(of: "${{ matrix.shard }}", with: String(index)), ["MIDIVIZ_SHARD": "\(index)/3"]))
            }
            merge = try #require(lines.first { $0.contains("- run: midiviz batch --merge-reports") }).components(separatedBy: "- run: ")[1]
        }
        for (command, environment) in shards {
            let shard = try sh(command, environment)
            #expect(shard.status == 0, "\(command) \(environment): \(shard.stderr)")
        }
        let merged = try sh(merge, [:])
        #expect(merged.status == 0, "\(merge): \(merged.stderr)")
        let all = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: root + "/all.json"))) as? [String: Any]
        let totals = all?["totals"] as? [String: Any] ?? [:]
        #expect(totals["songs"] as? Int == 3 && totals["rendered"] as? Int == 3 && totals["shards"] as? Int == 3, "\(totals)")
        var frames = 0
        for name in ["c-major-arpeggio", "drum-beat", "pitch-bend"] { frames += try VideoTools.probe(root + "/videos/\(name).mp4")["video"]?.frames ?? 0 }
        #expect(frames > 0 && totals["frames"] as? Int == frames)
    }
}
