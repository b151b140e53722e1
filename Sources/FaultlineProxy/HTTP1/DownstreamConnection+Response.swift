import FaultlineHTTP
import FaultlineIO

/// The HTTP/1 host of exchanges: flow control between the client socket and the upstream
/// connection, and the tunnel after a 101 (the exchange events are `ExchangeHost`'s).
extension DownstreamConnection: ExchangeHost {
    func upstreamWillDeliver(_ upstream: UpstreamConnection) {
        socket.cork()
    }

    func upstreamDidDeliver(_ upstream: UpstreamConnection) {
        socket.uncork()
        if socket.pendingWriteBytes > 0, exchange?.upstream?.isLeg(upstream) == true {
            upstream.socket.setReading(false)
        }
    }

    func upstream(_ upstream: UpstreamConnection, didReceiveTunnelBytes bytes: UnsafeRawBufferPointer) {
        // Only the tunnel's own connection reaches the client.
        guard let exchange, exchange.upstream?.isLeg(upstream) == true else { return }
        run(exchange.machine.tunnelActivity(), on: exchange)
        socket.write(bytes)
        if socket.pendingWriteBytes > 0 { upstream.socket.setReading(false) }
    }

    func upstreamDidDrain(_ upstream: UpstreamConnection) {
        resumeClientAfterUpstreamDrain()
    }

    func upstreamStreamWillDeliver(_ stream: HTTP2UpstreamStream) {
        socket.cork()
    }

    func upstreamStreamDidDeliver(_ stream: HTTP2UpstreamStream) {
        socket.uncork()
        // The stream's window stays shut until this client has taken what it was given.
        if socket.pendingWriteBytes > 0, exchange?.upstream?.isLeg(stream) == true {
            stream.setResponseReading(false)
        }
    }

    func upstreamStreamDidDrain(_ stream: HTTP2UpstreamStream) {
        resumeClientAfterUpstreamDrain()
    }

    /// The upstream took the request bytes it was given: the client may send more.
    private func resumeClientAfterUpstreamDrain() {
        // Reading also resumes once the request is complete: that is how a client that gives up
        // while the upstream thinks is noticed (its EOF), and how pipelined requests queue.
        if !phase.isClosed && pipelined.count < Self.pipelineLimit && context.loop.now >= uploadPausedUntil {
            socket.setReading(true)
        }
    }

    func setClientReading(_ reading: Bool) {
        socket.setReading(reading)
    }
}
