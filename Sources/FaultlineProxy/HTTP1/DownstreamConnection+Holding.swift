import FaultlineConfig
import FaultlineHTTP

/// Reading a request's body before routing it, for rules with `json` conditions: the head
/// waits (no upstream is chosen) until the body has ended or outgrown
/// `limits.max_match_body_bytes`; then the exchange starts and the bytes read so far reach it
/// as if they had just arrived, so the upstream gets the body unchanged (docs/config.md,
/// "Matching on a JSON body").
extension DownstreamConnection {
    /// Holds `head` when some rule may read its body; false when it is routed now.
    func holdsForBody(_ head: HTTPHead, trace: ExchangeTrace?, membership: SessionMembership) -> Bool {
        let bodyFollows = head.isChunked || (head.contentLength ?? 0) > 0
        guard let limit = ExchangeStarter.matchBodyLimit(for: head, bodyFollows: bodyFollows,
                                                         session: membership.session, snapshot: context.snapshot,
                                                         scenarios: context.state.scenarios) else {
            return false
        }
        phase = .holding(HTTP1HeldRequest(head: head, trace: trace, membership: membership,
                                          receivedAt: context.loop.now, limit: limit))
        // The client waits for a 100 before sending a body it announced with Expect: as nginx
        // does when it buffers a body, the proxy gives it (an upstream's own 100 may follow:
        // a client takes any number of 1xx, RFC 9110 §15.2).
        if head.versionMinor >= 1, let expect = head.headers.first("expect"), expect.lowercased() == "100-continue" {
            Self.continueLine.withUnsafeBytes { _ = socket.write($0) }
        }
        armDeadline(.clientBody, milliseconds: context.snapshot.config.clientTimeouts.idleMs)
        return true
    }

    private static let continueLine: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// Body bytes of a held request: kept; past the limit the request is routed as one whose
    /// body meets no `json` condition, and the rest streams.
    func holdBody(_ part: UnsafeRawBufferPointer, of held: HTTP1HeldRequest) {
        held.body.append(contentsOf: part)
        if held.body.count > held.limit {
            release(held, ended: false)
        } else {
            armDeadline(.clientBody, milliseconds: context.snapshot.config.clientTimeouts.idleMs)
        }
    }

    /// Starts the held request's exchange with the body read so far (`ended`: all of it).
    func release(_ held: HTTP1HeldRequest, ended: Bool) {
        disarmDeadline()
        let body = ended && held.body.count <= held.limit ? MatchBody(bytes: held.body) : MatchBody.overLimit()
        phase = .readingHead
        startExchange(held.head, trace: held.trace, membership: held.membership, mayKeepAlive: !context.draining,
                      startedAt: held.receivedAt, body: body)
        guard let exchange else { return }
        if !held.body.isEmpty && exchange.machine.isReadingRequest {
            held.body.withUnsafeBytes { raw in
                run(exchange.machine.requestBodyReceived(count: raw.count), on: exchange, inHand: .body(raw))
            }
        }
        guard ended, isCurrent(exchange) else { return }
        if let trailers = held.trailers { exchange.keepRequestTrailers(trailers) }
        if exchange.machine.isReadingRequest { run(exchange.machine.requestEnded(), on: exchange) }
    }

    /// The held request's body stopped coming: 408, as an exchange answers a stalled body.
    func heldRequestStalled(_ held: HTTP1HeldRequest) {
        let milliseconds = context.snapshot.config.clientTimeouts.idleMs
        let message = "request body stalled for \(milliseconds) ms"
        held.trace?.fail(.clientTimeout, message)
        writeLocalAndClose(LocalResponse(status: 408, message: message, keepAlive: false))
    }
}
