/// A certificate a TLS listener presents to clients asking for one server name (SNI).
public struct SNICertificateConfig: Sendable, Equatable {
    /// `api.example.com`, or `*.example.com` for any subdomain (not the apex). Never an IP.
    public let serverName: HostPattern
    /// PEM certificate (chain) file, resolved against the config file's directory.
    public let certificate: String
    /// PEM private key file, resolved against the config file's directory.
    public let key: String
    /// A drill certificate presented instead of this one, if any.
    public let drill: DrillCertificateConfig?

    /// Creates an SNI entry.
    public init(serverName: HostPattern, certificate: String, key: String, drill: DrillCertificateConfig? = nil) {
        self.serverName = serverName
        self.certificate = certificate
        self.key = key
        self.drill = drill
    }

    /// Whether a client's SNI `name` selects this entry (ASCII case-insensitive, one
    /// trailing dot ignored).
    public func matches(serverName name: String) -> Bool {
        var lower = name.lowercased()
        if lower.hasSuffix(".") { lower.removeLast() }
        switch serverName {
        case .exact(let host): return lower == host
        case .wildcard(let suffix): return lower.hasSuffix("." + suffix) && lower.count > suffix.count + 1
        }
    }
}
