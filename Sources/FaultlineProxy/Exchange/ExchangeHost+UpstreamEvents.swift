import FaultlineLog
import FaultlineHTTP
import FaultlineIO

/// What the upstream connection says, reported to the exchange's machine: the same for
/// every client protocol (flow control, which is the client's, stays with each host).
/// Only the connection the current exchange holds is heard: a connection that belonged to
/// an earlier exchange can never reach this one.
extension ExchangeHost {
    /// The current exchange, if `upstream` is the connection it holds.
    private func exchange(heldBy upstream: UpstreamConnection) -> Exchange? {
        guard let exchange, exchange.upstream?.isLeg(upstream) == true else { return nil }
        return exchange
    }

    func upstreamDidConnect(_ upstream: UpstreamConnection) {
        guard let exchange = exchange(heldBy: upstream) else { return }
        legConnected(exchange, tcpConnectedAt: upstream.socket.tcpConnectedAt, pin: upstream.pinResult)
    }

    func upstream(_ upstream: UpstreamConnection, didReceiveHead head: HTTPHead) {
        guard let exchange = exchange(heldBy: upstream) else { return }
        legReceivedHead(head, exchange: exchange)
    }

    func upstream(_ upstream: UpstreamConnection, didReceiveBody bytes: UnsafeRawBufferPointer) {
        guard let exchange = exchange(heldBy: upstream) else { return }
        run(exchange.machine.responseBodyReceived(count: bytes.count), on: exchange, inHand: .body(bytes))
    }

    func upstream(_ upstream: UpstreamConnection, didReceiveTrailers trailers: HTTPHeaders) {
        exchange(heldBy: upstream)?.responseTrailers = trailers
    }

    func upstreamDidFinishResponse(_ upstream: UpstreamConnection) {
        guard let exchange = exchange(heldBy: upstream) else { return }
        run(exchange.machine.responseEnded(), on: exchange)
    }

    func upstream(_ upstream: UpstreamConnection, didFail failure: UpstreamFailure) {
        guard let exchange = exchange(heldBy: upstream) else { return }
        legFailed(failure, exchange: exchange)
        run(exchange.machine.upstreamFailed(failure, attempt: exchange.facts(of: upstream)), on: exchange)
        // A retry wrote to a fresh connection: send it now, as the end of a read pass would.
        if self.exchange === exchange, exchange.upstream != nil { releaseUpstreamCork() }
    }

    /// The upstream leg of `exchange` connected (TCP, TLS and pins done).
    func legConnected(_ exchange: Exchange, tcpConnectedAt: UInt64, pin: PinResult?) {
        if let trace {
            trace.tcpConnected = tcpConnectedAt
            trace.connected = context.loop.now
            trace.pinResult = pin
        }
        run(exchange.machine.upstreamConnected(), on: exchange)
    }

    /// A response head arrived on `exchange`'s leg.
    func legReceivedHead(_ head: HTTPHead, exchange: Exchange) {
        var head = head
        let actions = exchange.machine.responseHeadReceived(&head)
        run(actions, on: exchange, inHand: .head(head))
    }

    /// The part of a leg failure every protocol notes first: the leg is gone, a pin mismatch
    /// and a failed handshake are recorded.
    func legFailed(_ failure: UpstreamFailure, exchange: Exchange) {
        exchange.upstream = nil
        if let trace, case .pinMismatch = failure { trace.pinResult = .mismatch }
        if case .handshake = failure, let route = exchange.route {
            logUpstreamTLSFailure(upstream: route.upstream.name, reason: failure.message)
        }
    }
}
