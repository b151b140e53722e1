/// Where an exchange stands on its response side. Each case carries the data that only
/// makes sense in it, so, for instance, a pacer's pending end cannot coexist with a tunnel.
/// The state is plain data (it is read on every event): what is fixed from the start (a
/// refusal, a terminal fault) stays in the setup and plan, and a local answer's text in
/// `ExchangeMachine.answer`.
///
/// ```
///  admitted ──(request head)──▶ awaitingRequestEnd | delaying | awaitingUpstream
///
///  awaitingRequestEnd ──(request end)──▶ answered(refusal or status fault) | done (reset,
///          │                               close, garbage) | hanging ──▶ done
///  awaitingUpstream, any time before a response byte ──(failure, timeout)──▶ answered(502/504)
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
    /// The exchange ended with a response Faultline made (its write and finish actions were
    /// emitted); nothing follows.
    case answered
    /// The exchange ended: its finish (or close) action was emitted; nothing follows.
    case done

    /// Whether any byte of a final response went to the client.
    var responseStarted: Bool {
        switch self {
        case .streamingResponse, .drainingPacer, .resetting, .tunnel: true
        case .admitted, .awaitingRequestEnd, .delaying, .awaitingUpstream, .hanging, .answered, .done: false
        }
    }
}
