import MIDIVizEngine
import Testing

/// `--shard auto` in a Slurm job array, with the variables Slurm 22.05 sets (printed by an array
/// job of scripts/test-slurm's cluster), and with two engines' variables at once.
@Suite(.timeLimit(.minutes(30)))
struct BatchShardTests {
    static func slurm(task: Int, min: Int, max: Int, step: Int, count: Int) -> [String: String] {
        [
            "SLURM_ARRAY_JOB_ID": "8", "SLURM_ARRAY_TASK_ID": String(task), "SLURM_ARRAY_TASK_MIN": String(min),
            "SLURM_ARRAY_TASK_MAX": String(max), "SLURM_ARRAY_TASK_STEP": String(step), "SLURM_ARRAY_TASK_COUNT": String(count),
        ]
    }

    /// `--array=1-3`, `--array=0-10:2` (tasks 0, 2, … 10) and `--array=5-11:3` (5, 8, 11).
    @Test(arguments: [
        (1, 3, 1, 3, ["1/3", "2/3", "3/3"]), (0, 10, 2, 6, ["1/6", "2/6", "3/6", "4/6", "5/6", "6/6"]), (5, 11, 3, 3, ["1/3", "2/3", "3/3"]),
    ])
    func eachTaskOfAnArrayIsOneShare(min: Int, max: Int, step: Int, count: Int, expected: [String]) throws {
        let tasks = Array(stride(from: min, through: max, by: step))
        let shares = try tasks.map { try BatchShard.fromEnvironment(Self.slurm(task: $0, min: min, max: max, step: step, count: count)).description }
        #expect(shares == expected)
    }

    /// `scontrol requeue 8_2` runs task 2 again with the whole array's variables: the same share.
    @Test func aRequeuedTaskKeepsItsShare() throws {
        #expect(try BatchShard.fromEnvironment(Self.slurm(task: 2, min: 1, max: 3, step: 1, count: 3)) == BatchShard(index: 2, count: 3))
    }

    /// `sbatch --array=2` to run task 2 again is an array of one task: it cannot know it was 2 of 3.
    @Test func anArrayOfOneTaskIsRefused() throws {
        let error = try #require(throws: BatchError.self) { try BatchShard.fromEnvironment(Self.slurm(task: 2, min: 2, max: 2, step: 1, count: 1)) }
        #expect(error.exitCode == 64 && error.message.contains("one task (2)") && error.message.contains("scontrol requeue"), "\(error)")
    }

    /// `--array=1,3,4`: Slurm says min 1, max 4, step 1, count 3; shares 1, 3 and 4 of 4 would
    /// leave share 2 to no one.
    @Test func anArrayWithGapsIsRefused() throws {
        for task in [1, 3, 4] {
            let error = try #require(throws: BatchError.self) { try BatchShard.fromEnvironment(Self.slurm(task: task, min: 1, max: 4, step: 1, count: 3)) }
            #expect(error.message.contains("not evenly spaced"), "\(error)")
        }
    }

    /// `--array=1-7:3` is tasks 1, 4 and 7: evenly spaced, and task 2 is none of them (said so,
    /// not that the array is uneven).
    @Test func aTaskOutsideAnEvenArrayIsSaidToBe() throws {
        let error = try #require(throws: BatchError.self) { try BatchShard.fromEnvironment(Self.slurm(task: 2, min: 1, max: 7, step: 3, count: 3)) }
        #expect(error.exitCode == 64 && error.message.contains("task 2 is not one of the Slurm array's 3 tasks (1 to 7, step 3)"), "\(error)")
        #expect(try BatchShard.fromEnvironment(Self.slurm(task: 4, min: 1, max: 7, step: 3, count: 3)) == BatchShard(index: 2, count: 3))
    }

    /// A GitLab job's variables that reach a Slurm job (or the other way round): refused, naming both.
    @Test func twoEnginesAtOnceAreRefused() throws {
        var environment = Self.slurm(task: 2, min: 1, max: 3, step: 1, count: 3)
        environment["CI_NODE_INDEX"] = "1"
        environment["CI_NODE_TOTAL"] = "3"
        let error = try #require(throws: BatchError.self) { try BatchShard.fromEnvironment(environment) }
        #expect(error.exitCode == 64 && error.message.contains("CI_NODE_INDEX") && error.message.contains("SLURM_ARRAY_TASK_ID"), "\(error)")
        let kubernetes = ["JOB_COMPLETION_INDEX": "0", "MIDIVIZ_SHARD_COUNT": "3", "CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "3"]
        #expect(throws: BatchError.self) { try BatchShard.fromEnvironment(kubernetes) }
        // MIDIVIZ_SHARD is given on purpose: it still wins.
        environment["MIDIVIZ_SHARD"] = "3/4"
        #expect(try BatchShard.fromEnvironment(environment) == BatchShard(index: 3, count: 4))
    }
}
