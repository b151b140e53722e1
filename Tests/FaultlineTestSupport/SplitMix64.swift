/// A seeded SplitMix64 generator, so that generated inputs are the same on every run of a seed.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator starting from `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// True with probability `p`.
    public mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }

    /// An element of `choices` picked with the given weights.
    public mutating func weighted<T>(_ choices: [(T, Int)]) -> T {
        let total = choices.reduce(0) { $0 + $1.1 }
        var pick = Int.random(in: 0..<total, using: &self)
        for (value, weight) in choices {
            if pick < weight { return value }
            pick -= weight
        }
        return choices[choices.count - 1].0
    }
}
