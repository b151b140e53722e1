import FaultlineHTTP
import FaultlineHTTP2

/// Request holding: a request whose content-length is at most `http2.max_buffered_request_body`
/// waits for its stream's END_STREAM before its exchange starts, as nginx's request buffering
/// does. nghttp2 checks the body against the declared length only as DATA arrives, so a stream
/// it resets for a mismatch (or the client resets) has sent the upstream nothing: the origin
/// never sees a head it would have to abandon. Larger requests, and those without a declared
/// length, stream as they arrive (docs/config.md, "http2").
extension HTTP2Stream {
    /// Whether a request with this head is held until its stream ends.
    func holds(_ head: HTTPHead, endsStream: Bool) -> Bool {
        guard !endsStream, let length = head.contentLength else { return false }
        let limit = context.snapshot.config.http2.maxBufferedRequestBody
        return limit > 0 && length <= UInt64(limit)
    }

    /// Holds the request; the body must keep coming like any other (the client idle timeout).
    func hold(_ head: HTTPHead, membership: SessionMembership) {
        phase = .holding(HTTP2HeldRequest(head: head, membership: membership, receivedAt: context.loop.now))
        armHoldDeadline()
    }

    var isHolding: Bool {
        if case .holding = phase { return true }
        return false
    }

    /// Body bytes of a held request: kept, and given back to the stream's window at once (what
    /// one stream holds is bounded by the declared length, which nghttp2 enforces).
    func holdBody(_ bytes: [UInt8], of held: HTTP2HeldRequest) {
        held.body.append(contentsOf: bytes)
        giveBackWindow()
        armHoldDeadline()
    }

    /// The held request's stream ended cleanly: its exchange starts with the whole request.
    func release(_ held: HTTP2HeldRequest) {
        deadline.disarm()
        startStreamExchange(held.head, trace: trace, membership: held.membership, startedAt: held.receivedAt)
        guard let exchange else { return }
        if !held.body.isEmpty && exchange.machine.isReadingRequest {
            held.body.withUnsafeBytes { raw in
                run(exchange.machine.requestBodyReceived(count: raw.count), on: exchange, inHand: .body(raw))
            }
        }
        if isCurrent(exchange) && exchange.machine.isReadingRequest {
            run(exchange.machine.requestEnded(), on: exchange)
        }
        releaseUpstreamCork()
        connection.scheduleFlush()
    }

    /// The held request's body stopped coming: 408, as an exchange answers a stalled body.
    func heldRequestStalled() {
        let milliseconds = context.snapshot.config.clientTimeouts.idleMs
        let message = "request body stalled for \(milliseconds) ms"
        trace?.fail(.clientTimeout, message)
        writeOwnResponse(.local(LocalResponse(status: 408, message: message, keepAlive: true), requestID: trace?.visibleRequestID),
                         exchange: nil)
        endExchange()
    }

    private func armHoldDeadline() {
        deadline.arm(.clientBody, now: context.loop.now, milliseconds: context.snapshot.config.clientTimeouts.idleMs)
    }
}
