import Foundation
import Testing

@testable import MIDIVizIO

/// The cores a process may use: its affinity mask, as `taskset` narrows it, and its cgroup's CPU
/// quota, from cgroup files written for the test.
@Suite(.timeLimit(.minutes(30)))
struct AvailableCoresTests {
    static let taskset = ["/usr/bin/taskset", "/bin/taskset"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// A thread narrowed to CPU 0 by `taskset -p` (as Slurm's task/affinity narrows a task)
    /// counts 1 core, while ProcessInfo still counts every one.
    @Test(.enabled(if: taskset != nil && ProcessInfo.processInfo.activeProcessorCount > 1, "needs taskset and 2 CPUs"))
    func aNarrowedThreadCountsItsCores() throws {
        let counted = Counted()
        let thread = Thread {
            defer { counted.done.signal() }
            // This thread's id, to narrow it alone: /proc/thread-self is /proc/PID/task/TID.
            guard let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self"), let tid = link.split(separator: "/").last else {
                return
            }
            counted.before = AvailableCores.affinityCount()
            let narrow = Process()
            narrow.executableURL = URL(fileURLWithPath: Self.taskset!)
            narrow.arguments = ["-p", "-c", "0", String(tid)]
            narrow.standardOutput = FileHandle.nullDevice
            guard (try? narrow.run()) != nil else { return }
            narrow.waitUntilExit()
            counted.after = AvailableCores.affinityCount()
        }
        thread.start()
        counted.done.wait()
        #expect(counted.before.map { $0 >= 1 && $0 <= ProcessInfo.processInfo.activeProcessorCount } == true)
        #expect(counted.after == 1, "before: \(String(describing: counted.before))")
        #expect(AvailableCores.count(online: 2, affinity: counted.after, quota: nil) == 1)
    }

    @Test func theLeastOfCPUsMaskAndQuotaAtLeastOne() {
        #expect(AvailableCores.count(online: 8, affinity: nil, quota: nil) == 8)
        #expect(AvailableCores.count(online: 8, affinity: 2, quota: nil) == 2)
        #expect(AvailableCores.count(online: 8, affinity: 4, quota: 1.5) == 2)
        #expect(AvailableCores.count(online: 8, affinity: 4, quota: 0.1) == 1)
        #expect(AvailableCores.count(online: 2, affinity: nil, quota: 6) == 2)
        #expect(AvailableCores.count >= 1 && AvailableCores.count <= ProcessInfo.processInfo.activeProcessorCount)
    }

    /// cgroup v2 `cpu.max` in the process's cgroup or one above it, and v1's CFS quota.
    @Test func theCgroupQuotaIsTheLeastOnTheWayUp() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("midiviz-cgroup-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/job/step", withIntermediateDirectories: true)
        try "max 100000\n".write(toFile: root + "/job/step/cpu.max", atomically: false, encoding: .utf8)
        #expect(AvailableCores.cgroupQuota(membership: "0::/job/step\n", root: root) == nil, "max is no quota")
        try "250000 100000\n".write(toFile: root + "/job/cpu.max", atomically: false, encoding: .utf8)
        #expect(AvailableCores.cgroupQuota(membership: "0::/job/step\n", root: root) == 2.5)
        try "50000 100000\n".write(toFile: root + "/job/step/cpu.max", atomically: false, encoding: .utf8)
        #expect(AvailableCores.cgroupQuota(membership: "0::/job/step\n", root: root) == 0.5)

        try FileManager.default.createDirectory(atPath: root + "/cpu,cpuacct/docker/abc", withIntermediateDirectories: true)
        try "-1\n".write(toFile: root + "/cpu,cpuacct/docker/abc/cpu.cfs_quota_us", atomically: false, encoding: .utf8)
        try "100000\n".write(toFile: root + "/cpu,cpuacct/docker/abc/cpu.cfs_period_us", atomically: false, encoding: .utf8)
        let v1 = "12:memory:/docker/abc\n4:cpu,cpuacct:/docker/abc\n"
        #expect(AvailableCores.cgroupQuota(membership: v1, root: root) == nil, "-1 is no quota")
        try "150000\n".write(toFile: root + "/cpu,cpuacct/docker/abc/cpu.cfs_quota_us", atomically: false, encoding: .utf8)
        #expect(AvailableCores.cgroupQuota(membership: v1, root: root) == 1.5)
        #expect(AvailableCores.cgroupQuota(membership: nil, root: root) == nil)
    }
}

/// What the narrowed thread counted: written before `done` is signalled, read after.
private final class Counted: @unchecked Sendable {
    var before: Int?
    var after: Int?
    let done = DispatchSemaphore(value: 0)
}
