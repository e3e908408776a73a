import CFluidSynth
import Foundation

/// Keeps FluidSynth's own log lines off the terminal; the last ones explain failures.
/// The corresponding C function is `fluid_set_log_function`.
enum FluidLogCapture {
    static let lines = CapturedLines()
    /// Installs the handlers once per process (a lazy static runs once, thread-safely). Info and
    /// debug lines are turned off, not captured: a dense song makes two a stolen voice
    /// ("Polyphony exceeded", "Killing voice"), some 60,000 a second at 50,000 notes on screen,
    /// each formatted and kept for nothing (3 % of its sound's time).
    private static let installation: Void = {
        for level in [FLUID_PANIC, FLUID_ERR, FLUID_WARN] {
            _ = fluid_set_log_function(
                Int32(level.rawValue),
                { _, message, _ in
                    FluidLogCapture.lines.append(message.map { String(cString: $0) } ?? "")
                }, nil)
        }
        for level in [FLUID_INFO, FLUID_DBG] { _ = fluid_set_log_function(Int32(level.rawValue), nil, nil) }
    }()

    static func install() { _ = installation }

    static func drain() -> [String] { lines.drain() }
}
