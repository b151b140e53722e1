import FaultlineHTTP
import FaultlineHTTP2
import FaultlineIO
import FaultlineConfig
import FaultlineLog

/// The upstream leg as an HTTP/2 stream (`protocol: h2` or `h2c`): the stream is opened on
/// the loop's connection to the upstream, and what it reports reaches the same machine
/// events as an HTTP/1 connection's, so timeouts, faults and logs work the same.
extension ExchangeHost {
    /// Opens the exchange's stream (`connectUpstream` for an HTTP/2 upstream): the head as
    /// HTTP/2 fields, then what a retry or a delay must send, then the end if the request
    /// has ended.
    func connectUpstreamStream(_ exchange: Exchange, route: CompiledRoute, address: SocketAddress,
                               requestComplete: Bool) {
        let upstream = route.upstream
        guard case .http2(let fields) = exchange.upstreamHead else {
            run(exchange.machine.upstreamFailed(.http2("the request head cannot be sent as HTTP/2"),
                                                attempt: UpstreamAttemptFacts()), on: exchange)
            return
        }
        let key = UpstreamPool.Key(address: address, security: exchange.snapshot.security(ofUpstream: upstream.name))
        let options = HTTP2UpstreamRegistry.Options(settings: exchange.snapshot.http2Settings,
                                                    idleMilliseconds: upstream.timeouts.idleMs,
                                                    requiresALPN: upstream.httpProtocol == .h2)
        let chosen: (connection: HTTP2UpstreamConnection, isNew: Bool)
        do {
            chosen = try context.http2Upstreams.connection(for: key, options: options, loop: context.loop, state: context.state)
        } catch {
            run(exchange.machine.upstreamFailed(error, attempt: UpstreamAttemptFacts()), on: exchange)
            return
        }
        if let trace {
            trace.reusedConnection = !chosen.isNew
            trace.usedTLS = key.security != nil
            if chosen.isNew { trace.connectStart = context.loop.now }
            if !chosen.connection.isConnecting { trace.pinResult = chosen.connection.lifecycle.pin }
        }
        let stream = HTTP2UpstreamStream(connection: chosen.connection, owner: self, fields: fields,
                                         connectionWasOpen: !chosen.isNew)
        chosen.connection.attach(stream)
        exchange.upstream = .http2(stream)
        if let replay = exchange.replayBody, !replay.isEmpty {
            replay.withUnsafeBytes { stream.sendBody($0) }
        }
        if !exchange.heldUpstream.isEmpty {
            // A delay ended: what arrived meanwhile follows the head (unframed for HTTP/2).
            exchange.heldUpstream.withUnsafeBytes { held in
                stream.sendBody(held)
                exchange.recordForReplay(held)
            }
            exchange.heldUpstream = []
        }
        if requestComplete { stream.finishRequest(trailers: exchange.requestTrailers) }
        run(exchange.machine.upstreamAttached(connecting: stream.isConnecting), on: exchange)
    }
}
