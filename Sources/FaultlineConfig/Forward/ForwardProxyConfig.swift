/// Settings of a forward-proxy listener (`"mode": "forward"`): clients name the host they
/// want (absolute-form requests, `CONNECT host:port`) and Faultline forwards, intercepts or
/// tunnels. See docs/forward-proxy.md. The file paths are settable inside the module only, for
/// the command line's changed copies (`--certs`, `--upstream-ca`).
public struct ForwardProxyConfig: Sendable, Equatable {
    /// Default bound on open tunnels and intercepted connections of one listener.
    public static let defaultMaxTunnels = 1024
    /// Where the development CA is looked for (and minted when absent), relative to the
    /// working directory.
    public static let defaultCACertificatePath = "certs/ca.pem"
    /// The CA key beside `defaultCACertificatePath`.
    public static let defaultCAKeyPath = "certs/ca-key.pem"

    /// The CA certificate that signs intercepted hosts' leaf certificates.
    public internal(set) var caCertificatePath: String
    /// The CA's private key (never served).
    public internal(set) var caKeyPath: String
    /// Hosts whose HTTPS is intercepted; empty means every host.
    public let intercept: [HostPattern]
    /// Hosts never intercepted: a CONNECT to them gets a byte tunnel. Wins over `intercept`.
    public let passThrough: [HostPattern]
    /// Client networks allowed to use the proxy; empty means any client.
    public let allowedClients: [ClientNetwork]
    /// Accepted `Proxy-Authorization: Basic` credentials; empty means none are asked for.
    public let credentials: [ForwardCredential]
    /// After this many refusals of the intercepted certificate a host passes through; nil never.
    public let passThroughAfterRefusals: Int?
    /// Bound on open tunnels plus intercepted connections.
    public let maxTunnels: Int
    /// A CA file trusted for the real hosts besides the system store (`--upstream-ca`).
    public internal(set) var upstreamCAPath: String?

    /// Creates forward-proxy settings; the defaults intercept every host with `certs/ca.pem`.
    public init(
        caCertificatePath: String = ForwardProxyConfig.defaultCACertificatePath,
        caKeyPath: String = ForwardProxyConfig.defaultCAKeyPath,
        intercept: [HostPattern] = [], passThrough: [HostPattern] = [],
        allowedClients: [ClientNetwork] = [], credentials: [ForwardCredential] = [],
        passThroughAfterRefusals: Int? = nil, maxTunnels: Int = ForwardProxyConfig.defaultMaxTunnels,
        upstreamCAPath: String? = nil
    ) {
        self.caCertificatePath = caCertificatePath
        self.caKeyPath = caKeyPath
        self.intercept = intercept
        self.passThrough = passThrough
        self.allowedClients = allowedClients
        self.credentials = credentials
        self.passThroughAfterRefusals = passThroughAfterRefusals
        self.maxTunnels = maxTunnels
        self.upstreamCAPath = upstreamCAPath
    }

    /// Whether a CONNECT to `host` is intercepted (TLS terminated with a minted leaf) rather
    /// than tunnelled: not on the pass-through list, and on the intercept list when there is one.
    public func intercepts(host: String) -> Bool {
        if passThrough.contains(where: { $0.matches(host: host) }) { return false }
        return intercept.isEmpty || intercept.contains { $0.matches(host: host) }
    }

    /// Whether a client at `address` (an IP literal) may use the proxy.
    public func allows(client address: String) -> Bool {
        allowedClients.isEmpty || allowedClients.contains { $0.contains(address: address) }
    }

    /// The same settings with the CA files in `directory` (`--certs DIR`).
    public func withCertificates(in directory: String) -> ForwardProxyConfig {
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        var copy = self
        copy.caCertificatePath = base + "ca.pem"
        copy.caKeyPath = base + "ca-key.pem"
        return copy
    }
}
