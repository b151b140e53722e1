import FaultlineHTTP
import FaultlineIO

/// The HTTP/1 host of exchanges: flow control between the client socket and the upstream
/// connection, and the tunnel after a 101 (the exchange events are `ExchangeHost`'s).
extension DownstreamConnection: ExchangeHost {
    var forwardDestination: ForwardDestination? {
        currentDestination
    }

    func upstreamWillDeliver() {
        socket.cork()
    }

    /// The upstream's reads (or an HTTP/2 stream's window) stay shut until this client has
    /// taken what it was given.
    func upstreamDidDeliver(_ leg: UpstreamLeg) {
        socket.uncork()
        if socket.pendingWriteBytes > 0, exchange?.upstream?.isLeg(leg) == true {
            leg.setResponseReading(false)
        }
    }

    func relayTunnelBytes(_ bytes: UnsafeRawBufferPointer, from leg: UpstreamLeg) {
        // Only the tunnel's own connection reaches the client.
        guard let exchange, exchange.upstream?.isLeg(leg) == true else { return }
        run(exchange.machine.tunnelActivity(), on: exchange)
        socket.write(bytes)
        if socket.pendingWriteBytes > 0 { leg.setResponseReading(false) }
    }

    /// The upstream took the request bytes it was given: the client may send more.
    func upstreamDidDrain() {
        // Reading also resumes once the request is complete: that is how a client that gives up
        // while the upstream thinks is noticed (its EOF), and how pipelined requests queue.
        if !phase.isClosed && pipelined.count < Self.pipelineLimit && context.loop.now >= uploadPausedUntil {
            socket.setReading(true)
        }
    }

    func adopt(_ exchange: Exchange) {
        phase = .exchange(exchange)
    }

    func setClientReading(_ reading: Bool) {
        socket.setReading(reading)
    }
}
