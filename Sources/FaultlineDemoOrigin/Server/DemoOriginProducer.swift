/// A response body being written over several loop turns.
enum DemoOriginProducer {
    /// Nothing to write.
    case idle
    /// `/bytes/{n}`: `sent` of `total` pattern bytes written.
    case pattern(sent: UInt64, total: UInt64, chunked: Bool)
    /// `/stream/{n}`: lines from `next` on are still to write.
    case lines(next: Int, count: Int, chunked: Bool)
}
