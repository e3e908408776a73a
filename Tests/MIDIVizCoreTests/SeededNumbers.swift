/// A small generator for randomized tests: the same numbers every run.
struct SeededNumbers {
    var state: UInt64

    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state >> 11
    }

    /// A number in 0...1, in millionths.
    mutating func unit() -> Float { Float(next() % 1_000_001) / 1_000_000 }
}
