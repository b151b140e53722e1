import FaultlineHTTP

/// The client-side operations an exchange's actions come down to. The HTTP/1 connection
/// writes them as HTTP/1 bytes; `HTTP2Stream` writes them as frames on its stream (see
/// `ExchangeHost`).
protocol ExchangeClient: AnyObject {
    /// Passes an interim (1xx) response head on.
    func writeInterimHead(_ head: HTTPHead, exchange: Exchange)
    /// Writes the final response head.
    func writeResponseHead(_ head: HTTPHead, shape: ResponseHeadShape, exchange: Exchange)
    /// Where a pacer (a first-byte delay, a throttle) releases the response's bytes.
    var pacedSink: PacedSink { get }
    /// Writes (the first `part.count` bytes of) a response body part.
    func forwardResponseBody(_ bytes: UnsafeRawBufferPointer, part: ResponseBodyPart, exchange: Exchange)
    /// Ends the response body.
    func endResponseBody(chunked: Bool, exchange: Exchange)
    /// Encodes a response Faultline makes itself (`exchange` nil: no request was parsed),
    /// unless the client already has a response; notes it first (`noteOwnResponse`).
    func writeOwnResponse(_ response: OwnResponse, exchange: Exchange?)
    /// Relays bytes both ways from now on.
    func startTunnel(exchange: Exchange)
    /// The exchange ended normally: keep the client for the next request, or close it.
    func finishExchange(keepAlive: Bool)
    /// A graceful goaway fault fired on this exchange: let it complete, take no new
    /// requests on the connection, close once the exchanges in flight end. HTTP/2 sends
    /// GOAWAY (NO_ERROR, last stream id covering this stream); HTTP/1 needs nothing more,
    /// since the machine already answers with `Connection: close`.
    func sendGracefulGoAway(exchange: Exchange)
    /// The exchange was cut short (`how` says how; a reset's HTTP/2 code is
    /// `exchange.machine.resetErrorCode`).
    func closeClient(_ how: ClientClose)
}
