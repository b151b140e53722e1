/// TLS on a client listener: the default certificate, protocol settings, per-name
/// certificates and an optional drill certificate.
public struct ListenerTLSConfig: Sendable, Equatable {
    /// PEM certificate (chain) file, resolved against the config file's directory.
    public let certificate: String
    /// PEM private key file, resolved against the config file's directory.
    public let key: String
    /// ALPN protocols offered, in preference order (`h2`, `http/1.1`).
    public let alpn: [String]
    /// Lowest protocol version accepted.
    public let minVersion: MinimumTLSVersion
    /// Certificates chosen by the client's server name; the default one serves the rest.
    public let sni: [SNICertificateConfig]
    /// A certificate presented instead of the default one, for client-side drills.
    public let drill: DrillCertificateConfig?

    /// Default for `alpn`.
    public static let defaultALPN = ["h2", "http/1.1"]

    /// Creates a listener TLS configuration; the defaults are those of the config format.
    public init(
        certificate: String,
        key: String,
        alpn: [String] = ListenerTLSConfig.defaultALPN,
        minVersion: MinimumTLSVersion = .tls12,
        sni: [SNICertificateConfig] = [],
        drill: DrillCertificateConfig? = nil
    ) {
        self.certificate = certificate
        self.key = key
        self.alpn = alpn
        self.minVersion = minVersion
        self.sni = sni
        self.drill = drill
    }

    /// The SNI entry for a client's server name, if one matches (first match wins).
    public func certificate(forServerName name: String) -> SNICertificateConfig? {
        sni.first { $0.matches(serverName: name) }
    }
}
