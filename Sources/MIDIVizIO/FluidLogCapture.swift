import CFluidSynth
import Foundation

/// Keeps FluidSynth's own log lines off the terminal; the last ones explain failures.
/// The corresponding C function is `fluid_set_log_function`.
enum FluidLogCapture {
    static let lines = CapturedLines()
    /// Installs the handlers once per process (a lazy static runs once, thread-safely).
    private static let installation: Void = {
        for level in [FLUID_PANIC, FLUID_ERR, FLUID_WARN, FLUID_INFO, FLUID_DBG] {
            _ = fluid_set_log_function(
                Int32(level.rawValue),
                { _, message, _ in
                    FluidLogCapture.lines.append(message.map { String(cString: $0) } ?? "")
                }, nil)
        }
    }()

    static func install() { _ = installation }

    static func drain() -> [String] { lines.drain() }
}
