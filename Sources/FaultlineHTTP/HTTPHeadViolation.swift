/// Why a decoded head is refused although llhttp accepted its syntax: the proxy answers a
/// request with 400 and treats such a response as a bad gateway (502).
public enum HTTPHeadViolation: Error, Sendable, Equatable, CustomStringConvertible {
    /// A field line with nothing before its colon (`: x`).
    case emptyFieldName
    /// obs-fold (RFC 9112 §5.2), with or without text on the first line.
    case obsoleteLineFolding
    /// A Host value that is not `uri-host [":" port]` with a port of 1–65535.
    case invalidHost
    /// An absolute-form target whose authority is not `uri-host [":" port]`.
    case invalidTargetAuthority
    /// A request target (an HTTP/2 `:path`) with a byte outside 0x21-0x7E (`HTTPHead.isTargetByte`).
    case invalidTargetByte(UInt8)
    /// Connection lists Content-Length, Transfer-Encoding or Host (lowercase name): a hop may
    /// never remove the fields that frame the message or name its target.
    case connectionNamesFramingField(String)
    /// An HTTP/1.0 message with Transfer-Encoding, whose framing is faulty (RFC 9112 §6.1).
    case transferEncodingInHTTP10
    /// `chunked` applied more than once or before another coding (RFC 9112 §6.1): the length
    /// of such a body depends on which recipient you ask.
    case chunkedNotFinal
    /// A Transfer-Encoding element that does not start with a coding name (a token), such
    /// as `c hunked`.
    case invalidTransferCoding
    /// Content-Length or Transfer-Encoding on a 1xx or 204 response, or Transfer-Encoding on
    /// a 304 (RFC 9110 §8.6, RFC 9112 §6.1).
    case framingOnBodilessStatus(Int)
    /// A status code outside 100–599 (RFC 9110 §15).
    case invalidStatus(Int)
    /// A 101 (Switching Protocols) without the Upgrade field that names the new protocol.
    case switchWithoutUpgrade

    /// Short text for the error body and the log.
    public var description: String {
        switch self {
        case .emptyFieldName: "empty header field name"
        case .obsoleteLineFolding: "obsolete line folding in a header value"
        case .invalidHost: "invalid Host header"
        case .invalidTargetAuthority: "invalid authority in the request target"
        case .invalidTargetByte(let byte):
            "request target byte 0x\(String(byte, radix: 16, uppercase: true)) outside visible ASCII (percent-encode it)"
        case .connectionNamesFramingField(let name): "Connection header names \(name)"
        case .transferEncodingInHTTP10: "Transfer-Encoding in an HTTP/1.0 message"
        case .chunkedNotFinal: "chunked is not the final transfer coding, or is applied twice"
        case .invalidTransferCoding: "a Transfer-Encoding element is not a coding name"
        case .framingOnBodilessStatus(let status): "message framing on a \(status) response"
        case .invalidStatus(let status): "status code \(status) outside 100-599"
        case .switchWithoutUpgrade: "101 Switching Protocols without an Upgrade header"
        }
    }
}
