import FaultlineHTTP

/// The memory an event loop composes HTTP/1 heads in (the upstream request head, the client
/// response head's fields), kept from one head to the next: two allocations fewer per
/// exchange than a buffer each. One per loop; a loop writes one head at a time. The arrays
/// of finished upstream heads come back here when their exchanges end and hold the next
/// ones: an array of its own per head cost an allocation, and the exchange's end a free.
/// Their bytes are replaced whole before reuse, so nothing of an earlier head is read again.
final class HeadScratch {
    /// The buffer; emptied before each head.
    var buffer = LineBuffer(capacity: HeadScratch.keptBytes)
    /// Arrays of ended exchanges' upstream heads, for the next heads.
    private var spareHeads: [[UInt8]] = []
    /// At most this many arrays wait: about as many exchanges as end in one loop turn.
    static let keptSpareHeads = 64

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

    /// `composed` as an array, in a spare array's storage when one waits (storage something
    /// else still holds is left to it: the copy then allocates, as a new array does).
    func finishedHead(_ composed: borrowing HTTP1RequestHeadSink) -> [UInt8] {
        var head = spareHeads.popLast() ?? []
        composed.copy(into: &head)
        return head
    }

    /// Takes back the upstream head of an exchange that ended, unless it is unusually large.
    func takeBack(_ head: UpstreamRequestHead) {
        guard case .http1(let bytes) = head, bytes.capacity <= Self.keptBytes,
              spareHeads.count < Self.keptSpareHeads else { return }
        spareHeads.append(bytes)
    }
}
