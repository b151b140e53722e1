import FaultlineHTTP

/// An HTTP/2 error code that ended an exchange's stream (RST_STREAM) or its connection
/// (GOAWAY), with the frame that carried it and the side that sent it. Logged as
/// `http2.error_code` (the RFC 9113 §7 name), `http2.error_frame` and `http2.error_sender`.
public struct LogHTTP2Error: Sendable, Equatable {
    /// The frame that carried the code.
    public enum Frame: String, Sendable {
        /// RST_STREAM: this stream only.
        case rstStream = "RST_STREAM"
        /// GOAWAY: the whole connection.
        case goaway = "GOAWAY"
    }

    /// Who sent the frame: Faultline itself (a fault, a refused request, a limit) or a peer.
    public enum Sender: String, Sendable {
        /// Faultline sent it to the client.
        case faultline
        /// The client sent it to Faultline.
        case client
        /// An HTTP/2 upstream sent it to Faultline.
        case upstream
    }

    /// The error code as sent on the wire.
    public let code: UInt32
    /// The frame that carried it.
    public let frame: Frame
    /// Who sent it.
    public let sender: Sender

    /// An error `code` carried by `frame`, sent by `sender`.
    public init(code: UInt32, frame: Frame, sender: Sender) {
        self.code = code
        self.frame = frame
        self.sender = sender
    }

    /// The code's RFC 9113 name (`REFUSED_STREAM`), or `0x…` in hex for a code the RFC
    /// does not define (peers may send any 32-bit value).
    public var name: String { HTTP2ErrorCode(rawValue: code).description }
}
