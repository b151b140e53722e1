/// A response Faultline writes itself instead of relaying the upstream's (a refusal, a
/// gateway error, a status fault, a corrupt reply), described once for every client
/// protocol: its status, fields, body and how it ends. Each client codec only encodes it
/// (`ExchangeClient.writeOwnResponse`): HTTP/1 as a status line, fields and body bytes,
/// HTTP/2 as a HEADERS frame (names lowercased) and DATA on the stream.
struct OwnResponse {
    /// How the response ends on the wire.
    enum Ending: Equatable {
        /// The body is complete: `Content-Length` on HTTP/1 (with `Connection: close` unless
        /// the connection stays), END_STREAM on HTTP/2.
        case complete
        /// The body's framing breaks after `body`: on HTTP/1 the body is a chunk and a chunk
        /// size line that is not one follows; on HTTP/2, which has no chunks, RST_STREAM
        /// PROTOCOL_ERROR follows the body.
        case brokenFraming
        /// No valid response at all: on HTTP/1 `body` alone, bytes that are not HTTP; on
        /// HTTP/2 a head whose `:status` is not three digits (RFC 9113 §8.1.1).
        case garbage
    }

    /// What the exchange's log record notes for it.
    enum Record {
        /// A response with its own content: status, type, fields and the body sent.
        case local(contentType: String?, headers: [(name: String, value: String)], body: [UInt8])
        /// The status only.
        case status
    }

    /// The status code.
    let status: Int
    /// The body's media type (nil: no `Content-Type`); it comes first, before the framing field.
    let contentType: String?
    /// Whether `Content-Length` declares `body.count` (also for a HEAD request, which gets
    /// no body); false for bodiless statuses.
    let declaresLength: Bool
    /// The fields after the framing one, in order, names as HTTP/1 writes them.
    let fields: [(name: String, value: String)]
    /// The body (for `garbage`, the bytes an HTTP/1 client gets instead of a response).
    let body: [UInt8]
    /// False for a HEAD request or a bodiless status: the head only.
    let sendsBody: Bool
    /// Whether the client connection may carry another request afterwards, as far as the
    /// exchange is concerned (the connection's own drain may still close it).
    let keepAlive: Bool
    /// How it ends.
    let ending: Ending
    /// What the record notes; nil for nothing.
    let record: Record?
}
