/// The lowest TLS version a connection accepts, as written in `min_version`.
public enum MinimumTLSVersion: String, Sendable, Equatable, Comparable, CaseIterable {
    /// TLS 1.2, the default.
    case tls12 = "1.2"
    /// TLS 1.3.
    case tls13 = "1.3"

    /// Orders by protocol version.
    public static func < (lhs: MinimumTLSVersion, rhs: MinimumTLSVersion) -> Bool {
        lhs == .tls12 && rhs == .tls13
    }
}
