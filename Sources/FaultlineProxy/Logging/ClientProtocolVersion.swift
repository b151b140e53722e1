import FaultlineHTTP

/// The HTTP version the client speaks on an exchange, as its record logs it
/// (`network.protocol.version`, HAR's `httpVersion`).
enum ClientProtocolVersion: String, Sendable {
    /// HTTP/1.0.
    case http10 = "1.0"
    /// HTTP/1.1.
    case http11 = "1.1"
    /// HTTP/2: one stream of a multiplexed connection.
    case http2 = "2"

    /// The version an HTTP/1 request head announces. Anything but 1.0 logs as 1.1: the
    /// decoder accepts HTTP/1.x only, and answers every 1.x in 1.1.
    init(http1Head head: HTTPHead) {
        self = head.versionMajor == 1 && head.versionMinor == 0 ? .http10 : .http11
    }
}
