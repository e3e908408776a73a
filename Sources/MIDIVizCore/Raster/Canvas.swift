/// An RGBA8 image the rasterizer draws into; one per worker, reused for every frame.
/// Pixels are `UInt32`s whose bytes in memory are R, G, B, A, premultiplied: on an opaque
/// canvas alpha stays 255; a transparent one starts at 0 everywhere.
package struct Canvas: Sendable {
    package let width: Int
    package let height: Int
    package var pixels: [UInt32]

    package init(width: Int, height: Int, color: RGBA = RGBA(0, 0, 0)) {
        precondition(width > 0 && height > 0, "canvas must not be empty")
        self.width = width
        self.height = height
        self.pixels = Array(repeating: color.withAlpha(1).pixel, count: width * height)
    }

    /// A canvas holding `pixels` (premultiplied RGBA, row by row).
    package init(width: Int, height: Int, pixels: [UInt32]) {
        precondition(width > 0 && height > 0 && pixels.count == width * height, "pixels must fill the canvas")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A fully transparent canvas.
    package static func transparent(width: Int, height: Int) -> Canvas {
        Canvas(width: width, height: height, pixels: Array(repeating: 0, count: width * height))
    }

    package subscript(x: Int, y: Int) -> UInt32 { pixels[y * width + x] }

    /// The colour at a pixel, for tests.
    package func color(x: Int, y: Int) -> RGBA {
        let value = self[x, y]
        return RGBA(Float(value & 0xFF) / 255, Float((value >> 8) & 0xFF) / 255, Float((value >> 16) & 0xFF) / 255, Float(value >> 24) / 255)
    }

    /// The raw bytes, R G B A per pixel, row by row.
    package func withRGBABytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try pixels.withUnsafeBytes(body)
    }

    /// FNV-1a 64 over width, height and the RGBA bytes: the identity of a frame for golden tests.
    package var pixelHash: UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ byte: UInt8) { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        for value in [UInt32(width), UInt32(height)] {
            for shift in stride(from: 0, to: 32, by: 8) { mix(UInt8((value >> UInt32(shift)) & 0xFF)) }
        }
        pixels.withUnsafeBytes { bytes in
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        }
        return hash
    }
}
