import FaultlineHTTP
import FaultlineIO
import FaultlineConfig

/// One exchange as its adapters see it: the state machine that decides, and the resources
/// its actions work on (the upstream leg, the pacer, a fault timer, bytes held
/// during a delay or kept for a retry). The snapshot and route it started on stay fixed for
/// its whole life, whatever reloads happen meanwhile.
final class Exchange {
    let snapshot: ConfigSnapshot
    /// nil for a request refused before routing found one.
    let route: CompiledRoute?
    /// The head sent upstream, kept so a request that met a stale pooled connection can be retried.
    let upstreamHead: UpstreamRequestHead
    /// The decisions.
    var machine: ExchangeMachine

    /// The upstream side: an HTTP/1 connection or an HTTP/2 stream; nil between attempts.
    var upstream: UpstreamLeg?
    /// Shapes response bytes (first-byte delay, throttle); nil when no fault asks.
    var pacer: ResponsePacer?
    /// A fault step in progress, cancelled if the exchange ends early.
    var faultTimer: TimerID?
    /// Upstream-bound bytes held while a request delay runs.
    var heldUpstream: [UInt8] = []
    var requestTrailers = HTTPHeaders()
    var responseTrailers = HTTPHeaders()
    /// The body bytes written upstream so far, framed, kept so a retry can send them again;
    /// nil once they outgrow `replayLimit` (such a request is never retried).
    private(set) var replayBody: [UInt8]? = []
    static let replayLimit = 64 * 1024
    /// When the request head arrived (the loop's monotonic nanoseconds), set by the adapter
    /// that starts the exchange: what `GET /metrics` measures durations from, logs on or off.
    var startedAt: UInt64 = 0
    /// Where a forward-proxy request goes (its route named no upstream); nil otherwise.
    var destination: ForwardDestination?
    /// The final status the client got (nil while it got none: a reset, a close, garbage).
    var clientStatus: Int?

    private let decision: FaultDecision?
    /// The decider `decision` came from: the snapshot's, or a session's.
    private let decider: FaultDecider?

    init(snapshot: ConfigSnapshot, route: CompiledRoute?, upstreamHead: UpstreamRequestHead, machine: ExchangeMachine,
         decision: FaultDecision? = nil, decider: FaultDecider? = nil) {
        self.snapshot = snapshot
        self.route = route
        self.upstreamHead = upstreamHead
        self.machine = machine
        self.decision = decision
        self.decider = decider
    }

    deinit {
        // However the exchange ended, its injections stop counting as active (max_active).
        if let decision, !decision.isEmpty { (decider ?? snapshot.faults).finished(decision) }
    }

    /// Stops fault timers and pacing and closes the upstream side (the exchange ended; an
    /// upstream still attached cannot be reused mid-message).
    func cancel(on loop: EventLoop) {
        upstream?.close()
        upstream = nil
        if let faultTimer { loop.cancel(faultTimer) }
        faultTimer = nil
        pacer?.cancel()
    }

    /// Notes body bytes written upstream (framed for HTTP/1), for a retry. Only an attempt
    /// on a pooled connection or an HTTP/2 stream can be retried, so only such an attempt
    /// pays for the copy.
    func recordForReplay(_ bytes: UnsafeRawBufferPointer) {
        guard replayBody != nil, upstream?.keepsReplay == true else { return }
        if replayBody.map({ $0.count + bytes.count > Self.replayLimit }) ?? true {
            replayBody = nil
        } else {
            replayBody?.append(contentsOf: bytes)
        }
    }

    /// Whether the upstream speaks HTTP/2 (`protocol: h2` or `h2c`): its request body is
    /// held and replayed unframed.
    var speaksHTTP2Upstream: Bool {
        route.map { $0.upstream.httpProtocol != .http11 } ?? false
    }

    /// Whether the exchange became a tunnel (after a 101): no request body is read then.
    var isTunnel: Bool {
        if case .tunnel = machine.state { return true }
        return false
    }
}
