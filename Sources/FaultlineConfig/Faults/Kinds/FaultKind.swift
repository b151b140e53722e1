/// What a fault injects, with its parameters. Exactly one kind per fault object in the
/// config; the config key of each case is its `keyword`.
public enum FaultKind: Sendable, Equatable {
    /// Wait before contacting the upstream or before the first response byte.
    case delay(DelayFault)
    /// Answer with a status (synthesized, or replacing the upstream's answer).
    case status(StatusFault)
    /// Reset the client connection (RST via SO_LINGER 0).
    case reset(ResetFault)
    /// Close the client connection (FIN).
    case close(CloseFault)
    /// Say nothing, then close or reset.
    case hang(HangFault)
    /// Limit bytes per second per direction.
    case throttle(ThrottleFault)
    /// Cut the body while keeping the declared length.
    case truncate(TruncateFault)
    /// Send a body or framing the client cannot parse.
    case corrupt(CorruptFault)
    /// Change the upstream answer's status and headers.
    case rewrite(RewriteFault)
    /// A named bad-network preset, expanded to its parameters.
    case profile(NetworkProfile)
    /// Refuse the request on its head (RST_STREAM on HTTP/2, RST on HTTP/1).
    case rstStream(RSTStreamFault)
    /// Shut the connection down (GOAWAY on HTTP/2), gracefully or at once.
    case goAway(GoAwayFault)

    /// Config keys of every kind, in the order messages list them.
    public static let keywords = [
        "delay", "status", "reset", "close", "hang", "throttle", "truncate", "corrupt", "rewrite", "profile",
        "rst_stream", "goaway",
    ]

    /// The config key of this kind.
    public var keyword: String {
        switch self {
        case .delay: "delay"
        case .status: "status"
        case .reset: "reset"
        case .close: "close"
        case .hang: "hang"
        case .throttle: "throttle"
        case .truncate: "truncate"
        case .corrupt: "corrupt"
        case .rewrite: "rewrite"
        case .profile: "profile"
        case .rstStream: "rst_stream"
        case .goAway: "goaway"
        }
    }
}
