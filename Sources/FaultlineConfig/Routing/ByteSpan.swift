/// A range of bytes inside a route table's pattern arena. Trivial (no references), so
/// scanning matchers never touches reference counts shared between event loops.
struct ByteSpan: Sendable, Equatable {
    let start: Int
    let count: Int

    /// These bytes of `arena`.
    @inline(__always)
    func bytes(in arena: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: arena[start..<(start + count)])
    }
}
