import FaultlineHTTP
/// What the proxy must do for one fired fault, with every per-request choice already
/// made (sampled delay, status code from the sequence, whether a lossy profile drops
/// this request).
public enum FaultAction: Sendable, Equatable {
    /// Wait this many milliseconds (before upstream or before the first byte: see the phase).
    case delay(ms: Int)
    /// Answer with this status; `code` is the resolved one.
    case status(StatusFault)
    /// Reset after this many response bytes (0 = before the response); `errorCode` is
    /// the RST_STREAM code on HTTP/2.
    case reset(afterBytes: Int, errorCode: HTTP2ErrorCode)
    /// Close after this many response bytes (0 = empty reply).
    case close(afterBytes: Int)
    /// Hang, then end the connection.
    case hang(HangFault)
    /// Limit the transfer rates.
    case throttle(ThrottleFault)
    /// Keep this many body bytes, then close.
    case truncate(keepBytes: Int)
    /// Break the response this way.
    case corrupt(CorruptFault.Mode)
    /// Change the upstream's answer.
    case rewrite(RewriteFault)
    /// Apply the network profile; `lost` asks the proxy to emulate a lost request
    /// (a stall, or for a total-loss profile a hang until the client gives up).
    case profile(NetworkProfile, lost: Bool)
    /// Refuse the request on its head with this RST_STREAM code (RST on HTTP/1).
    case rstStream(HTTP2ErrorCode)
    /// Shut the client connection down, gracefully or at once.
    case goAway(GoAwayFault)

    /// Whether this action ends the exchange, so later faults do not apply.
    public var isTerminal: Bool {
        switch self {
        case .status(let status): !status.upstream
        case .reset, .close, .hang, .rstStream: true
        case .profile(_, let lost): lost
        case .goAway(let goAway): goAway != .graceful
        case .delay, .throttle, .truncate, .corrupt, .rewrite: false
        }
    }
}
