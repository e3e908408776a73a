import Foundation

/// Share K of N of a batch's songs (K from 1), for N machines rendering one batch: each takes
/// its share, balanced by the songs' lengths, and the shares together are every song once.
public struct BatchShard: Sendable, Equatable, Codable, CustomStringConvertible {
    public let index: Int
    public let count: Int

    /// Nil unless `1 <= index <= count`.
    public init?(index: Int, count: Int) {
        guard count >= 1, (1...count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// `K/N`, as `render --segment` takes it.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else { return nil }
        self.init(index: index, count: count)
    }

    /// `K/N`.
    public var description: String { "\(index)/\(count)" }

    /// As `K/N`, the report's `shard`.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let shard = BatchShard(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\(text) is not K/N"))
        }
        self = shard
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// K and N from the CI engine's own variables: GitLab's `parallel:` (CI_NODE_INDEX from 1,
    /// CI_NODE_TOTAL), a Slurm job array (`slurmArrayShard`) or a Kubernetes Indexed Job
    /// (JOB_COMPLETION_INDEX from 0, with the Job's completions passed as MIDIVIZ_SHARD_COUNT);
    /// `MIDIVIZ_SHARD=K/N` wins over all of them. Two engines' variables at once are refused:
    /// one of them leaked from where the job was started, and which is meant cannot be told.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws(BatchError) -> BatchShard {
        func number(_ name: String) throws(BatchError) -> Int? { try Self.number(name, in: environment) }
        if let given = environment["MIDIVIZ_SHARD"] {
            guard let shard = BatchShard(given) else { throw .usage("MIDIVIZ_SHARD=\(given) is not K/N") }
            return shard
        }
        let engines = [
            ("GitLab parallel: (CI_NODE_INDEX)", "CI_NODE_INDEX"), ("a Slurm job array (SLURM_ARRAY_TASK_ID)", "SLURM_ARRAY_TASK_ID"),
            ("a Kubernetes Indexed Job (JOB_COMPLETION_INDEX)", "JOB_COMPLETION_INDEX"),
        ].filter { environment[$0.1] != nil }
        if engines.count > 1 {
            throw .usage(
                "the environment holds the shard variables of \(engines.map(\.0).joined(separator: " and ")): which one is meant cannot be told; unset the others or set MIDIVIZ_SHARD=K/N"
            )
        }
        var found: (Int, Int)?
        if let index = try number("CI_NODE_INDEX") {
            guard let count = try number("CI_NODE_TOTAL") else { throw .usage("CI_NODE_INDEX is set without CI_NODE_TOTAL (GitLab sets both)") }
            found = (index, count)
        } else if environment["SLURM_ARRAY_TASK_ID"] != nil {
            return try slurmArrayShard(environment)
        } else if let index = try number("JOB_COMPLETION_INDEX") {
            guard let count = try number("MIDIVIZ_SHARD_COUNT") else {
                throw .usage("a shard from a Kubernetes Indexed Job needs MIDIVIZ_SHARD_COUNT (the Job's completions)")
            }
            found = (index + 1, count)
        }
        guard let (index, count) = found else {
            throw .usage("no shard in the environment: set MIDIVIZ_SHARD=K/N, or run under GitLab parallel:, a Slurm job array or a Kubernetes Indexed Job")
        }
        guard let shard = BatchShard(index: index, count: count) else { throw .usage("the environment gives shard \(index) of \(count), which is not one") }
        return shard
    }

    /// A Slurm array task's share: the array's tasks MIN, MIN + STEP, … MAX are shares 1 to N
    /// (`--array=0-10:2`: task 4 is 3/6). SLURM_ARRAY_TASK_MIN, _MAX, _STEP and _COUNT describe
    /// the whole array, also in a task run again by `scontrol requeue` (without _STEP the step
    /// is 1; without _MAX the array is taken to have no gaps). Refused when they cannot
    /// say the share: an array that is a list with gaps (`--array=1,3,4`), or an array of one
    /// task (`sbatch --array=2` to run one task again knows nothing of the others).
    static func slurmArrayShard(_ environment: [String: String]) throws(BatchError) -> BatchShard {
        func number(_ name: String) throws(BatchError) -> Int? { try Self.number(name, in: environment) }
        guard let task = try number("SLURM_ARRAY_TASK_ID"), let first = try number("SLURM_ARRAY_TASK_MIN"),
            let count = try number("SLURM_ARRAY_TASK_COUNT")
        else {
            throw .usage("a Slurm array task needs SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_MIN and SLURM_ARRAY_TASK_COUNT")
        }
        let step = try number("SLURM_ARRAY_TASK_STEP") ?? 1
        // Each at most `largestEnvironmentNumber`: this arithmetic cannot overflow.
        let last = try number("SLURM_ARRAY_TASK_MAX") ?? first + (max(count, 1) - 1) * step
        guard count > 1 else {
            throw .usage(
                "a Slurm array of one task (\(task)) does not say how many shares there are; to render one share again, requeue its task (scontrol requeue JOBID_\(task)) or set MIDIVIZ_SHARD=K/N"
            )
        }
        let isEven = step >= 1 && first <= last && (last - first) % step == 0 && (last - first) / step + 1 == count
        if isEven, !(first <= task && task <= last && (task - first) % step == 0) {
            throw .usage(
                "task \(task) is not one of the Slurm array's \(count) tasks (\(first) to \(last), step \(step)): its share cannot be told; set MIDIVIZ_SHARD=K/N"
            )
        }
        guard isEven, let shard = BatchShard(index: (task - first) / step + 1, count: count) else {
            throw .usage(
                "the Slurm array of \(count) tasks from \(first) to \(last) (step \(step)) is not evenly spaced, so task \(task)'s share cannot be told: give the array as FIRST-LAST or FIRST-LAST:STEP, or set MIDIVIZ_SHARD=K/N"
            )
        }
        return shard
    }

    /// The largest number an engine's variable may hold (Slurm's array indices stop at 4 million,
    /// Kubernetes' completions and GitLab's `parallel:` far below).
    static let largestEnvironmentNumber = 100_000_000

    /// The variable `name` as a number, nil when it is not set; refused when it is not a whole
    /// number from 0 to `largestEnvironmentNumber`.
    static func number(_ name: String, in environment: [String: String]) throws(BatchError) -> Int? {
        guard let text = environment[name] else { return nil }
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)), (0...largestEnvironmentNumber).contains(value) else {
            throw .usage("\(name)=\(text) is not a whole number from 0 to \(largestEnvironmentNumber)")
        }
        return value
    }

    /// The items of this share: longest first, each to the share with the least music so far
    /// (ties: the lower share), so shares are balanced by duration. The same on every machine:
    /// it depends only on the items' order, names and durations. An item without a duration
    /// (`durations` shorter than `items`), or with one that is not a number, counts as 0 s.
    public func share<Item>(_ items: [Item], durations given: [Double], name: (Item) -> String) -> [Item] {
        let durations = items.indices.map { $0 < given.count && !given[$0].isNaN ? given[$0] : 0 }
        let order = items.indices.sorted {
            durations[$0] != durations[$1] ? durations[$0] > durations[$1] : name(items[$0]) < name(items[$1])
        }
        // Only the first `items.count` shares can get an item (each next item goes to an empty
        // share while there is one, the lowest first): no more loads than items, whatever N.
        var loads = [Double](repeating: 0, count: min(count, items.count))
        guard index <= loads.count else { return [] }
        var mine: [Int] = []
        for item in order {
            let least = loads.indices.min { loads[$0] != loads[$1] ? loads[$0] < loads[$1] : $0 < $1 }!
            loads[least] += max(durations[item], 0) + 1  // a second for each song's own overhead
            if least == index - 1 { mine.append(item) }
        }
        return mine.sorted().map { items[$0] }
    }
}
