import Foundation

/// A time in the song as people read it: `m:ss.fff`.
package enum SongClock {
    package static func text(_ seconds: Double) -> String {
        // Beyond a billion hours (a bar number far past the song) in plain seconds.
        guard seconds.isFinite, abs(seconds) < 1e12 else { return String(format: "%.6g s", seconds) }
        let totalMilliseconds = Int((seconds * 1000).rounded())
        return String(format: "%d:%02d.%03d", totalMilliseconds / 60_000, totalMilliseconds / 1000 % 60, totalMilliseconds % 1000)
    }

    /// `value` seconds to the millisecond, without trailing zeros: 179.999, 179.9, 600.
    package static func seconds(_ value: Double) -> String {
        var text = String(format: "%.3f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
