private import COpenSSL

/// A TLS protocol version a context may accept; Faultline never goes below TLS 1.2.
public enum TLSProtocolVersion: Sendable, Equatable, CustomStringConvertible {
    /// TLS 1.2 (RFC 5246).
    case tls12
    /// TLS 1.3 (RFC 8446).
    case tls13

    /// The name OpenSSL and curl print, e.g. "TLSv1.3".
    public var description: String {
        switch self {
        case .tls12: return "TLSv1.2"
        case .tls13: return "TLSv1.3"
        }
    }

    var openSSLValue: Int32 {
        switch self {
        case .tls12: return TLS1_2_VERSION
        case .tls13: return TLS1_3_VERSION
        }
    }
}
