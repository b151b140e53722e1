import FaultlineLog
import FaultlineHTTP
import FaultlineIO

/// What the upstream leg says, reported to the exchange's machine: the same for every client
/// protocol and every upstream protocol (flow control, which is the client's, goes to the
/// host's `upstreamWillDeliver`/`upstreamDidDeliver`/`upstreamDidDrain`). Only the leg the
/// current exchange holds is heard: a leg that belonged to an earlier exchange can never
/// reach this one.
extension ExchangeHost {
    func upstream(_ leg: UpstreamLeg, reported event: consuming UpstreamLegEvent) {
        switch event {
        case .willDeliver:
            upstreamWillDeliver()
            return
        case .didDeliver:
            upstreamDidDeliver(leg)
            return
        case .drained:
            upstreamDidDrain()
            return
        case .tunnelBytes(let bytes):
            relayTunnelBytes(bytes, from: leg)
            return
        case .connected, .head, .body, .trailers, .finished, .failed:
            break
        }
        guard let exchange, exchange.upstream?.isLeg(leg) == true else { return }
        switch consume event {
        case .connected:
            if let trace {
                trace.tcpConnected = leg.tcpConnectedAt
                trace.connected = context.loop.now
                trace.pinResult = leg.pin
            }
            run(exchange.machine.upstreamConnected(), on: exchange)
        case .head(var head):
            let actions = exchange.machine.responseHeadReceived(&head)
            run(actions, on: exchange, inHand: .head(head))
        case .body(let bytes):
            run(exchange.machine.responseBodyReceived(count: bytes.count), on: exchange, inHand: .body(bytes))
        case .trailers(let trailers):
            exchange.responseTrailers = trailers
        case .finished:
            run(exchange.machine.responseEnded(), on: exchange)
        case .failed(let failure):
            legFailed(failure, leg: leg, exchange: exchange)
        case .willDeliver, .didDeliver, .drained, .tunnelBytes:
            break
        }
    }

    /// The leg failed: it is gone, a pin mismatch, a failed handshake and an HTTP/2 error
    /// code are recorded, and the machine decides (a retry, a 502, an aborted response).
    private func legFailed(_ failure: UpstreamFailure, leg: UpstreamLeg, exchange: Exchange) {
        exchange.upstream = nil
        if let trace, case .pinMismatch = failure { trace.pinResult = .mismatch }
        if case .handshake = failure, let route = exchange.route {
            logUpstreamTLSFailure(upstream: route.upstream.name, reason: failure.message)
        }
        let facts = leg.attemptFacts(replayable: exchange.replayBody != nil)
        // Noted before the machine runs (the record may be written as it ends the exchange),
        // unless the machine will retry: then the code is not the exchange's outcome.
        if let trace {
            switch failure {
            case .streamReset(let code) where !exchange.machine.willRetry(after: failure, attempt: facts):
                trace.noteHTTP2Error(LogHTTP2Error(code: code.rawValue, frame: .rstStream, sender: .upstream))
            case .notProcessed(let code, let frame) where !exchange.machine.willRetry(after: failure, attempt: facts):
                trace.noteHTTP2Error(LogHTTP2Error(code: code.rawValue, frame: frame, sender: .upstream))
            default:
                break
            }
        }
        run(exchange.machine.upstreamFailed(failure, attempt: facts), on: exchange)
        // A retry wrote to a fresh HTTP/1 connection, corked: send it now, as the end of a
        // read pass would.
        if self.exchange === exchange, exchange.upstream != nil, corkedUpstream != nil { releaseUpstreamCork() }
    }
}
