/// An nghttp2 library error: the session could not be created, a frame could not be submitted,
/// or the connection cannot go on.
public struct HTTP2Failure: Error, Sendable, Equatable, CustomStringConvertible {
    /// nghttp2's error number (negative, `NGHTTP2_ERR_*`).
    public var code: Int32
    /// nghttp2's text for it.
    public var message: String

    /// A failure from nghttp2's error number and text.
    public init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    /// The message, for logs.
    public var description: String { message }
}
