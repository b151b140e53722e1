import FaultlineHTTP

/// What the session keeps per open stream: whether its head arrived, and the body bytes
/// waiting for nghttp2's data provider.
final class HTTP2StreamState {
    /// Where the outbound side of the stream is.
    enum Outbound {
        /// No data provider yet (no response or request submitted, or one without a body).
        case idle
        /// A data provider is attached; `deferred` says nghttp2 waits for `resume`.
        case open(deferred: Bool)
        /// The body is complete; trailers, if any, follow the last byte.
        case finishing(trailers: HTTPHeaders?)
        /// END_STREAM (or trailers) have been handed to nghttp2.
        case done
    }

    /// Whether a final response (client) or request (server) head has been decoded.
    var sawHead = false

    /// Body bytes not yet framed; `queueStart` is the first one still owed.
    private(set) var queue: [UInt8] = []
    private var queueStart = 0
    /// Where the outbound side is.
    var outbound = Outbound.idle

    /// Bytes queued and not yet framed.
    var queuedCount: Int { queue.count - queueStart }

    /// Queues body bytes. A consumed prefix is dropped here, when more bytes come, rather than
    /// while framing: a queue that drains completely between two deliveries (the usual case)
    /// is never moved, and one that does not is moved at most once per delivery.
    func enqueue(_ bytes: UnsafeRawBufferPointer) {
        if queueStart == queue.count {
            queue.removeAll(keepingCapacity: true)
            queueStart = 0
        } else if queueStart > 65536 && queueStart * 2 > queue.count {
            queue.removeFirst(queueStart)
            queueStart = 0
        }
        queue.append(contentsOf: bytes)
    }

    /// Copies up to `length` queued bytes to `buffer` and forgets them; returns how many.
    func dequeue(into buffer: UnsafeMutablePointer<UInt8>, length: Int) -> Int {
        let count = min(length, queuedCount)
        guard count > 0 else { return 0 }
        queue.withUnsafeBufferPointer { source in
            if let base = source.baseAddress {
                buffer.update(from: base + queueStart, count: count)
            }
        }
        forget(count)
        return count
    }

    /// Appends the first `count` queued bytes to `output` and forgets them; `count` is at
    /// most `queuedCount`. The DATA frames nghttp2 leaves to the session to write
    /// (`NGHTTP2_DATA_FLAG_NO_COPY`) take their payload straight from here.
    func dequeue(_ count: Int, appendingTo output: inout [UInt8]) {
        guard count > 0, count <= queuedCount else { return }
        queue.withUnsafeBufferPointer { source in
            output.append(contentsOf: UnsafeBufferPointer(rebasing: source[queueStart..<(queueStart + count)]))
        }
        forget(count)
    }

    /// Drops the first `count` queued bytes, framed already.
    private func forget(_ count: Int) {
        queueStart += count
        if queueStart == queue.count {
            queue.removeAll(keepingCapacity: true)
            queueStart = 0
        }
    }

    /// Queue storage larger than this is let go rather than kept for another stream: with
    /// `HTTP2Session.keptStreamStates`, an idle connection keeps at most 32 KiB of queues.
    static let keptQueueBytes = 4 * 1024

    /// Puts the state back as a new stream's: no head seen, nothing queued, no data provider.
    /// Only the queue's storage is kept (when small), so the next stream appends its body
    /// without allocating. Returns false when the storage was too large to keep.
    @discardableResult
    func reset() -> Bool {
        sawHead = false
        outbound = .idle
        queueStart = 0
        guard queue.capacity <= Self.keptQueueBytes else {
            queue = []
            return false
        }
        queue.removeAll(keepingCapacity: true)
        return true
    }

    /// Drops every queued byte (the stream was reset).
    func discardQueue() {
        queue = []
        queueStart = 0
    }
}
