/// Why an exchange did not end with a complete upstream response; the raw value is the log
/// record's `error.type`.
enum ExchangeError: String, Sendable, CaseIterable {
    case badRequest = "bad_request"
    case noRoute = "no_route"
    case methodNotAllowed = "method_not_allowed"
    case clientTimeout = "client_timeout"
    case bodyTooLarge = "body_too_large"
    case clientClosed = "client_closed"
    case upstreamTimeout = "upstream_timeout"
    case upstreamError = "upstream_error"
    case upstreamConnect = "upstream_connect"
    case upstreamIO = "upstream_io"
    case upstreamMalformed = "upstream_malformed"
    case upstreamClosed = "upstream_closed"
    case upstreamProtocol = "upstream_protocol"
    /// An HTTP/2 upstream reset the stream (RST_STREAM) or refused it (GOAWAY).
    case upstreamReset = "upstream_reset"
    case upstreamTLS = "upstream_tls"
    case pinMismatch = "pin_mismatch"
    case tunnelIdle = "tunnel_idle"
    /// A fault ended the exchange on purpose.
    case fault = "fault"

    /// The error of a response Faultline answers itself when no more specific cause was noted.
    init(localStatus status: Int) {
        switch status {
        case 400, 414, 431: self = .badRequest
        case 404: self = .noRoute
        case 405: self = .methodNotAllowed
        case 408: self = .clientTimeout
        case 413: self = .bodyTooLarge
        case 504: self = .upstreamTimeout
        default: self = .upstreamError
        }
    }
}
