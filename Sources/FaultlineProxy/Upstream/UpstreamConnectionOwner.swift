import FaultlineHTTP

/// The exchange an upstream connection currently serves; calls happen on the loop.
protocol UpstreamConnectionOwner: AnyObject {
    /// Events from one read are about to be delivered (the owner may batch its writes).
    func upstreamWillDeliver(_ upstream: UpstreamConnection)
    /// Events from one read have been delivered.
    func upstreamDidDeliver(_ upstream: UpstreamConnection)
    /// The TCP connection is established.
    func upstreamDidConnect(_ upstream: UpstreamConnection)
    /// A response head arrived (interim ones included).
    func upstream(_ upstream: UpstreamConnection, didReceiveHead head: HTTPHead)
    /// Response body bytes arrived (valid only during the call).
    func upstream(_ upstream: UpstreamConnection, didReceiveBody bytes: UnsafeRawBufferPointer)
    /// Trailer fields arrived.
    func upstream(_ upstream: UpstreamConnection, didReceiveTrailers trailers: HTTPHeaders)
    /// The final response is complete.
    func upstreamDidFinishResponse(_ upstream: UpstreamConnection)
    /// After a 101, raw bytes from the upstream (tunnel).
    func upstream(_ upstream: UpstreamConnection, didReceiveTunnelBytes bytes: UnsafeRawBufferPointer)
    /// The upstream's write queue emptied (backpressure release).
    func upstreamDidDrain(_ upstream: UpstreamConnection)
    /// The exchange failed; the connection is closed.
    func upstream(_ upstream: UpstreamConnection, didFail failure: UpstreamFailure)
}
