/// SplitMix64 (Steele, Lea and Flood): a tiny, fast, seeded generator with good
/// statistical quality. Not for cryptography. Its output is a pure function of the seed
/// and the draw index, which lets many threads share one stream through an atomic
/// counter (`value(stream:index:)`) with decisions that depend only on the order of draws.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    /// The golden-ratio increment between states.
    static let gamma: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// The current state; the next output is `mix(state &+ gamma)`.
    public private(set) var state: UInt64

    /// Creates a generator whose outputs depend only on `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= SeededRandom.gamma
        return SeededRandom.mix(state)
    }

    /// The SplitMix64 finalizer: a bijective scramble of 64 bits.
    public static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Output number `index` (from 0) of the stream whose state starts at `stream`: the
    /// same as calling `next()` index + 1 times on `SeededRandom(seed: stream)`.
    public static func value(stream: UInt64, index: UInt64) -> UInt64 {
        mix(stream &+ (index &+ 1) &* gamma)
    }

    /// The start of the stream of fault `fault` of route `route` under `seed`: independent
    /// of every other (route, fault) pair, so adding a fault leaves the others' draws alone.
    public static func stream(seed: UInt64, route: Int, fault: Int) -> UInt64 {
        let routeKey = mix(mix(seed) &+ UInt64(truncatingIfNeeded: route) &* gamma)
        return mix(routeKey ^ mix(UInt64(truncatingIfNeeded: fault) &+ 0x5851_F42D_4C95_7F2D))
    }

    /// Maps 64 random bits to a Double in 0..<1 with 53 bits of precision.
    public static func unit(_ bits: UInt64) -> Double {
        Double(bits >> 11) * 0x1p-53
    }
}
