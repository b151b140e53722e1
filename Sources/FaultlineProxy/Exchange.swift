import FaultlineHTTP
import FaultlineIO
import FaultlineRules

/// Per-request state of one proxied exchange; the route and snapshot it started on stay fixed
/// for its whole life, whatever reloads happen meanwhile.
final class Exchange {
    let snapshot: ConfigSnapshot
    let route: CompiledRoute
    let request: HTTPHead
    let requestFraming: BodyFraming
    let isHeadRequest: Bool
    let upgradeRequested: Bool
    /// The head sent upstream, kept so a request that met a stale pooled connection can be retried.
    let upstreamHead: [UInt8]

    var upstream: UpstreamConnection?
    var requestComplete = false
    var requestBodyBytes: UInt64 = 0
    var requestChunkOpen = false
    var requestTrailers = HTTPHeaders()
    var retried = false

    var responseHeadSent = false
    var responseFraming = BodyFraming.none
    var responseChunkOpen = false
    var responseTrailers = HTTPHeaders()
    var clientKeepAlive = true

    /// The faults that fired on this request and what they ask for.
    let plan: FaultPlan
    private let decision: FaultDecision?
    /// Shapes response bytes (first-byte delay, throttle); nil when no fault asks.
    var pacer: ResponsePacer?
    /// Upstream-bound bytes held while a request delay runs.
    var heldUpstream: [UInt8] = []
    var waitingForDelay = false
    /// A delay or hang in progress, cancelled if the exchange ends early.
    var faultTimer: TimerID?
    /// Response body bytes passed to the client (for cut and truncate faults).
    var bodyBytesOut = 0

    init(snapshot: ConfigSnapshot, route: CompiledRoute, request: HTTPHead, requestFraming: BodyFraming,
         upstreamHead: [UInt8], plan: FaultPlan = FaultPlan(), decision: FaultDecision? = nil) {
        self.plan = plan
        self.decision = decision
        self.snapshot = snapshot
        self.route = route
        self.request = request
        self.requestFraming = requestFraming
        self.isHeadRequest = request.method == "HEAD"
        self.upgradeRequested = request.isUpgrade
        self.upstreamHead = upstreamHead
    }

    deinit {
        // However the exchange ended, its injections stop counting as active (max_active).
        if let decision, !decision.isEmpty { snapshot.faults.finished(decision) }
    }

    /// Stops fault timers and pacing (the exchange was cut short).
    func cancelFaults(on loop: EventLoop) {
        if let faultTimer { loop.cancel(faultTimer) }
        faultTimer = nil
        pacer?.cancel()
    }

    /// Whether a failed attempt can be sent again on a fresh connection: nothing of the
    /// response arrived and no body byte was streamed that cannot be replayed.
    var canRetry: Bool {
        !retried && !responseHeadSent && requestBodyBytes == 0
    }
}
