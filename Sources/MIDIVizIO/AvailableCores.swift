import CSched
import Foundation

/// The cores this process may use, which is what its workers should number: the CPUs it may run
/// on (`sched_getaffinity(2)`, which `taskset`, Slurm's `task/affinity` and
/// `docker --cpuset-cpus` narrow), fewer when its cgroup's CPU quota allows less (cgroup v2
/// `cpu.max`, v1 `cpu.cfs_quota_us`: `docker --cpus`), at least 1.
/// `ProcessInfo.activeProcessorCount` counts the machine's CPUs whatever the process may use
/// (2 in a Slurm task given 1 of 2).
public enum AvailableCores {
    /// Read once, at first use.
    public static let count: Int = count(
        online: ProcessInfo.processInfo.activeProcessorCount, affinity: affinityCount(), quota: cgroupQuota())

    /// The least of the three, at least 1; a quota of 1.5 cores is 2.
    static func count(online: Int, affinity: Int?, quota: Double?) -> Int {
        var cores = min(online, affinity ?? online)
        if let quota, quota > 0 { cores = min(cores, Int(quota.rounded(.up))) }
        return max(1, cores)
    }

    /// The CPUs the calling thread may run on, or nil when they cannot be read. The
    /// corresponding C function is `sched_getaffinity`.
    public static func affinityCount() -> Int? {
        let count = midiviz_affinity_cpu_count()
        return count > 0 ? Int(count) : nil
    }

    /// The cores the quota of this process's cgroup and of the cgroups above it allow, or nil
    /// for none. `root` is where the cgroup file systems are mounted.
    /// - Parameters:
    ///   - membership: `/proc/self/cgroup`'s text: `0::/path` (v2), `N:cpu,cpuacct:/path` (v1).
    static func cgroupQuota(membership: String? = try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8), root: String = "/sys/fs/cgroup")
        -> Double?
    {
        func read(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }
        var least: Double?
        for line in (membership ?? "").split(separator: "\n") {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3, fields[1].isEmpty || fields[1].split(separator: ",").contains("cpu") else { continue }
            let isV2 = fields[1].isEmpty
            let mount = isV2 ? root : root + "/" + fields[1]
            let names = fields[2].split(separator: "/")
            // The process's own cgroup and those above it: the least quota holds.
            for depth in 0...names.count {
                let folder = mount + names.prefix(depth).map { "/" + $0 }.joined()
                let quota =
                    isV2
                    ? read(folder + "/cpu.max").flatMap(cpuMax)
                    : read(folder + "/cpu.cfs_quota_us").flatMap { quota in read(folder + "/cpu.cfs_period_us").flatMap { cfs(quota: quota, period: $0) } }
                if let quota { least = min(least ?? quota, quota) }
            }
        }
        return least
    }

    /// cgroup v2 `cpu.max`: `QUOTA PERIOD` in microseconds, or `max PERIOD` for none.
    static func cpuMax(_ text: String) -> Double? {
        let fields = text.split(whereSeparator: \.isWhitespace)
        guard fields.count == 2, let quota = Double(fields[0]), let period = Double(fields[1]), quota > 0, period > 0 else { return nil }
        return quota / period
    }

    /// cgroup v1 `cpu.cfs_quota_us` (-1 for none) and `cpu.cfs_period_us`.
    static func cfs(quota: String, period: String) -> Double? {
        guard let quota = Double(quota.trimmingCharacters(in: .whitespacesAndNewlines)),
            let period = Double(period.trimmingCharacters(in: .whitespacesAndNewlines)), quota > 0, period > 0
        else { return nil }
        return quota / period
    }
}
