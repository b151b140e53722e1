/// A numeric bind address: an IPv4 or IPv6 literal and a port. Names other than
/// `localhost` are refused so binding never depends on DNS.
public struct SocketAddressSpec: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The IP literal, without brackets for IPv6 (e.g. `127.0.0.1`, `::1`).
    public let host: String
    /// The port; 0 asks the kernel for an ephemeral port.
    public let port: UInt16

    /// Creates an address from an already validated literal.
    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// Whether the host is an IPv6 literal.
    public var isIPv6: Bool {
        host.utf8.contains(UInt8(ascii: ":"))
    }

    /// `host:port`, with the host in brackets for IPv6.
    public var description: String {
        isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
