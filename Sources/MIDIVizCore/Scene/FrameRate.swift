/// Frames per second as a fraction: a whole rate (60) or a broadcast one (30000/1001, the
/// 29.97 of NTSC video), so that a render matches footage it is edited beside. Frame times are
/// computed from the fraction, never accumulated; a whole rate gives the very times it always
/// did (index / rate).
public struct FrameRate: Sendable, Hashable {
    /// Frames in `denominator` seconds, both at least 1.
    public let numerator: Int
    public let denominator: Int

    /// A whole number of frames a second.
    public init(_ perSecond: Int) {
        numerator = perSecond
        denominator = 1
    }

    /// `numerator` frames in `denominator` seconds, reduced; nil unless the numerator is at
    /// least 0 and the denominator at least 1 (and both at most a million, so that frame
    /// arithmetic cannot overflow). A rate of 0 is a value that options refuse by its range.
    public init?(numerator: Int, denominator: Int) {
        guard (0...1_000_000).contains(numerator), (1...1_000_000).contains(denominator) else { return nil }
        var (a, b) = (numerator, denominator)
        while b != 0 { (a, b) = (b, a % b) }
        self.numerator = numerator / a
        self.denominator = denominator / a
    }

    /// The rate as a number (29.97002997… for 30000/1001).
    public var perSecond: Double { Double(numerator) / Double(denominator) }

    /// The time frame `index` (0-based) shows.
    public func seconds(ofFrame index: Int) -> Double { Double(index) * Double(denominator) / Double(numerator) }

    /// How many frames `seconds` hold, as a fraction of frames.
    public func frames(in seconds: Double) -> Double { seconds * Double(numerator) / Double(denominator) }

    /// The NTSC rates by the decimals people write for them: x000/1001. (ffmpeg's MP4 writer
    /// rounds 120000/1001 to 120: it is not among them.)
    public static let broadcast: [(decimal: String, rate: FrameRate)] = [
        ("23.976", FrameRate(numerator: 24000, denominator: 1001)!), ("23.98", FrameRate(numerator: 24000, denominator: 1001)!),
        ("29.97", FrameRate(numerator: 30000, denominator: 1001)!), ("47.952", FrameRate(numerator: 48000, denominator: 1001)!),
        ("59.94", FrameRate(numerator: 60000, denominator: 1001)!),
    ]

    /// Reads `60`, `30000/1001`, or a decimal: the NTSC ones (`29.97`, `29.970`, `59.94`,
    /// `23.976`) as x000/1001, any other (`12.5`) exactly.
    public init?(text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 2 {
            guard let numerator = Self.wholeNumber(parts[0], allowsZero: true), let denominator = Self.wholeNumber(parts[1]) else { return nil }
            self.init(numerator: numerator, denominator: denominator)
            return
        }
        guard let exact = Self.decimal(text) else { return nil }
        self = Self.broadcast.first { Self.decimal($0.decimal) == exact }?.rate ?? exact
    }

    /// A decimal (`30`, `29.97`, `29.9700`, `12.5`: at most three places but for trailing
    /// zeros, seven digits each side) as the fraction it writes.
    private static func decimal(_ text: String) -> FrameRate? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let whole = wholeNumber(parts[0], allowsZero: true) else { return nil }
        guard parts.count == 2 else { return FrameRate(numerator: whole, denominator: 1) }
        guard (1...7).contains(parts[1].count), wholeNumber(parts[1], allowsZero: true) != nil else { return nil }
        let places = parts[1].reversed().drop { $0 == "0" }.reversed()
        guard places.count <= 3 else { return nil }
        guard let fraction = places.isEmpty ? 0 : Int(String(places)) else { return nil }
        var scale = 1
        for _ in 0..<places.count { scale *= 10 }
        return FrameRate(numerator: whole * scale + fraction, denominator: scale)
    }

    /// Digits only (no sign, no spaces), at most seven of them.
    private static func wholeNumber(_ text: Substring, allowsZero: Bool = false) -> Int? {
        guard (1...7).contains(text.count), text.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(text) else { return nil }
        return value > 0 || allowsZero ? value : nil
    }

    /// `60`, or the fraction (`30000/1001`): what ffmpeg's `-framerate` and `fps=` take, and
    /// what `init(text:)` reads back.
    public var text: String { denominator == 1 ? String(numerator) : "\(numerator)/\(denominator)" }

    /// For people: `60`, `29.97`, `12.5`.
    public var description: String {
        if denominator == 1 { return String(numerator) }
        if let decimal = Self.broadcast.first(where: { $0.rate == self })?.decimal { return decimal }
        let value = perSecond
        return value * 1000 == (value * 1000).rounded() ? String(value) : text
    }
}
