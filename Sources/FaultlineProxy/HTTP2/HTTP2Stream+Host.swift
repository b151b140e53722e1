import FaultlineHTTP
import FaultlineIO

/// The stream as the host of its exchange: deadlines, the upstream cork, and flow control in
/// both directions (the stream's window for the request, the upstream socket for the response).
extension HTTP2Stream: ExchangeHost {
    /// Sends what was corked; while the upstream has not taken the request bytes, the stream's
    /// window stays closed.
    func releaseUpstreamCork() {
        if let corked = corkedUpstream {
            corkedUpstream = nil
            corked.socket.uncork()
        }
        if let upstream = exchange?.upstream, upstream.pendingRequestBytes > 0 {
            reading = false
        }
    }

    /// Not reading means not reopening the stream's window: the client can send at most one
    /// window's worth, and only on this stream.
    func setClientReading(_ reading: Bool) {
        self.reading = reading
        if reading && context.loop.now >= uploadPausedUntil { giveBackWindow() }
    }

    /// An upload throttle: the window stays closed for as long as the bytes should have taken.
    func throttleUpload(afterReading count: Int) {
        guard let exchange, let pause = exchange.machine.uploadPause(afterReading: count) else { return }
        reading = false
        uploadPausedUntil = context.loop.now &+ UInt64(pause) &* 1_000_000
        context.loop.schedule(afterMilliseconds: pause) { [weak self, weak exchange] in
            guard let self, let exchange, self.isCurrent(exchange) else { return }
            if exchange.upstream?.pendingRequestBytes ?? 0 == 0 { self.setClientReading(true) }
        }
    }

    func upstreamWillDeliver(_ upstream: UpstreamConnection) {
        connection.batchDepth += 1
    }

    /// After one upstream read: frame what it produced (`flushAfterDelivery`), then pause the
    /// upstream while this stream's queue is long (the client, or the connection's socket, is slow).
    func upstreamDidDeliver(_ upstream: UpstreamConnection) {
        connection.batchDepth -= 1
        flushAfterDelivery()
        if session.queuedOutboundBytes(streamID: id) > Self.outboundHighWater, exchange?.upstream?.isLeg(upstream) == true {
            upstreamPaused = true
            upstream.socket.setReading(false)
        }
    }

    func upstream(_ upstream: UpstreamConnection, didReceiveTunnelBytes bytes: UnsafeRawBufferPointer) {
        // HTTP/2 requests never upgrade (nghttp2 refuses Upgrade, the starter refuses CONNECT).
    }

    func upstreamDidDrain(_ upstream: UpstreamConnection) {
        if context.loop.now >= uploadPausedUntil { setClientReading(true) }
    }

    func upstreamStreamWillDeliver(_ stream: HTTP2UpstreamStream) {
        connection.batchDepth += 1
    }

    /// As for an HTTP/1 upstream, but the pause holds the upstream stream's window shut.
    func upstreamStreamDidDeliver(_ stream: HTTP2UpstreamStream) {
        connection.batchDepth -= 1
        flushAfterDelivery()
        if session.queuedOutboundBytes(streamID: id) > Self.outboundHighWater, exchange?.upstream?.isLeg(stream) == true {
            upstreamPaused = true
            stream.setResponseReading(false)
        }
    }

    func upstreamStreamDidDrain(_ stream: HTTP2UpstreamStream) {
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
