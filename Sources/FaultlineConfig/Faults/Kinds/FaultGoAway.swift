import FaultlineHTTP
/// Shut the client connection down. On HTTP/2, a GOAWAY frame: graceful (NO_ERROR, the
/// last stream id covers this request, which completes; newer streams are refused and the
/// connection closes once the streams in flight end) or immediate (the error code, no
/// response, the connection closes). On HTTP/1, graceful answers normally with
/// `Connection: close` and closes after the response; immediate closes the connection
/// before any response (an empty reply).
public enum GoAwayFault: Sendable, Equatable {
    /// Let this request complete, then close.
    case graceful
    /// Close before any response, with this error code on HTTP/2.
    case immediate(HTTP2ErrorCode)

    /// The config's `mode` values.
    public enum Mode: String, Sendable, CaseIterable {
        /// `"graceful"`, the default.
        case graceful
        /// `"immediate"`.
        case immediate
    }

    /// The error code of an immediate GOAWAY when the config names none: INTERNAL_ERROR,
    /// the generic server failure (ENHANCE_YOUR_CALM would tell the client it misbehaved,
    /// which some clients answer by backing off).
    public static let defaultImmediateErrorCode = HTTP2ErrorCode.internalError

    /// The config's `mode`.
    public var mode: Mode {
        switch self {
        case .graceful: .graceful
        case .immediate: .immediate
        }
    }

    /// The code the GOAWAY frame carries: NO_ERROR when graceful.
    public var errorCode: HTTP2ErrorCode {
        switch self {
        case .graceful: .noError
        case .immediate(let code): code
        }
    }
}
