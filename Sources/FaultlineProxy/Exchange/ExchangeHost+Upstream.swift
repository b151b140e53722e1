import FaultlineHTTP
import FaultlineIO

/// The upstream-bound actions, the same for every client protocol: connecting, writing
/// the request, returning the connection. An HTTP/1 upstream gets framed bytes on a
/// connection of its own; an HTTP/2 one gets the same request as a stream
/// (`ExchangeHost+UpstreamStream`).
extension ExchangeHost {
    /// Sends the exchange's head on a pooled or new upstream connection, or opens its stream.
    func connectUpstream(_ exchange: Exchange, fresh: Bool, requestComplete: Bool) {
        guard let route = exchange.route else { return }
        guard let address = exchange.snapshot.address(ofUpstream: route.upstream.name) else {
            run(exchange.machine.upstreamFailed(.noAddress(upstream: route.upstream.name), attempt: UpstreamAttemptFacts()),
                on: exchange)
            return
        }
        if route.upstream.httpProtocol != .http11 {
            connectUpstreamStream(exchange, route: route, address: address, requestComplete: requestComplete)
            return
        }
        let security = exchange.snapshot.security(ofUpstream: route.upstream.name)
        let connection: UpstreamConnection
        if !fresh, let pooled = context.pool.take(address, security: security, now: context.loop.now) {
            connection = pooled
            pooled.begin(owner: self, headRequest: exchange.machine.setup.isHeadRequest)
            trace?.reusedConnection = true
            trace?.pinResult = pooled.pinResult
        } else {
            if let trace {
                trace.reusedConnection = false
                trace.connectStart = context.loop.now
                trace.usedTLS = security != nil
            }
            do {
                connection = try UpstreamConnection(address: address, loop: context.loop, security: security,
                                                    state: context.state, owner: self,
                                                    headRequest: exchange.machine.setup.isHeadRequest)
            } catch {
                run(exchange.machine.upstreamFailed(.connect(error), attempt: UpstreamAttemptFacts()), on: exchange)
                return
            }
        }
        exchange.upstream = .http1(connection)
        // The head and the body bytes that came with it leave together when the read pass ends.
        corkUpstream(connection)
        if case .http1(let head) = exchange.upstreamHead { connection.socket.write(head) }
        if let replay = exchange.replayBody, !replay.isEmpty {
            // A retry: what the failed attempt had sent of the body goes again.
            connection.socket.write(replay)
        }
        if requestComplete { connection.requestWritten() }
        run(exchange.machine.upstreamAttached(connecting: connection.socket.isConnecting), on: exchange)
    }

    /// The exchange completed: the pool decides whether the connection stays (only if this
    /// exchange left it clean); a stream is simply over.
    func releaseUpstream(_ exchange: Exchange) {
        guard let upstream = exchange.upstream, let route = exchange.route else { return }
        exchange.upstream = nil
        switch upstream {
        case .http1(let connection):
            context.pool.release(connection, maxIdle: route.upstream.maxIdleConnections,
                                 idleMilliseconds: route.upstream.timeouts.idleMs, now: context.loop.now)
        case .http2(let stream):
            stream.release()
        }
    }

    /// Writes a request body part upstream.
    func forwardRequestBody(_ bytes: UnsafeRawBufferPointer, chunked: Bool, exchange: Exchange) {
        guard let leg = exchange.upstream else { return }
        traceRequestBody(bytes)
        guard case .http1(let upstream) = leg else {
            if case .http2(let stream) = leg {
                // DATA frames carry their own length: no chunk framing.
                stream.sendBody(bytes)
                exchange.recordForReplay(bytes)
            }
            return
        }
        if chunked {
            // Each piece a complete chunk, so the upstream never waits for the next one to
            // learn that this one ended; corked, the pieces of one pass leave in one write.
            corkUpstream(upstream)
            var prefix: [UInt8] = []
            HTTP1Encoder.appendChunkHeader(size: bytes.count, into: &prefix)
            upstream.socket.write(prefix, bytes)
            upstream.socket.write(HTTP1Encoder.chunkEnd)
            prefix.withUnsafeBytes { exchange.recordForReplay($0) }
            exchange.recordForReplay(bytes)
            HTTP1Encoder.chunkEnd.withUnsafeBytes { exchange.recordForReplay($0) }
        } else {
            upstream.socket.write(bytes)
            exchange.recordForReplay(bytes)
        }
    }

    /// Keeps request body bytes (framed for an HTTP/1 upstream) until the delay ends.
    func holdRequestBody(_ bytes: UnsafeRawBufferPointer, chunked: Bool, exchange: Exchange) {
        traceRequestBody(bytes)
        if chunked && !exchange.speaksHTTP2Upstream {
            HTTP1Encoder.appendChunkHeader(size: bytes.count, into: &exchange.heldUpstream)
            exchange.heldUpstream.append(contentsOf: bytes)
            exchange.heldUpstream.append(contentsOf: HTTP1Encoder.chunkEnd)
        } else {
            exchange.heldUpstream.append(contentsOf: bytes)
        }
        if exchange.heldUpstream.count > 256 * 1024 { setClientReading(false) }
    }

    /// The request ended: its last chunk goes out (or waits with the rest during a delay);
    /// a stream ends with the request's trailers.
    func endRequest(chunked: Bool, held: Bool, exchange: Exchange) {
        if held {
            // A stream takes its trailers from the exchange when it opens.
            if chunked && !exchange.speaksHTTP2Upstream {
                HTTP1Encoder.appendLastChunk(trailers: exchange.requestTrailers, into: &exchange.heldUpstream)
            }
            return
        }
        guard let leg = exchange.upstream else { return }
        guard case .http1(let upstream) = leg else {
            if case .http2(let stream) = leg { stream.finishRequest(trailers: exchange.requestTrailers) }
            return
        }
        if chunked {
            var tail: [UInt8] = []
            HTTP1Encoder.appendLastChunk(trailers: exchange.requestTrailers, into: &tail)
            upstream.socket.write(tail)
            tail.withUnsafeBytes { exchange.recordForReplay($0) }
        }
        upstream.requestWritten()
    }

    /// A delay ended and the upstream was contacted: what arrived meanwhile follows the head
    /// (a stream took it when it opened).
    func sendHeldRequest(_ exchange: Exchange) {
        guard case .http1(let upstream) = exchange.upstream, !exchange.heldUpstream.isEmpty else {
            releaseUpstreamCork()
            if case .http2(let stream) = exchange.upstream, stream.pendingRequestBytes == 0,
               exchange.machine.isReadingRequest {
                setClientReading(true)
            }
            return
        }
        upstream.socket.write(exchange.heldUpstream)
        exchange.heldUpstream.withUnsafeBytes { exchange.recordForReplay($0) }
        exchange.heldUpstream = []
        releaseUpstreamCork()
        if exchange.machine.isReadingRequest { setClientReading(true) }
    }
}
