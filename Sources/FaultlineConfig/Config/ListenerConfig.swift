/// A listener for client connections: plain HTTP, or HTTPS when `tls` is set.
public struct ListenerConfig: Sendable, Equatable {
    /// The address to bind.
    public let address: SocketAddressSpec
    /// TLS settings; nil for plain HTTP.
    public let tls: ListenerTLSConfig?

    /// Creates a listener bound to `address`, plain HTTP unless `tls` is given.
    public init(address: SocketAddressSpec, tls: ListenerTLSConfig? = nil) {
        self.address = address
        self.tls = tls
    }

    /// Whether clients speak TLS to this listener.
    public var isTLS: Bool {
        tls != nil
    }
}
