/// How a demo response delimits its body.
enum DemoOriginFraming: Equatable {
    /// No body and no length field (1xx, 204, 304).
    case none
    /// `Content-Length`.
    case length(UInt64)
    /// `Transfer-Encoding: chunked`.
    case chunked
    /// Neither: the body ends when the connection closes (HTTP/1.0 style).
    case untilClose
}
