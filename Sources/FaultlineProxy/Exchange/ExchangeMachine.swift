import FaultlineHTTP
import FaultlineConfig

/// One exchange (a request and its response) as a state machine without sockets, loops or
/// configuration I/O: protocol adapters report events, the machine answers with the actions
/// to carry out (`ExchangeActions`), and every routing-independent decision of an exchange
/// (framing, keep-alive, retries, timeouts, faults, local answers) is made here.
///
/// The seam for every protocol: an adapter owns an `Exchange` (which holds this machine),
/// reports the request's head, body parts and end, reports what the upstream leg says, and
/// performs the actions. The HTTP/1 adapter is `DownstreamConnection`; the HTTP/2 one,
/// `HTTP2Stream`, reports HEADERS, DATA and END_STREAM as the same events and performs
/// `writeResponseHead`, `forwardResponseBody`, `writeLocalResponse` and the others as frames
/// on its stream (`closeClient` as RST_STREAM), so routing, faults, pins, pooling, logging
/// and HAR stay in one place. `ExchangeHost` is that seam. The states and their transitions are drawn in
/// docs/architecture.md (Exchange state machine) and on `ExchangeState`.
struct ExchangeMachine {
    /// What was fixed when the request head arrived.
    let setup: ExchangeSetup
    /// The faults that fired on this request (empty for a refusal).
    let plan: FaultPlan
    /// The response side.
    var state: ExchangeState
    /// The request side.
    private(set) var request = RequestProgress.receiving(received: 0)
    /// The deadline the exchange armed last (the connection has one deadline at a time).
    var deadline: ConnectionDeadline.Kind?
    /// False once the connection or the process drains: no keep-alive after this exchange.
    private(set) var mayKeepAlive: Bool
    /// Why the exchange failed, once noted (the first cause wins).
    var failure: ExchangeFailure?
    /// The response Faultline made itself, set as the state becomes `answered`.
    var answer: LocalAnswer?

    /// A machine for a request whose head just arrived; `requestHeadReceived()` starts it.
    init(setup: ExchangeSetup, plan: FaultPlan = FaultPlan(), mayKeepAlive: Bool = true) {
        self.setup = setup
        self.plan = plan
        self.mayKeepAlive = mayKeepAlive
        state = .admitted
    }

    /// The RST_STREAM code an HTTP/2 stream sends when it performs `closeClient(.reset)`:
    /// the reset fault's `error_code`, INTERNAL_ERROR when no reset fault fired.
    var resetErrorCode: HTTP2ErrorCode { plan.resetErrorCode }

    /// Whether the client's request has ended.
    @inline(__always)
    var requestComplete: Bool { request == .complete }

    /// Whether client bytes belong to this request (otherwise they are the next requests).
    @inline(__always)
    var isReadingRequest: Bool { !requestComplete && !isDone }

    /// Whether the exchange has ended.
    @inline(__always)
    var isDone: Bool {
        switch state {
        case .done, .answered: true
        default: false
        }
    }

    // MARK: Request events

    /// The request head arrived (the machine was just made for it).
    mutating func requestHeadReceived() -> ExchangeActions {
        var actions = ExchangeActions()
        guard state == .admitted else { return actions }
        switch setup.start {
        case .refuse:
            // Answered once the body has been read and dropped, so the connection can serve
            // the requests behind it; a body that stops coming is bounded by the idle timeout.
            state = .awaitingRequestEnd(.refusal)
            if setup.requestFraming != .none { arm(.clientBody, setup.timeouts.clientIdleMs, &actions) }
        case .proxy:
            if case .refuseStream(let code) = plan.terminal {
                // On the head: the body is never read and the upstream never contacted.
                note(.fault, "request refused (\(code)) by fault \(plan.names.joined(separator: ", "))", &actions)
                end(.closeClient(.refuseStream(code)), &actions)
                return actions
            }
            if plan.gracefulGoAway {
                // This response is the connection's last (`Connection: close` on HTTP/1).
                mayKeepAlive = false
                actions.append(.sendGracefulGoAway)
            }
            if plan.terminal != nil {
                // Answered (or not) by the fault once the request has been read; until then
                // its body must keep coming like any other.
                state = .awaitingRequestEnd(.fault)
                arm(.clientBody, setup.timeouts.clientIdleMs, &actions)
            } else if plan.requestDelayMs > 0 {
                state = .delaying
                actions.append(.scheduleFaultStep(.contactUpstream, milliseconds: plan.requestDelayMs))
            } else {
                state = .awaitingUpstream(UpstreamAttempt())
                actions.append(.connectUpstream(fresh: false, requestComplete: requestComplete))
            }
        }
        return actions
    }

    /// A request body part of `count` bytes arrived (the adapter holds it).
    mutating func requestBodyReceived(count: Int) -> ExchangeActions {
        var actions = ExchangeActions()
        guard case .receiving(let received) = request, !isDone, state != .admitted else { return actions }
        let (sum, overflow) = received.addingReportingOverflow(UInt64(max(0, count)))
        let total = overflow ? UInt64.max : sum
        request = .receiving(received: total)
        let limit = setup.maxRequestBodyBytes
        if limit > 0 && total > UInt64(limit) {
            // Nothing more of it reaches anyone: 413 if no response started, else a cut.
            let message = "request body exceeds the limit of \(limit) bytes"
            if state.responseStarted {
                note(.bodyTooLarge, message, &actions)
                end(.closeClient(.now), &actions)
            } else {
                actions.append(.closeUpstream)
                answerLocally(status: 413, message: message, closing: true, &actions)
            }
            return actions
        }
        if case .awaitingRequestEnd(.refusal) = state, total > Self.refusalDiscardLimit,
           case .refuse(let status, let message) = setup.start {
            // Dropping more of a body nobody will read costs more than a new connection.
            disarm(&actions)
            answerLocally(status: status, message: message, closing: true, &actions)
            return actions
        }
        if deadline == .clientBody { arm(.clientBody, setup.timeouts.clientIdleMs, &actions) }
        if case .awaitingRequestEnd(.refusal) = state { return actions }
        let chunked = setup.requestFraming == .chunked
        switch state {
        case .delaying:
            actions.append(.holdRequestBody(chunked: chunked))
        case .awaitingUpstream, .streamingResponse:
            actions.append(.forwardRequestBody(chunked: chunked))
        default:
            break
        }
        return actions
    }

    /// The request ended.
    mutating func requestEnded() -> ExchangeActions {
        var actions = ExchangeActions()
        guard case .receiving = request, !isDone, state != .admitted else { return actions }
        request = .complete
        let chunked = setup.requestFraming == .chunked
        switch state {
        case .awaitingRequestEnd(.refusal):
            if deadline != nil { disarm(&actions) }
            if case .refuse(let status, let message) = setup.start {
                answerLocally(status: status, message: message, closing: false, &actions)
            }
        case .awaitingRequestEnd(.fault):
            if let terminal = plan.terminal { runTerminalFault(terminal, &actions) }
        case .delaying:
            if chunked { actions.append(.endRequest(chunked: true, held: true)) }
        case .awaitingUpstream, .streamingResponse:
            actions.append(.endRequest(chunked: chunked, held: false))
            if deadline == .clientBody { arm(.upstreamResponse, setup.timeouts.responseMs, &actions) }
        default:
            break
        }
        return actions
    }

    /// How many bytes of a refused request's body are read and dropped to keep its
    /// connection (nginx's discarded body, HAProxy's drain); a larger body is not waited for.
    static let refusalDiscardLimit: UInt64 = 64 * 1024

    /// The adapter decoded all it had and the request is not complete. A refusal whose
    /// declared body is larger than `refusalDiscardLimit` (or the body limit) is answered now and the connection
    /// closed, rather than after a body nobody will read; a smaller one, or a chunked one
    /// (counted as it arrives), is read to its end first, unless its client waits for
    /// `100-continue` before sending it.
    mutating func decodingPaused() -> ExchangeActions {
        var actions = ExchangeActions()
        guard case .awaitingRequestEnd(.refusal) = state, !requestComplete,
              case .refuse(let status, let message) = setup.start else { return actions }
        let bodyLimit = setup.maxRequestBodyBytes > 0 ? min(Self.refusalDiscardLimit, UInt64(setup.maxRequestBodyBytes)) : Self.refusalDiscardLimit
        let tooLarge = if case .contentLength(let length) = setup.requestFraming { length > bodyLimit } else { false }
        guard tooLarge || (setup.refusedExpectingContinue && request == .receiving(received: 0)) else { return actions }
        disarm(&actions)
        answerLocally(status: status, message: message, closing: true, &actions)
        return actions
    }

    /// The request's bytes broke the protocol (`status` is 400, 414 or 431).
    mutating func requestMalformed(status: Int, message: String) -> ExchangeActions {
        var actions = ExchangeActions()
        guard !isDone, state != .admitted else { return actions }
        answerLocally(status: status, message: message, closing: true, &actions)
        return actions
    }

    /// How long client reads pause after `count` bytes of an upload throttled by a fault
    /// (nil: no pause).
    @inline(__always)
    func uploadPause(afterReading count: Int) -> Int? {
        // Read on every client read: the common case (no throttle) touches one field.
        guard plan.upBytesPerSecond > 0 else { return nil }
        return throttledPause(afterReading: count)
    }

    private func throttledPause(afterReading count: Int) -> Int? {
        guard isReadingRequest else { return nil }
        let pause = max(0, count) / plan.upBytesPerSecond * 1000
            + max(0, count) % plan.upBytesPerSecond * 1000 / plan.upBytesPerSecond
        return pause > 0 ? pause : nil
    }

    /// The client connection closed (or failed) before the exchange ended.
    mutating func clientClosed() -> ExchangeActions {
        var actions = ExchangeActions()
        guard !isDone else { return actions }
        abort(&actions)
        return actions
    }

    /// The connection or the process drains: this exchange is its last.
    mutating func drain() {
        mayKeepAlive = false
    }
}
