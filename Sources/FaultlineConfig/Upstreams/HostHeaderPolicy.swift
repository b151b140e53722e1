/// What Host header the proxy sends upstream.
public enum HostHeaderPolicy: String, Sendable, Equatable, CaseIterable {
    /// Forward the client's Host header unchanged.
    case preserve
    /// Replace it with the upstream's own `host[:port]`.
    case upstream
}
