extension FaultKind {
    /// The phase this kind acts at; a throttle with an upload rate starts in the request
    /// phase (its download rate then applies to the body), a download-only one in the body.
    public var phase: FaultPhase {
        switch self {
        case .hang, .profile: .request
        case .delay(let delay): delay.phase == .request ? .request : .firstByte
        case .status(let status): status.upstream ? .responseHead : .request
        case .reset(let reset): reset.afterBytes == 0 ? .request : .body
        case .close(let close): close.afterBytes == 0 ? .request : .body
        case .throttle(let throttle): throttle.upBytesPerSecond > 0 ? .request : .body
        case .rewrite: .responseHead
        case .truncate, .corrupt: .body
        }
    }

    /// Order within the phase (lower first): request phase hang, profile, delay, status,
    /// reset/close, throttle; response head status then rewrite; body throttle, truncate,
    /// corrupt, reset/close.
    public var compositionRank: Int {
        switch self {
        case .hang: 0
        case .profile: 1
        case .delay: 2
        case .status: 3
        case .reset, .close: phase == .request ? 4 : 9
        case .throttle: phase == .request ? 5 : 6
        case .rewrite: 4
        case .truncate: 7
        case .corrupt: 8
        }
    }

    /// Whether firing this kind ends the exchange, so faults later in composition order
    /// are not applied: status without upstream, reset, close, hang.
    public var isTerminal: Bool {
        switch self {
        case .status(let status): !status.upstream
        case .reset, .close, .hang: true
        case .delay, .throttle, .truncate, .corrupt, .rewrite, .profile: false
        }
    }
}
