/// A listener for client connections: plain HTTP, or HTTPS when `tls` is set; a forward
/// proxy when `forward` is set. The address and forward settings are settable inside the
/// module only, for the command line's changed copies (see `ProxyConfig`).
public struct ListenerConfig: Sendable, Equatable {
    /// The address to bind.
    public internal(set) var address: SocketAddressSpec
    /// TLS settings; nil for plain HTTP.
    public let tls: ListenerTLSConfig?
    /// Whether a plain listener also accepts HTTP/2 with prior knowledge (h2c: a connection that
    /// opens with the HTTP/2 preface). TLS listeners choose HTTP/2 by ALPN instead.
    public let h2c: Bool
    /// Forward-proxy settings (`"mode": "forward"`); nil for a reverse-proxy listener.
    public internal(set) var forward: ForwardProxyConfig?
    /// Whether a connection is accepted only once its first bytes arrive (TCP_DEFER_ACCEPT):
    /// one wake-up per new connection instead of two. HTTP clients speak first, so only a
    /// client that stays silent notices: it is accepted about a second later.
    public let deferAccept: Bool

    /// Creates a listener bound to `address`, plain HTTP unless `tls` is given, a forward
    /// proxy when `forward` is given, accepting connections with their first bytes unless
    /// `deferAccept` is false.
    public init(address: SocketAddressSpec, tls: ListenerTLSConfig? = nil, h2c: Bool = false,
                forward: ForwardProxyConfig? = nil, deferAccept: Bool = true) {
        self.address = address
        self.tls = tls
        self.h2c = h2c
        self.forward = forward
        self.deferAccept = deferAccept
    }

    /// Whether clients speak TLS to this listener.
    public var isTLS: Bool {
        tls != nil
    }
}
