import FaultlineHTTP

/// The memory an event loop composes HTTP/1 heads in (the upstream request head, the client
/// response head's fields), kept from one head to the next: two allocations fewer per
/// exchange than a buffer each. One per loop; a loop writes one head at a time, and nothing
/// of a head stays here once it has been copied out.
final class HeadScratch {
    /// The buffer; emptied before each head.
    var buffer = LineBuffer(capacity: HeadScratch.keptBytes)

    /// The buffer's starting room; one that grew past four times this for an unusually
    /// large head is let go after it.
    static let keptBytes = 4096

    /// Calls `body` with the emptied buffer, and lets an unusually large one go afterwards.
    func compose<R>(_ body: (inout LineBuffer) -> R) -> R {
        buffer.removeAll()
        let result = body(&buffer)
        if buffer.capacity > Self.keptBytes * 4 { buffer = LineBuffer(capacity: Self.keptBytes) }
        return result
    }
}
