/// The deterministic body of `/bytes/{n}`: byte i is `i % 251` (a prime, so the pattern does
/// not line up with power-of-two block sizes and a misplaced block shows in a checksum).
enum DemoOriginPattern {
    /// Bytes per write while streaming.
    static let blockSize = 64 * 1024

    /// One block plus a period of slack, so any offset's next block is a contiguous slice.
    static let storage: [UInt8] = (0..<(blockSize + 251)).map { UInt8($0 % 251) }

    /// Calls `body` with the `count` pattern bytes that start at absolute `offset`.
    static func withBlock<R>(offset: UInt64, count: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        let start = Int(offset % 251)
        return storage.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[start..<(start + min(count, blockSize))])) }
    }
}
