/// What a log record reports.
public enum LogRecordKind: String, Sendable, CaseIterable {
    /// One request/response exchange.
    case exchange
    /// A pin check on an upstream handshake (match, mismatch, report, candidate verdict).
    case pin
    /// A fault that fired.
    case fault
    /// A TLS event (handshake failure, drill certificate presented…).
    case tls
    /// An error outside an exchange.
    case error
    /// A forward proxy's CONNECT tunnel to a pass-through host (bytes each way, how it ended).
    case tunnel
}
