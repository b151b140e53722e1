extension FaultKind {
    /// The phase this kind acts at; a throttle with an upload rate starts in the request
    /// phase (its download rate then applies to the body), a download-only one in the body.
    public var phase: FaultPhase {
        switch self {
        case .hang, .profile, .rstStream, .goAway: .request
        case .delay(let delay): delay.phase == .request ? .request : .firstByte
        case .status(let status): status.upstream ? .responseHead : .request
        case .reset(let reset): reset.afterBytes == 0 ? .request : .body
        case .close(let close): close.afterBytes == 0 ? .request : .body
        case .throttle(let throttle): throttle.upBytesPerSecond > 0 ? .request : .body
        case .rewrite: .responseHead
        case .truncate, .corrupt: .body
        }
    }

    /// Order within the phase (lower first): request phase rst_stream (it acts on the head,
    /// before anything else), hang, profile, delay, status, reset/close/goaway, throttle;
    /// response head status then rewrite; body throttle, truncate, corrupt, reset/close.
    public var compositionRank: Int {
        switch self {
        case .rstStream: -1
        case .hang: 0
        case .profile: 1
        case .delay: 2
        case .status: 3
        case .reset, .close: phase == .request ? 4 : 9
        case .goAway: 4
        case .throttle: phase == .request ? 5 : 6
        case .rewrite: 4
        case .truncate: 7
        case .corrupt: 8
        }
    }

    /// Whether firing this kind ends the exchange, so faults later in composition order
    /// are not applied: status without upstream, reset, close, hang, rst_stream, an
    /// immediate goaway.
    public var isTerminal: Bool {
        switch self {
        case .status(let status): !status.upstream
        case .reset, .close, .hang, .rstStream: true
        case .goAway(let goAway): goAway != .graceful
        case .delay, .throttle, .truncate, .corrupt, .rewrite, .profile: false
        }
    }
}
