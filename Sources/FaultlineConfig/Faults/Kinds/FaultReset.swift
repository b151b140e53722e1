import FaultlineHTTP
/// Reset the client connection (RST, via SO_LINGER 0); on an HTTP/2 stream, RST_STREAM
/// with `errorCode` (HTTP/1 has no code: the connection is reset as always).
public struct ResetFault: Sendable, Equatable {
    /// Response bytes sent first; 0 resets before any response.
    public let afterBytes: Int
    /// The RST_STREAM error code on HTTP/2.
    public let errorCode: HTTP2ErrorCode

    /// The error code when the config names none.
    public static let defaultErrorCode = HTTP2ErrorCode.internalError

    /// Creates a reset fault.
    public init(afterBytes: Int = 0, errorCode: HTTP2ErrorCode = ResetFault.defaultErrorCode) {
        self.afterBytes = afterBytes
        self.errorCode = errorCode
    }
}
