import FaultlineConfig
import FaultlineHTTP

/// How a client connection (on HTTP/2, a stream) closes.
enum ClientClose: Equatable {
    /// After what is queued has been sent (FIN).
    case graceful
    /// At once, dropping what is queued.
    case now
    /// At once with RST; on HTTP/2, RST_STREAM with `ExchangeMachine.resetErrorCode`.
    case reset
    /// An rst_stream fault refused the request on its head: RST on HTTP/1; on HTTP/2,
    /// RST_STREAM with this code while the connection and its other streams go on.
    case refuseStream(HTTP2ErrorCode)
    /// An immediate goaway fault: on HTTP/1 a close at once (the client sees an empty
    /// reply); on HTTP/2, GOAWAY with this code and the last stream id processed, then the
    /// connection closes (every stream on it ends).
    case goAway(HTTP2ErrorCode)
}
