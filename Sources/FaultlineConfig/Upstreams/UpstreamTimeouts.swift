/// Timeouts for talking to one upstream, in milliseconds.
public struct UpstreamTimeouts: Sendable, Equatable {
    /// Time allowed to establish a connection.
    public let connectMs: Int
    /// Time from the request being fully sent to the response head arriving.
    public let responseMs: Int
    /// How long an idle pooled connection is kept.
    public let idleMs: Int
    /// How long a tunnel (WebSocket after 101) may carry no byte either way before it is
    /// closed; 60 s like nginx's `proxy_read_timeout`.
    public let tunnelIdleMs: Int

    /// Creates upstream timeouts; the defaults are those of the config format.
    public init(connectMs: Int = 5000, responseMs: Int = 30000, idleMs: Int = 60000, tunnelIdleMs: Int = 60000) {
        self.connectMs = connectMs
        self.responseMs = responseMs
        self.idleMs = idleMs
        self.tunnelIdleMs = tunnelIdleMs
    }
}
