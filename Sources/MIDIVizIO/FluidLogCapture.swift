import CFluidSynth
import Foundation

/// Keeps FluidSynth's own log lines off the terminal; the last ones explain failures.
/// The corresponding C function is `fluid_set_log_function`.
enum FluidLogCapture {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var lines: [String] = []
    nonisolated(unsafe) private static var isInstalled = false

    static func install() {
        lock.lock()
        defer { lock.unlock() }
        guard !isInstalled else { return }
        isInstalled = true
        for level in [FLUID_PANIC, FLUID_ERR, FLUID_WARN, FLUID_INFO, FLUID_DBG] {
            _ = fluid_set_log_function(Int32(level.rawValue), { _, message, _ in
                FluidLogCapture.append(message.map { String(cString: $0) } ?? "")
            }, nil)
        }
    }

    private static func append(_ line: String) {
        lock.lock()
        lines.append(line)
        if lines.count > 100 { lines.removeFirst(lines.count - 100) }
        lock.unlock()
    }

    static func drain() -> [String] {
        lock.lock()
        defer { lines.removeAll(); lock.unlock() }
        return lines
    }
}
