import FaultlineHTTP
import FaultlineIO

/// The stream as the host of its exchange: deadlines, the upstream cork, and flow control in
/// both directions (the stream's window for the request, the upstream socket for the response).
extension HTTP2Stream: ExchangeHost {
    /// Every stream of an intercepted connection goes to its CONNECT host.
    var forwardDestination: ForwardDestination? {
        connection.interception?.destination
    }

    /// Not reading means not reopening the stream's window: the client can send at most one
    /// window's worth, and only on this stream.
    func setClientReading(_ reading: Bool) {
        self.reading = reading
        if reading && context.loop.now >= uploadPausedUntil { giveBackWindow() }
    }

    func upstreamWillDeliver() {
        connection.batchDepth += 1
    }

    /// After one upstream read: frame what it produced (`flushAfterDelivery`), then pause the
    /// upstream (its socket, or its stream's window) while this stream's queue is long (the
    /// client, or the connection's socket, is slow).
    func upstreamDidDeliver(_ leg: UpstreamLeg) {
        connection.batchDepth -= 1
        flushAfterDelivery()
        if session.queuedOutboundBytes(streamID: id) > Self.outboundHighWater, exchange?.upstream?.isLeg(leg) == true {
            upstreamPaused = true
            leg.setResponseReading(false)
        }
    }

    /// HTTP/2 requests never upgrade (nghttp2 refuses Upgrade, the starter refuses CONNECT).
    func relayTunnelBytes(_ bytes: UnsafeRawBufferPointer, from leg: UpstreamLeg) {}

    func upstreamDidDrain() {
        if context.loop.now >= uploadPausedUntil { setClientReading(true) }
    }

    /// A small answer is framed at the end of the loop's turn, with what other streams'
    /// upstreams delivered in the same turn; a body of a frame or more is framed now, while its
    /// bytes are still in cache.
    private func flushAfterDelivery() {
        if session.queuedOutboundBytes(streamID: id) >= Self.immediateFlushBytes {
            connection.flush()
        } else {
            connection.flushAtTurnEnd()
        }
    }
}
