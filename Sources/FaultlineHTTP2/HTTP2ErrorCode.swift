/// An HTTP/2 error code (RFC 9113 §7) as carried by RST_STREAM and GOAWAY; unknown codes are
/// kept as they are, since a peer may send any 32-bit value.
public struct HTTP2ErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The code on the wire.
    public var rawValue: UInt32

    /// Wraps a code from the wire or the configuration.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// NO_ERROR: graceful shutdown, or a stream the sender no longer needs.
    public static let noError = HTTP2ErrorCode(rawValue: 0x0)
    /// PROTOCOL_ERROR.
    public static let protocolError = HTTP2ErrorCode(rawValue: 0x1)
    /// INTERNAL_ERROR.
    public static let internalError = HTTP2ErrorCode(rawValue: 0x2)
    /// FLOW_CONTROL_ERROR.
    public static let flowControlError = HTTP2ErrorCode(rawValue: 0x3)
    /// SETTINGS_TIMEOUT.
    public static let settingsTimeout = HTTP2ErrorCode(rawValue: 0x4)
    /// STREAM_CLOSED.
    public static let streamClosed = HTTP2ErrorCode(rawValue: 0x5)
    /// FRAME_SIZE_ERROR.
    public static let frameSizeError = HTTP2ErrorCode(rawValue: 0x6)
    /// REFUSED_STREAM: the stream was not processed and may be retried.
    public static let refusedStream = HTTP2ErrorCode(rawValue: 0x7)
    /// CANCEL.
    public static let cancel = HTTP2ErrorCode(rawValue: 0x8)
    /// COMPRESSION_ERROR.
    public static let compressionError = HTTP2ErrorCode(rawValue: 0x9)
    /// CONNECT_ERROR.
    public static let connectError = HTTP2ErrorCode(rawValue: 0xa)
    /// ENHANCE_YOUR_CALM: the peer is misbehaving (floods).
    public static let enhanceYourCalm = HTTP2ErrorCode(rawValue: 0xb)
    /// INADEQUATE_SECURITY.
    public static let inadequateSecurity = HTTP2ErrorCode(rawValue: 0xc)
    /// HTTP_1_1_REQUIRED.
    public static let http11Required = HTTP2ErrorCode(rawValue: 0xd)

    private static let names = [
        "NO_ERROR", "PROTOCOL_ERROR", "INTERNAL_ERROR", "FLOW_CONTROL_ERROR", "SETTINGS_TIMEOUT",
        "STREAM_CLOSED", "FRAME_SIZE_ERROR", "REFUSED_STREAM", "CANCEL", "COMPRESSION_ERROR",
        "CONNECT_ERROR", "ENHANCE_YOUR_CALM", "INADEQUATE_SECURITY", "HTTP_1_1_REQUIRED",
    ]

    /// The RFC name (`PROTOCOL_ERROR`), or `0x…` for a code the RFC does not define.
    public var description: String {
        rawValue < UInt32(Self.names.count) ? Self.names[Int(rawValue)] : "0x" + String(rawValue, radix: 16)
    }

    /// The code for an RFC name as written in configuration (`protocol_error` or `PROTOCOL_ERROR`).
    public init?(name: String) {
        guard let index = Self.names.firstIndex(of: name.uppercased()) else { return nil }
        rawValue = UInt32(index)
    }
}
