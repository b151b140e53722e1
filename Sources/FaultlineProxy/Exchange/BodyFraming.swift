import FaultlineHTTP

/// How a message body is delimited on the wire.
enum BodyFraming: Equatable {
    /// No body at all.
    case none
    /// Exactly this many bytes.
    case contentLength(UInt64)
    /// Chunked transfer coding.
    case chunked
    /// Until the sender closes (responses only).
    case untilClose
}

extension BodyFraming {
    /// How the proxy frames a request body it forwards: as the client framed it, with an
    /// empty declared body sent as none.
    static func forwarding(request head: HTTPHead) -> BodyFraming {
        if head.isChunked { return .chunked }
        if let length = head.contentLength, length > 0 { return .contentLength(length) }
        return .none
    }

    /// How the proxy frames a response body to its client: none where the status or a HEAD
    /// request allows none, the upstream's length when it gave one, otherwise chunked for
    /// HTTP/1.1 clients and until close for HTTP/1.0 ones.
    static func forwarding(response head: HTTPHead, headRequest: Bool, clientMinorVersion: Int) -> BodyFraming {
        if headRequest || head.status == 204 || head.status == 304 { return .none }
        if let length = head.contentLength, !head.isChunked { return .contentLength(length) }
        return clientMinorVersion >= 1 ? .chunked : .untilClose
    }
}
