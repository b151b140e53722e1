import FaultlineTLS

/// An origin the proxy forwards to.
public struct UpstreamConfig: Sendable, Equatable {
    /// The key under `upstreams` that routes refer to.
    public let name: String
    /// The URL scheme: `http` or `https`.
    public let scheme: String
    /// Host name or IP literal (IPv6 without brackets), lowercased; resolved elsewhere.
    public let host: String
    /// TCP port.
    public let port: UInt16
    /// Which Host header to send.
    public let hostHeader: HostHeaderPolicy
    /// The Host value sent under `.upstream`: `host[:port]`, port omitted when it is the
    /// scheme's default, IPv6 in brackets.
    public let hostHeaderValue: String
    /// Connection and response timeouts.
    public let timeouts: UpstreamTimeouts
    /// Cap on idle pooled connections per event loop.
    public let maxIdleConnections: Int
    /// The protocol spoken to the upstream (`protocol` in the config): `h2` only with
    /// TLS, `h2c` only without.
    public let httpProtocol: UpstreamProtocol

    /// TLS settings: non-nil exactly when the scheme is `https`.
    public let tls: UpstreamTLSConfig?
    /// Whether this upstream was made for a forward-proxy request (its name is `host:port`,
    /// which no configured upstream's may be). Stored: every exchange asks.
    public let isForwarded: Bool

    /// Default for `max_idle_connections`: above the streams one HTTP/2 client may have open
    /// (100 by default), each of which holds an HTTP/1 upstream connection. At 64, a cap below
    /// that, the connections a burst of responses released beyond it were closed and opened
    /// again for the next burst (docs/config.md).
    public static let defaultMaxIdleConnections = 256

    /// Creates an upstream; `hostHeaderValue` is derived from host and port. For `https`,
    /// a nil `tls` means the defaults (system trust, verify `host`, TLS 1.2+, no pins);
    /// for `http`, `tls` is ignored.
    public init(
        name: String,
        scheme: String = "http",
        host: String,
        port: UInt16 = 80,
        hostHeader: HostHeaderPolicy = .preserve,
        timeouts: UpstreamTimeouts = UpstreamTimeouts(),
        maxIdleConnections: Int = UpstreamConfig.defaultMaxIdleConnections,
        tls: UpstreamTLSConfig? = nil,
        httpProtocol: UpstreamProtocol = .http11
    ) {
        self.name = name
        self.isForwarded = name.utf8.contains(UInt8(ascii: ":"))
        self.scheme = scheme
        self.host = host
        self.port = port
        self.hostHeader = hostHeader
        self.timeouts = timeouts
        self.maxIdleConnections = maxIdleConnections
        self.httpProtocol = httpProtocol
        let bracketed = host.utf8.contains(UInt8(ascii: ":")) ? "[\(host)]" : host
        let defaultPort: UInt16 = scheme == "https" ? 443 : 80
        self.hostHeaderValue = port == defaultPort ? bracketed : "\(bracketed):\(port)"
        self.tls = scheme == "https" ? (tls ?? UpstreamTLSConfig(serverName: host)) : nil
    }

    /// The upstream of a forward proxy's route that names none: "the host the client asked
    /// for", replaced per request by one for that host. Its empty name marks it.
    public static let requestedHost = UpstreamConfig(name: "", host: "", port: 0)

    /// Whether this is `requestedHost`: the destination comes from the request.
    public var isRequestedHost: Bool {
        name.isEmpty
    }


    /// Whether the proxy speaks TLS to this upstream.
    public var isTLS: Bool {
        scheme == "https"
    }

    /// The upstream's pins, if it has any.
    public var pins: PinPolicy? {
        tls?.pins
    }
}
