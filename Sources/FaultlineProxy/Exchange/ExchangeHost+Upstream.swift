import FaultlineHTTP
import FaultlineIO
#if canImport(Glibc)
import Glibc
#endif

/// The upstream-bound actions, the same for every client protocol: connecting, writing
/// the request, returning the connection. An HTTP/1 upstream gets framed bytes on a
/// connection of its own; an HTTP/2 one gets the same request as a stream
/// (`ExchangeHost+UpstreamStream`).
extension ExchangeHost {
    /// Sends the exchange's head on a pooled or new upstream connection, or opens its stream.
    func connectUpstream(_ exchange: Exchange, fresh: Bool, requestComplete: Bool) {
        guard let route = exchange.route else { return }
        if let destination = exchange.destination, destination.address == nil {
            guard lookUp(destination, for: exchange) else { return }
        }
        // Looked up once: a lookup hashes the upstream's name.
        let configured = exchange.destination == nil ? exchange.snapshot.endpoint(ofUpstream: route.upstream.name) : nil
        guard let address = exchange.destination?.address ?? configured?.address else {
            run(exchange.machine.upstreamFailed(.noAddress(upstream: route.upstream.name), attempt: UpstreamAttemptFacts()),
                on: exchange)
            return
        }
        if route.upstream.httpProtocol != .http11 {
            connectUpstreamStream(exchange, route: route, address: address, requestComplete: requestComplete)
            return
        }
        let security: UpstreamSecurity?
        let pool: UpstreamPool
        if exchange.destination != nil {
            // A host a forward-proxy client named: its own pool and TLS settings on this loop.
            guard let forwarded = context.forwardDestination(of: exchange) else {
                // Never plaintext to a TLS port: the trust settings could not be loaded.
                run(exchange.machine.upstreamFailed(.connect(IOError("load the TLS trust for \(route.upstream.name)", code: EPROTO)),
                                                    attempt: UpstreamAttemptFacts()), on: exchange)
                return
            }
            security = forwarded.security
            pool = forwarded.pool
        } else {
            security = configured?.security
            pool = context.pool
        }
        let connection: UpstreamConnection
        if !fresh, let pooled = pool.take(address, security: security, now: context.loop.now) {
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
        corkUpstream(connection.socket)
        if case .http1(let head) = exchange.upstreamHead { connection.socket.write(head) }
        if let replay = exchange.replayBody, !replay.isEmpty {
            // A retry: what the failed attempt had sent of the body goes again.
            connection.socket.write(replay)
        }
        if requestComplete { connection.requestWritten() }
        run(exchange.machine.upstreamAttached(connecting: connection.socket.isConnecting), on: exchange)
    }

    /// Fills in the address of a forward-proxy host not looked up yet. True when it is known
    /// now; false when the exchange failed (no such host, or Faultline itself) or waits, as
    /// during a delay, for a lookup off the loop, which contacts the upstream when it ends.
    private func lookUp(_ destination: ForwardDestination, for exchange: Exchange) -> Bool {
        let answer = context.forwardResolver.resolve(destination.target) { [weak self, weak exchange] answer in
            guard let self, let exchange, self.exchange === exchange else { return }
            // A failure or a self-reference is kept by the resolver: the next connect meets it.
            if case .success(let address) = answer, self.context.selfReference(destination.target, at: address) == nil {
                exchange.destination?.address = address
            }
            self.run(exchange.machine.faultStepDue(.contactUpstream), on: exchange)
        }
        switch answer {
        case nil:
            run(exchange.machine.upstreamLookupStarted(), on: exchange)
            return false
        case .failure(let error)?:
            run(exchange.machine.upstreamFailed(.connect(error), attempt: UpstreamAttemptFacts()), on: exchange)
            return false
        case .success(let address)?:
            if let reason = context.selfReference(destination.target, at: address) {
                run(exchange.machine.upstreamFailed(.selfReference(reason), attempt: UpstreamAttemptFacts()), on: exchange)
                return false
            }
            exchange.destination?.address = address
            return true
        }
    }

    /// The exchange completed: the pool decides whether an HTTP/1 connection stays (only if
    /// this exchange left it clean); a stream is simply over.
    func releaseUpstream(_ exchange: Exchange) {
        guard let upstream = exchange.upstream, let route = exchange.route else { return }
        exchange.upstream = nil
        var pool: UpstreamPool? = context.pool
        if let destination = exchange.destination, let connection = upstream.connection {
            // Back to its destination's pool, unless that destination was dropped meanwhile.
            pool = context.forwardPools.pool(returning: destination.poolKey, madeWith: connection.security)
        }
        guard let pool else {
            upstream.close()
            return
        }
        upstream.release(to: pool, maxIdle: route.upstream.maxIdleConnections,
                         idleMilliseconds: route.upstream.timeouts.idleMs, now: context.loop.now)
    }

    /// Writes a request body part upstream, framed by the leg.
    func forwardRequestBody(_ bytes: UnsafeRawBufferPointer, chunked: Bool, exchange: Exchange) {
        guard let leg = exchange.upstream else { return }
        traceRequestBody(bytes)
        // Corked, the pieces of one pass leave in one write.
        if chunked, let socket = leg.corkableSocket { corkUpstream(socket) }
        leg.sendBody(bytes, chunked: chunked) { exchange.recordForReplay($0) }
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
        exchange.upstream?.finish(trailers: exchange.requestTrailers, chunked: chunked) { exchange.recordForReplay($0) }
    }

    /// A delay ended and the upstream was contacted: what arrived meanwhile follows the head
    /// (a stream took it when it opened), and the client may send more.
    func sendHeldRequest(_ exchange: Exchange) {
        let resume = exchange.upstream?.sendHeld(&exchange.heldUpstream) { exchange.recordForReplay($0) } ?? false
        releaseUpstreamCork()
        if resume && exchange.machine.isReadingRequest { setClientReading(true) }
    }
}
