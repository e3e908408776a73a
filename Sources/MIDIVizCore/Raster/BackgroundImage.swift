/// A picture behind the frames: opaque RGBA pixels (bytes R, G, B, A), exactly the frame's size.
package struct BackgroundImage: Sendable, Equatable, CustomStringConvertible {
    package let width: Int
    package let height: Int
    package private(set) var pixels: [UInt32]

    package init?(width: Int, height: Int, rgba: [UInt8]) {
        guard width > 0, height > 0, rgba.count == width * height * 4 else { return nil }
        self.width = width
        self.height = height
        pixels = rgba.withUnsafeBytes { bytes in
            (0..<(width * height)).map { bytes.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self) | 0xFF00_0000 }
        }
    }

    /// Its size and a hash of its pixels (FNV-1a 64), not the pixels.
    package var description: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for pixel in pixels { hash = (hash ^ UInt64(pixel)) &* 0x100_0000_01b3 }
        return "BackgroundImage(\(width)x\(height), \(String(hash, radix: 16)))"
    }

    /// The picture darkened by `amount` (0: as it is, 1: black), to keep notes readable over it.
    package func dimmed(by amount: Double) -> BackgroundImage {
        let keep = Self.keep(dimmedBy: amount)
        var copy = self
        if keep < 256 { copy.pixels = pixels.map { Self.opaque($0, keep: keep) } }
        return copy
    }

    /// How much of each channel `dimmed(by: amount)` keeps, as a weight in 0...256.
    package static func keep(dimmedBy amount: Double) -> UInt32 {
        UInt32(max(0, min(256, (1 - amount) * 256)).rounded())
    }

    /// An RGBA pixel made opaque, each colour channel times `keep` / 256.
    @inline(__always)
    package static func opaque(_ pixel: UInt32, keep: UInt32) -> UInt32 {
        guard keep < 256 else { return pixel | 0xFF00_0000 }
        let redBlue = ((pixel & 0x00FF_00FF) &* keep) >> 8, green = ((pixel & 0x0000_FF00) &* keep) >> 8
        return (redBlue & 0x00FF_00FF) | (green & 0x0000_FF00) | 0xFF00_0000
    }
}
