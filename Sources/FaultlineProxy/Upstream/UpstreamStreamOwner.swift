import FaultlineHTTP

/// The exchange an HTTP/2 upstream stream serves; the stream's counterpart of
/// `UpstreamConnectionOwner`. Calls happen on the loop.
protocol UpstreamStreamOwner: AnyObject {
    /// Events of one read are about to be delivered (the owner may batch its writes).
    func upstreamStreamWillDeliver(_ stream: HTTP2UpstreamStream)
    /// Events of one read have been delivered: the owner applies backpressure
    /// (`UpstreamLeg.setResponseReading`) if its client is behind.
    func upstreamStreamDidDeliver(_ stream: HTTP2UpstreamStream)
    /// The stream's queued request bytes have all been framed (backpressure release).
    func upstreamStreamDidDrain(_ stream: HTTP2UpstreamStream)
    /// The connection is ready (connected, pins and ALPN checked, the peer's SETTINGS read).
    func upstreamStreamDidConnect(_ stream: HTTP2UpstreamStream)
    /// A response head arrived (interim ones included).
    func upstreamStream(_ stream: HTTP2UpstreamStream, didReceiveHead head: HTTPHead)
    /// Response body bytes arrived (valid only during the call).
    func upstreamStream(_ stream: HTTP2UpstreamStream, didReceiveBody bytes: UnsafeRawBufferPointer)
    /// Trailer fields arrived.
    func upstreamStream(_ stream: HTTP2UpstreamStream, didReceiveTrailers trailers: HTTPHeaders)
    /// The response is complete (END_STREAM).
    func upstreamStreamDidFinishResponse(_ stream: HTTP2UpstreamStream)
    /// The stream failed (reset, refused, or its connection failed); it is over.
    func upstreamStream(_ stream: HTTP2UpstreamStream, didFail failure: UpstreamFailure)
}
