/// An HTTP/2 error code (RFC 9113 §7), as carried by RST_STREAM and GOAWAY. Any 32-bit
/// value is valid on the wire (unknown codes mean INTERNAL_ERROR to the receiver); the
/// fourteen registered ones have names, which the config accepts in any case and the
/// admin API renders.
public struct HTTP2ErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The code as sent on the wire.
    public let rawValue: UInt32

    /// Wraps a code as sent on the wire.
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// The registered code called `name` (case-insensitive, e.g. "refused_stream").
    public init?(name: String) {
        let upper = name.uppercased()
        guard let index = Self.names.firstIndex(of: upper) else { return nil }
        rawValue = UInt32(index)
    }

    /// The graceful shutdown code.
    public static let noError = HTTP2ErrorCode(rawValue: 0x0)
    /// The peer broke the protocol.
    public static let protocolError = HTTP2ErrorCode(rawValue: 0x1)
    /// An unexpected internal failure.
    public static let internalError = HTTP2ErrorCode(rawValue: 0x2)
    /// The peer broke flow control.
    public static let flowControlError = HTTP2ErrorCode(rawValue: 0x3)
    /// SETTINGS were not acknowledged in time.
    public static let settingsTimeout = HTTP2ErrorCode(rawValue: 0x4)
    /// A frame arrived on a half-closed stream.
    public static let streamClosed = HTTP2ErrorCode(rawValue: 0x5)
    /// A frame had an invalid size.
    public static let frameSizeError = HTTP2ErrorCode(rawValue: 0x6)
    /// The stream was refused before any application processing (safe to retry).
    public static let refusedStream = HTTP2ErrorCode(rawValue: 0x7)
    /// The stream is no longer needed.
    public static let cancel = HTTP2ErrorCode(rawValue: 0x8)
    /// The header compression context cannot be maintained.
    public static let compressionError = HTTP2ErrorCode(rawValue: 0x9)
    /// A CONNECT tunnel's connection failed.
    public static let connectError = HTTP2ErrorCode(rawValue: 0xa)
    /// The peer generates excessive load.
    public static let enhanceYourCalm = HTTP2ErrorCode(rawValue: 0xb)
    /// The transport does not meet the security requirements.
    public static let inadequateSecurity = HTTP2ErrorCode(rawValue: 0xc)
    /// HTTP/1.1 must be used instead.
    public static let http11Required = HTTP2ErrorCode(rawValue: 0xd)

    /// The registered names, indexed by code.
    public static let names = [
        "NO_ERROR", "PROTOCOL_ERROR", "INTERNAL_ERROR", "FLOW_CONTROL_ERROR", "SETTINGS_TIMEOUT",
        "STREAM_CLOSED", "FRAME_SIZE_ERROR", "REFUSED_STREAM", "CANCEL", "COMPRESSION_ERROR",
        "CONNECT_ERROR", "ENHANCE_YOUR_CALM", "INADEQUATE_SECURITY", "HTTP_1_1_REQUIRED",
    ]

    /// The registered name, or nil for an unregistered code.
    public var name: String? {
        rawValue < UInt32(Self.names.count) ? Self.names[Int(rawValue)] : nil
    }

    /// The name, or the code in hexadecimal when it has none (as logs show it).
    public var description: String {
        name ?? "0x" + String(rawValue, radix: 16)
    }
}
