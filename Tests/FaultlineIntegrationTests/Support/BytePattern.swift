/// Test bodies: the demo origin's `/bytes/{n}` pattern (byte i = i % 251) and seeded pseudo-random bytes.
enum BytePattern {
    static func modulo251(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8($0 % 251) }
    }

    /// Deterministic bytes from a xorshift generator.
    static func random(_ count: Int, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt8(truncatingIfNeeded: state)
        }
    }
}
