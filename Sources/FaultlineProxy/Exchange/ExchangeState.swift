/// Where an exchange stands on its response side. Each case carries the data that only
/// makes sense in it, so, for instance, a pacer's pending end cannot coexist with a tunnel.
///
/// ```
///  admitted ──(request head)──▶ awaitingRequestEnd | delaying | awaitingUpstream
///
///  awaitingRequestEnd ──(request end)──▶ local answer / terminal fault ──▶ done
///          │                                              └─▶ hanging ──▶ done
///  delaying ──(fault step)──┐
///                           ▼
///  awaitingUpstream(attempt) ──(retry)──▶ awaitingUpstream(attempt 2)
///          │ 101                │ final head
///          ▼                    ▼
///        tunnel        streamingResponse(stream) ──(cut/end, paced)──▶ drainingPacer(ending)
///          │                    │ (end, unpaced)            │ cut with reset
///          ▼                    ▼                            ▼
///         done                 done           resetting ──(fault step)──▶ done
/// ```
enum ExchangeState: Equatable {
    /// The head arrived; `requestHeadReceived()` decides how the exchange starts.
    case admitted
    /// The answer is decided before any upstream is involved (a refusal or a terminal
    /// fault); the request is read to its end first.
    case awaitingRequestEnd(PendingAnswer)
    /// A request-delay fault holds the request before the upstream is contacted.
    case delaying
    /// An upstream attempt is under way: connecting, sending the request or waiting for
    /// the final response head.
    case awaitingUpstream(UpstreamAttempt)
    /// The response head went to the client; its body follows.
    case streamingResponse(ResponseStream)
    /// The response ended (or was cut) while a pacer still holds bytes for the client.
    case drainingPacer(ExchangeEnding)
    /// A hang fault keeps the connection silent.
    case hanging
    /// A response cut by a reset waits a moment for its bytes to leave before the RST.
    case resetting
    /// After a 101: bytes are relayed both ways.
    case tunnel
    /// The exchange ended: its finish (or close) action was emitted; nothing follows.
    case done

    /// Whether any byte of a final response went to the client.
    var responseStarted: Bool {
        switch self {
        case .streamingResponse, .drainingPacer, .resetting, .tunnel: true
        case .admitted, .awaitingRequestEnd, .delaying, .awaitingUpstream, .hanging, .done: false
        }
    }
}

/// An answer decided before the upstream is contacted.
enum PendingAnswer: Equatable {
    /// Faultline refuses the request (no route, bad Host, body too large, CONNECT).
    case refusal(status: Int, message: String)
    /// A fault replaces the exchange.
    case fault(FaultPlan.Terminal)
}

/// One try at getting the response from the upstream.
struct UpstreamAttempt: Equatable {
    /// 1 for the first try, 2 for the one retry a stale pooled connection allows.
    var number = 1
    /// How far the connection is.
    var link = Link.attaching

    /// The upstream connection's progress.
    enum Link: Equatable {
        /// The adapter is taking one from the pool or opening one.
        case attaching
        /// The TCP (and TLS) handshake is under way.
        case connecting
        /// Connected: the request goes out.
        case connected
    }
}

/// The response being relayed.
struct ResponseStream: Equatable {
    /// How the body is delimited towards the client.
    var framing: BodyFraming
    /// Whether the client connection may carry another request after this response.
    var keepAlive: Bool
    /// Whether a pacer shapes the bytes (first-byte delay, throttle).
    var paced: Bool
    /// Body bytes passed to the client so far (for cut and truncate faults).
    var bodyBytesOut = 0
}

/// How a response that a pacer still holds ends once its bytes have left.
enum ExchangeEnding: Equatable {
    /// Normally: the next request on a kept-alive connection, or a close.
    case finish(keepAlive: Bool)
    /// Cut by a fault: the client sees a close (or a reset).
    case cut(reset: Bool)
}

/// How far the request has come from the client.
enum RequestProgress: Equatable {
    /// Body bytes are still coming; `received` counts them against the body limit.
    case receiving(received: UInt64)
    /// The request ended.
    case complete
}
