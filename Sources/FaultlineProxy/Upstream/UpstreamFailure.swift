import FaultlineHTTP
import FaultlineIO
import FaultlineHTTP2
import FaultlineLog

/// Why an upstream exchange failed, with the status and text a client gets for it.
enum UpstreamFailure: Error {
    /// The connection could not be made.
    case connect(IOError)
    /// The upstream's name resolved to no address.
    case noAddress(upstream: String)
    /// The connection failed after it was made.
    case io(IOError)
    /// The upstream sent bytes that are not a valid HTTP response.
    case malformed(String)
    /// The upstream closed before the response was complete.
    case closedEarly
    /// The upstream answered with a protocol switch nobody asked for.
    case unexpectedUpgrade
    /// The TLS handshake failed (untrusted chain, wrong host name, protocol).
    case handshake(IOError)
    /// The verified chain matched none of the pins (enforce mode): nothing was sent.
    case pinMismatch(PinRefusal)
    /// An `h2` upstream's TLS handshake selected another protocol than HTTP/2 (or none).
    case alpnRefused(selected: String?)
    /// The HTTP/2 upstream reset the exchange's stream with this code.
    case streamReset(HTTP2ErrorCode)
    /// The HTTP/2 upstream did not process the stream: it refused it (REFUSED_STREAM) or sent
    /// GOAWAY with a lower last stream id. The request may go again.
    case notProcessed(HTTP2ErrorCode, frame: LogHTTP2Error.Frame)
    /// The HTTP/2 connection broke (a protocol error, or a GOAWAY with an error code).
    case http2(String)
    /// A forward-proxy host turned out, once looked up, to be one of Faultline's own sockets:
    /// refused as a literal address naming it is (403), never connected to.
    case selfReference(String)

    /// The status a client gets when this happens before any response byte.
    var status: Int {
        if case .selfReference = self { return 403 }
        return 502
    }

    /// The short plain-text body a client gets.
    var message: String {
        switch self {
        case .connect(let error): "upstream unreachable: \(error)"
        case .noAddress(let upstream): "upstream \(upstream) has no address"
        case .io(let error): "upstream connection failed: \(error)"
        case .malformed(let reason): "upstream sent an invalid response: \(reason)"
        case .closedEarly: "upstream closed the connection before the response was complete"
        case .unexpectedUpgrade: "upstream switched protocols without being asked"
        case .handshake(let error): "upstream TLS handshake failed: \(error)"
        case .pinMismatch(let refusal): refusal.json
        case .alpnRefused(let selected):
            "upstream did not select HTTP/2 by ALPN (it selected \(selected.map { "\"\($0)\"" } ?? "no protocol"))"
        case .streamReset(let code): "upstream reset the HTTP/2 stream (\(code))"
        case .notProcessed(let code, let frame): "upstream did not process the HTTP/2 stream (\(frame.rawValue) \(code))"
        case .http2(let reason): "upstream HTTP/2 connection failed: \(reason)"
        case .selfReference(let reason): "forbidden: \(reason)"
        }
    }

    /// What the log record notes.
    var error: ExchangeError {
        switch self {
        case .connect, .noAddress, .selfReference: .upstreamConnect
        case .io: .upstreamIO
        case .malformed: .upstreamMalformed
        case .closedEarly: .upstreamClosed
        case .unexpectedUpgrade: .upstreamProtocol
        case .handshake: .upstreamTLS
        case .pinMismatch: .pinMismatch
        case .alpnRefused, .http2: .upstreamProtocol
        case .streamReset, .notProcessed: .upstreamReset
        }
    }

    /// What a retry may cure: a pooled connection the upstream closed while idle (a reset
    /// or an early close), or an HTTP/2 stream the upstream says it never processed.
    enum RetryClass { case connectionLost, notProcessed, other }

    /// The failure's retry class.
    var retryClass: RetryClass {
        switch self {
        case .closedEarly, .io: .connectionLost
        case .notProcessed: .notProcessed
        default: .other
        }
    }

    /// The media type of `message`.
    var contentType: String {
        if case .pinMismatch = self { return "application/json" }
        return "text/plain; charset=utf-8"
    }
}
