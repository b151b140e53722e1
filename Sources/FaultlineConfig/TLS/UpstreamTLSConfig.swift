import FaultlineTLS

/// How the proxy talks TLS to an https upstream: name, trust, version floor and pins.
public struct UpstreamTLSConfig: Sendable, Equatable {
    /// The name the certificate is verified against (lowercased; IPv6 without brackets),
    /// and sent as SNI unless it is an IP literal.
    public let serverName: String
    /// Trust anchors for chain verification.
    public let trust: UpstreamTrustConfig
    /// Lowest protocol version accepted.
    public let minVersion: MinimumTLSVersion
    /// Whether the certificate must match `serverName` (false only for test chains).
    public let verifyHostname: Bool
    /// Pins checked after the chain is verified, if any.
    public let pins: PinPolicy?
    /// Pins taken from an app configuration instead (never both), if any.
    public let appPins: AppPinsConfig?

    /// Creates an upstream TLS configuration; the defaults are those of the config format.
    public init(
        serverName: String,
        trust: UpstreamTrustConfig = UpstreamTrustConfig(),
        minVersion: MinimumTLSVersion = .tls12,
        verifyHostname: Bool = true,
        pins: PinPolicy? = nil,
        appPins: AppPinsConfig? = nil
    ) {
        self.serverName = serverName
        self.trust = trust
        self.minVersion = minVersion
        self.verifyHostname = verifyHostname
        self.pins = pins
        self.appPins = appPins
    }

    /// Whether `serverName` is an IP literal: then no SNI is sent (RFC 6066) and the
    /// certificate is verified against its IP address entries.
    public var serverNameIsIPAddress: Bool {
        IPLiteral.isIPv4(serverName) || IPLiteral.isIPv6(serverName)
    }

    /// The SNI value to send, or nil for an IP literal.
    public var sniName: String? {
        serverNameIsIPAddress ? nil : serverName
    }
}
