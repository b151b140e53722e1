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
