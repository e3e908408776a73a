extension RenderSettings {
    /// A visual style, by name: one of `StyleRegistry.layouts`.
    public struct Style: RawRepresentable, Hashable, Sendable, CaseIterable, CustomStringConvertible {
        /// Its place in the registry.
        private let index: Int

        public init?(rawValue: String) {
            guard let index = StyleRegistry.layouts.firstIndex(where: { $0.name == rawValue }) else { return nil }
            self.index = index
        }

        /// The registered style `layout` (the first style if it were not registered, which a test rules out).
        init(registered layout: any StyleLayout.Type) {
            index = StyleRegistry.layouts.firstIndex { $0.name == layout.name } ?? 0
        }

        private init(index: Int) { self.index = index }

        public var rawValue: String { layout.name }
        public var description: String { rawValue }
        public static var allCases: [Style] { StyleRegistry.layouts.indices.map(Style.init(index:)) }

        var layout: any StyleLayout.Type { StyleRegistry.layouts[index] }

        /// Whether its notes travel across the frame, `--window` of them on screen.
        package var scrolls: Bool { layout.scrolls }
        /// Whether `--direction` turns it.
        package var turns: Bool { layout.travel != nil }

        /// Every style with a few words on each: `circles, bars, roll (a scrolling piano roll) or ...`.
        public static var helpText: String {
            let texts = StyleRegistry.layouts.map { $0.helpText }
            return texts.count < 2 ? texts.joined() : texts.dropLast().joined(separator: ", ") + " or " + (texts.last ?? "")
        }
    }
}
