import FaultlineConfig
import FaultlineHTTP
import FaultlineHTTP2

/// Request holding: a request whose content-length is at most `http2.max_buffered_request_body`
/// waits for its stream's END_STREAM before its exchange starts, as nginx's request buffering
/// does. nghttp2 checks the body against the declared length only as DATA arrives, so a stream
/// it resets for a mismatch (or the client resets) has sent the upstream nothing: the origin
/// never sees a head it would have to abandon. Larger requests, and those without a declared
/// length, stream as they arrive (docs/config.md, "http2"). A request that a rule's `json`
/// conditions may match is held too, until its stream ends or its body outgrows
/// `limits.max_match_body_bytes` (then it is routed as a body that meets no `json` condition,
/// and the rest streams); the held bytes reach the upstream unchanged.
extension HTTP2Stream {
    /// Whether a request with this head is held until its stream ends.
    func holds(_ head: HTTPHead, endsStream: Bool) -> Bool {
        guard !endsStream, let length = head.contentLength else { return false }
        let limit = context.snapshot.config.http2.maxBufferedRequestBody
        return limit > 0 && length <= UInt64(limit)
    }

    /// Holds the request; the body must keep coming like any other (the client idle timeout).
    func hold(_ head: HTTPHead, membership: SessionMembership, matchLimit: Int?) {
        phase = .holding(HTTP2HeldRequest(head: head, membership: membership, receivedAt: context.loop.now,
                                          matchLimit: matchLimit))
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
        if let limit = held.matchLimit, held.body.count > limit {
            // Only a body of undeclared length gets here (a declared one over the limit is not held).
            release(held, ended: false)
            return
        }
        armHoldDeadline()
    }

    /// The held request's stream ended cleanly: its exchange starts with the whole request.
    /// `ended: false`: the body outgrew the match limit; its exchange starts with what came so
    /// far, and the rest streams.
    func release(_ held: HTTP2HeldRequest, ended: Bool = true) {
        deadline.disarm()
        let matchBody: MatchBody? = held.matchLimit.map { limit in
            ended && held.body.count <= limit ? MatchBody(bytes: held.body) : MatchBody.overLimit()
        }
        startStreamExchange(held.head, trace: trace, membership: held.membership, startedAt: held.receivedAt, body: matchBody)
        guard let exchange else { return }
        if !held.body.isEmpty && exchange.machine.isReadingRequest {
            held.body.withUnsafeBytes { raw in
                run(exchange.machine.requestBodyReceived(count: raw.count), on: exchange, inHand: .body(raw))
            }
        }
        if ended && isCurrent(exchange) && exchange.machine.isReadingRequest {
            if let trailers = held.trailers { exchange.keepRequestTrailers(trailers) }
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
