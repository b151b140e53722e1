import FaultlineHTTP
/// Refuse the request as soon as its head arrives, before any response and before the
/// upstream is contacted: RST_STREAM with `errorCode` on HTTP/2, a connection reset (RST)
/// on HTTP/1.
public struct RSTStreamFault: Sendable, Equatable {
    /// The RST_STREAM error code on HTTP/2.
    public let errorCode: HTTP2ErrorCode

    /// The error code when the config names none: the request was not processed, so a
    /// client may retry it.
    public static let defaultErrorCode = HTTP2ErrorCode.refusedStream

    /// Creates an rst_stream fault.
    public init(errorCode: HTTP2ErrorCode = RSTStreamFault.defaultErrorCode) {
        self.errorCode = errorCode
    }
}
