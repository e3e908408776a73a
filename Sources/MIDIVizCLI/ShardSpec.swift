import ArgumentParser
import Foundation
import MIDIVizEngine

/// `--shard K/N`: this machine renders the K-th of N shares of the songs (K from 1), or `auto`:
/// K and N from the CI engine's own variables.
enum ShardSpec: ExpressibleByArgument, Equatable {
    case fixed(index: Int, count: Int)
    case auto

    init?(argument: String) {
        if argument == "auto" {
            self = .auto
            return
        }
        // The same K/N as `render --segment`.
        guard let share = SegmentSpec(argument: argument)?.segment else { return nil }
        self = .fixed(index: share.index, count: share.count)
    }

    /// K and N: as given, or from GitLab's `parallel:` (CI_NODE_INDEX from 1, CI_NODE_TOTAL), a
    /// Slurm job array (SLURM_ARRAY_TASK_ID from SLURM_ARRAY_TASK_MIN, SLURM_ARRAY_TASK_COUNT) or
    /// a Kubernetes Indexed Job (JOB_COMPLETION_INDEX from 0, with the Job's completions passed as
    /// MIDIVIZ_SHARD_COUNT); `MIDIVIZ_SHARD=K/N` wins over all of them.
    func resolve(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws(BatchError) -> (index: Int, count: Int) {
        switch self {
        case .fixed(let index, let count):
            return (index, count)
        case .auto:
            func number(_ name: String) -> Int? { environment[name].flatMap { Int($0) } }
            var found: (Int, Int)?
            if let given = environment["MIDIVIZ_SHARD"] {
                guard case .fixed(let index, let count)? = ShardSpec(argument: given) else {
                    throw .usage("MIDIVIZ_SHARD=\(given) is not K/N")
                }
                found = (index, count)
            } else if let index = number("CI_NODE_INDEX"), let count = number("CI_NODE_TOTAL") {
                found = (index, count)
            } else if let task = number("SLURM_ARRAY_TASK_ID"), let count = number("SLURM_ARRAY_TASK_COUNT") {
                found = (task - (number("SLURM_ARRAY_TASK_MIN") ?? 0) + 1, count)
            } else if let index = number("JOB_COMPLETION_INDEX") {
                guard let count = number("MIDIVIZ_SHARD_COUNT") else {
                    throw .usage("--shard auto in a Kubernetes Indexed Job needs MIDIVIZ_SHARD_COUNT (the Job's completions)")
                }
                found = (index + 1, count)
            }
            guard let (index, count) = found else {
                throw .usage("--shard auto found no shard: set MIDIVIZ_SHARD=K/N, or run under GitLab parallel:, a Slurm job array or a Kubernetes Indexed Job")
            }
            guard count >= 1, (1...count).contains(index) else { throw .usage("--shard auto found shard \(index) of \(count)") }
            return (index, count)
        }
    }

    /// The songs of shard `index` (from 1) of `count`: longest first, each to the share with the
    /// least music so far (ties: the lower share), so shares are balanced by duration. The same
    /// on every machine: it depends only on the songs' order, names and durations.
    static func share<Item>(_ items: [Item], durations: [Double], index: Int, count: Int,
                            name: (Item) -> String) -> [Item] {
        let order = items.indices.sorted {
            durations[$0] != durations[$1] ? durations[$0] > durations[$1] : name(items[$0]) < name(items[$1])
        }
        var loads = [Double](repeating: 0, count: count)
        var mine: [Int] = []
        for item in order {
            let least = loads.indices.min { loads[$0] != loads[$1] ? loads[$0] < loads[$1] : $0 < $1 }!
            loads[least] += max(durations[item], 0) + 1  // a second for each song's own overhead
            if least == index - 1 { mine.append(item) }
        }
        return mine.sorted().map { items[$0] }
    }
}
