/// A small generator for randomized tests: the same numbers every run. As a
/// `RandomNumberGenerator` it gives its whole state; `below` and `unit` use its high bits.
struct SeededNumbers: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state
    }

    /// A number in 0..<`bound`.
    mutating func below(_ bound: UInt64) -> UInt64 { (next() >> 11) % bound }

    /// A number in 0...1, in millionths.
    mutating func unit() -> Float { Float(below(1_000_001)) / 1_000_000 }
}
