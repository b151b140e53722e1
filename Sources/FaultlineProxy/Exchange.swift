import FaultlineHTTP
import FaultlineIO
import FaultlineConfig

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
    var requestTrailers = HTTPHeaders()
    var retried = false
    /// Whether sending the request twice has the effect of sending it once (RFC 9110 §9.2.2).
    let isIdempotent: Bool
    /// The body bytes written upstream so far, framed, kept so a retry can send them again;
    /// nil once they outgrow `replayLimit` (such a request is never retried).
    private(set) var replayBody: [UInt8]? = []
    static let replayLimit = 64 * 1024

    var responseHeadSent = false
    var responseFraming = BodyFraming.none
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
        switch request.method {
        case "GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE": isIdempotent = true
        default: isIdempotent = false
        }
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

    /// Notes framed body bytes written upstream, for a retry. Only an attempt on a pooled
    /// connection can be retried, so only such an attempt pays for the copy.
    func recordForReplay(_ bytes: UnsafeRawBufferPointer) {
        guard replayBody != nil, !retried, upstream?.isReused == true else { return }
        if replayBody.map({ $0.count + bytes.count > Self.replayLimit }) ?? true {
            replayBody = nil
        } else {
            replayBody?.append(contentsOf: bytes)
        }
    }

    /// Whether the attempt that failed on `connection` may be sent again on a fresh one.
    /// Only a pooled connection that died before any response byte qualifies (a stale
    /// keep-alive connection, the classic race), and then only if a second copy cannot do
    /// harm: the method is idempotent, or the upstream provably received nothing (the
    /// kernel took no byte of this request). The body sent so far must be replayable.
    func mayRetry(after failure: UpstreamFailure, on connection: UpstreamConnection) -> Bool {
        guard !retried, !responseHeadSent, connection.isReused, !connection.sawResponseBytes,
              case .connectionLost = failure.retryClass, replayBody != nil else { return false }
        return isIdempotent || connection.sentNothing
    }
}
