import FaultlineHTTP

/// What an upstream leg (an HTTP/1 connection or an HTTP/2 stream) reports to the exchange
/// it serves, the same for both protocols (`UpstreamLegOwner`).
enum UpstreamLegEvent {
    /// Events of one read are about to be delivered (the owner may batch its writes).
    case willDeliver
    /// Events of one read have been delivered: the owner applies backpressure
    /// (`UpstreamLeg.setResponseReading`) if its client is behind.
    case didDeliver
    /// The leg took all the request bytes it was given (backpressure release).
    case drained
    /// The leg is ready: connected, TLS and pins checked (and, for HTTP/2, ALPN and the
    /// peer's SETTINGS read).
    case connected
    /// A response head arrived (interim ones included).
    case head(HTTPHead)
    /// Response body bytes arrived (valid only during the call).
    case body(UnsafeRawBufferPointer)
    /// Trailer fields arrived.
    case trailers(HTTPHeaders)
    /// The final response is complete.
    case finished
    /// After a 101, raw bytes from the upstream (an HTTP/1 tunnel; valid only during the call).
    case tunnelBytes(UnsafeRawBufferPointer)
    /// The leg failed and is over (an HTTP/1 connection closed, a stream reset or refused).
    case failed(UpstreamFailure)
}
