/// `--size`: `WIDTHxHEIGHT` or a name (`1080p`, `vertical`).
public struct FrameSize: OptionValue {
    public var width: Int
    public var height: Int

    public static let named: [(name: String, size: FrameSize)] = [
        ("720p", FrameSize(width: 1280, height: 720)), ("1080p", FrameSize(width: 1920, height: 1080)),
        ("4k", FrameSize(width: 3840, height: 2160)), ("square", FrameSize(width: 1080, height: 1080)),
        ("vertical", FrameSize(width: 1080, height: 1920)),
    ]

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public init?(optionText: String) {
        let text = optionText.lowercased()
        if let named = Self.named.first(where: { $0.name == text }) { self = named.size; return }
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) else { return nil }
        self.init(width: width, height: height)
    }

    public var optionText: String { "\(width)x\(height)" }
}

extension FrameSize {
    /// Refuses an odd width or height: a video's 4:2:0 chroma (and raw yuv420p) takes pixels in
    /// pairs. PNG frames and posters may be any size.
    public func checkEven() throws(OptionError) {
        guard width % 2 == 0, height % 2 == 0 else {
            throw .outOfRange(
                option: "size", value: optionText, allowed: "even in width and height for a video (its encoders require it; PNG frames and posters may be odd)")
        }
    }
}
