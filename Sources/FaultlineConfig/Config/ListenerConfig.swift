/// A listener for client connections: plain HTTP, or HTTPS when `tls` is set; a forward
/// proxy when `forward` is set.
public struct ListenerConfig: Sendable, Equatable {
    /// The address to bind.
    public let address: SocketAddressSpec
    /// TLS settings; nil for plain HTTP.
    public let tls: ListenerTLSConfig?
    /// Whether a plain listener also accepts HTTP/2 with prior knowledge (h2c: a connection that
    /// opens with the HTTP/2 preface). TLS listeners choose HTTP/2 by ALPN instead.
    public let h2c: Bool
    /// Forward-proxy settings (`"mode": "forward"`); nil for a reverse-proxy listener.
    public let forward: ForwardProxyConfig?

    /// Creates a listener bound to `address`, plain HTTP unless `tls` is given, a forward
    /// proxy when `forward` is given.
    public init(address: SocketAddressSpec, tls: ListenerTLSConfig? = nil, h2c: Bool = false,
                forward: ForwardProxyConfig? = nil) {
        self.address = address
        self.tls = tls
        self.h2c = h2c
        self.forward = forward
    }

    /// Whether clients speak TLS to this listener.
    public var isTLS: Bool {
        tls != nil
    }
}
