/// Which certificate authorities an upstream's chain must lead to.
public struct UpstreamTrustConfig: Sendable, Equatable {
    /// PEM file of CA certificates, resolved against the config file's directory.
    public let caFile: String?
    /// Whether the system trust store is used too.
    public let system: Bool

    /// Creates a trust configuration; the default is the system store alone.
    public init(caFile: String? = nil, system: Bool = true) {
        self.caFile = caFile
        self.system = system
    }
}
