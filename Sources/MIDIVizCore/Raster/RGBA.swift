/// A straight (not premultiplied) colour with components in 0...1.
public struct RGBA: Sendable, Hashable {
    public var r: Float
    public var g: Float
    public var b: Float
    public var a: Float

    public init(_ r: Float, _ g: Float, _ b: Float, _ a: Float = 1) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    /// Parses `#RRGGBB` or `RRGGBB`.
    public init?(hex: String) {
        let digits = hex.hasPrefix("#") ? String(hex.dropFirst()) : hex
        guard digits.count == 6, let value = UInt32(digits, radix: 16) else { return nil }
        self.init(Float((value >> 16) & 0xFF) / 255, Float((value >> 8) & 0xFF) / 255, Float(value & 0xFF) / 255)
    }

    /// `#RRGGBB`, as `init(hex:)` reads it.
    public var hex: String {
        let pixel = self.pixel
        return "#"
            + [pixel & 0xFF, (pixel >> 8) & 0xFF, (pixel >> 16) & 0xFF].map { byte in
                let digits = String(byte, radix: 16, uppercase: true)
                return digits.count == 1 ? "0" + digits : digits
            }.joined()
    }

    public func withAlpha(_ alpha: Float) -> RGBA { RGBA(r, g, b, alpha) }

    /// Multiplies the colour components (not alpha) by `factor`.
    public func scaled(_ factor: Float) -> RGBA { RGBA(r * factor, g * factor, b * factor, a) }

    /// Linear interpolation towards `other` by `amount` in 0...1.
    @inline(__always)
    public func mixed(with other: RGBA, _ amount: Float) -> RGBA {
        RGBA(r + (other.r - r) * amount, g + (other.g - g) * amount, b + (other.b - b) * amount, a + (other.a - a) * amount)
    }

    /// Rec. 709 luma of the colour.
    public var luma: Float { 0.2126 * r + 0.7152 * g + 0.0722 * b }

    /// The colour as a canvas pixel: bytes R, G, B, A in memory order.
    @inline(__always)
    public var pixel: UInt32 {
        Self.rounded(r * 255, upTo: 255) | Self.rounded(g * 255, upTo: 255) << 8 | Self.rounded(b * 255, upTo: 255) << 16
            | Self.rounded(a * 255, upTo: 255) << 24
    }

    /// `value` clamped to 0...limit and rounded half away from zero, as `rounded()` would, but
    /// without a call to libm's roundf: a gradient makes a colour for every row it fills.
    @usableFromInline @inline(__always)
    static func rounded(_ value: Float, upTo limit: Float) -> UInt32 {
        let clamped = max(0, min(limit, value))
        // Converted through Int32 (no range traps: 0...limit fits) and rounded up without a
        // branch: a gradient's rows round unpredictably.
        let whole = Int32(clamped)
        let up: Int32 = clamped - Float(whole) >= 0.5 ? 1 : 0
        return UInt32(bitPattern: whole &+ up)
    }

    /// From hue, saturation and value in 0...1.
    public static func hsv(_ hue: Float, _ saturation: Float, _ value: Float) -> RGBA {
        let h = (hue - hue.rounded(.down)) * 6
        let sector = Int(h) % 6
        let f = h - Float(Int(h))
        let p = value * (1 - saturation), q = value * (1 - saturation * f), t = value * (1 - saturation * (1 - f))
        switch sector {
        case 0: return RGBA(value, t, p)
        case 1: return RGBA(q, value, p)
        case 2: return RGBA(p, value, t)
        case 3: return RGBA(p, q, value)
        case 4: return RGBA(t, p, value)
        default: return RGBA(value, p, q)
        }
    }
}
