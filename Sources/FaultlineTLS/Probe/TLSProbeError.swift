/// Why `TLSProbe` could not fetch a chain; the text names the host and the cause.
public enum TLSProbeError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The host name did not resolve.
    case resolve(String)
    /// No address accepted a TCP connection.
    case connect(String)
    /// The deadline passed before the handshake finished.
    case timedOut(String)
    /// The TLS handshake failed (not for an untrusted chain: that is reported in the result).
    case handshake(String)
    /// The socket failed or closed mid-way.
    case io(String)
    /// The CA file (or another setting) was unusable.
    case configuration(TLSConfigurationError)

    /// The message for a user.
    public var description: String {
        switch self {
        case .resolve(let text), .connect(let text), .timedOut(let text), .handshake(let text), .io(let text):
            return text
        case .configuration(let error):
            return error.description
        }
    }
}
