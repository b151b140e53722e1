/// What the exchange machine asks its adapters to do. Actions never carry body bytes: a
/// body action refers to the part the adapter holds while it reports the event (as
/// SwiftNIO's state machines do), so relaying a body costs no copy. Nor do they carry
/// anything reference-counted (messages and local answers stay in the machine): an action
/// is plain data, copied and dropped for free on the hot path.
enum ExchangeAction: Equatable {
    // Upstream side.

    /// Take a pooled connection (or, `fresh`, always open a new one), write the request head
    /// and whatever a retry must send again (and tell the connection the request is written
    /// when `requestComplete`), then report `upstreamAttached(connecting:)`.
    case connectUpstream(fresh: Bool, requestComplete: Bool)
    /// Write the request body part in hand to the upstream (as one chunk when `chunked`).
    case forwardRequestBody(chunked: Bool)
    /// Keep the request body part in hand (framed likewise) until a delay ends.
    case holdRequestBody(chunked: Bool)
    /// The request ended: the last chunk (with trailers) when `chunked`, held back during a
    /// delay (`held`) or written and the upstream told the request is complete.
    case endRequest(chunked: Bool, held: Bool)
    /// Write what was held during a delay.
    case sendHeldRequest
    /// The exchange completed cleanly: the pool may keep the connection.
    case releaseUpstream
    /// Close the upstream connection (a cut, a cancelled or a replaced exchange).
    case closeUpstream

    // Client side.

    /// Pass an interim (1xx) response head on.
    case writeInterimHead
    /// Write the final response head in hand (already rewritten by any rewrite fault).
    case writeResponseHead(ResponseHeadShape)
    /// Route response bytes through a pacer shaped by `ExchangeMachine.pacerSettings`.
    case startPacer
    /// Write the first `count` bytes of the response body part in hand.
    case forwardResponseBody(ResponseBodyPart)
    /// The response body ended (the last chunk with trailers when `chunked`).
    case endResponseBody(chunked: Bool)
    /// Write the response Faultline made itself (`ExchangeState.answered(.local)`).
    case writeLocalResponse
    /// Write the status fault's synthesized response (`ExchangeState.answered(.fault)`).
    case writeFaultResponse
    /// Write bytes that are not HTTP.
    case writeGarbage
    /// Write a 200 head followed by broken chunk framing.
    case writeBadChunkFraming
    /// Relay bytes both ways from now on (after a 101).
    case startTunnel
    /// Report `pacerDrained()` once the pacer has handed every byte to the client.
    case awaitPacerDrain
    /// A graceful goaway fault fired: this exchange completes and is the client
    /// connection's last (HTTP/2: GOAWAY NO_ERROR whose last stream id covers this stream).
    case sendGracefulGoAway

    // Time.

    /// (Re)start the connection's one deadline.
    case armDeadline(ConnectionDeadline.Kind, milliseconds: Int)
    /// No deadline applies.
    case disarmDeadline
    /// Report `faultStepDue(step)` after `milliseconds`.
    case scheduleFaultStep(FaultStep, milliseconds: Int)

    // Ending. Exactly one of `finish` and `closeClient` ends every exchange; the adapter
    // writes its log record then.

    /// The exchange's error was noted (`ExchangeMachine.failure`, the first one wins): it
    /// goes on the log record.
    case noteError(ExchangeError)
    /// The exchange ended: keep the client connection for the next request, or close it
    /// after what is queued has been sent.
    case finish(keepAlive: Bool)
    /// The exchange was cut short: close the client connection.
    case closeClient(ClientClose)
}
