/// How many RST_STREAM frames a client may send before the connection is closed: a token
/// bucket of `burst` tokens refilled at `perSecond` (the rapid-reset defence).
public struct HTTP2ResetRateLimit: Sendable, Equatable {
    /// Resets allowed at once.
    public let burst: Int
    /// Resets allowed per second once the burst is spent.
    public let perSecond: Int

    /// Creates a limit; the defaults are those of the config format (nghttp2's own).
    public init(burst: Int = 1000, perSecond: Int = 33) {
        self.burst = burst
        self.perSecond = perSecond
    }
}
