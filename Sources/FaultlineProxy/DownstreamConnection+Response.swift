import FaultlineHTTP
import FaultlineIO

extension DownstreamConnection: UpstreamConnectionOwner {
    func upstreamWillDeliver(_ upstream: UpstreamConnection) {
        socket.cork()
    }

    func upstreamDidDeliver(_ upstream: UpstreamConnection) {
        socket.uncork()
        if socket.pendingWriteBytes > 0, let current = exchange?.upstream, current === upstream {
            upstream.socket.setReading(false)
        }
    }

    func upstreamDidConnect(_ upstream: UpstreamConnection) {
        guard let exchange else { return }
        let now = context.loop.now
        if let trace {
            trace.tcpConnected = upstream.socket.tcpConnectedAt
            trace.connected = now
            trace.pinResult = upstream.pinResult.flatMap { .init(rawValue: $0) }
        }
        if exchange.requestComplete {
            deadline.arm(.upstreamResponse, now: now, milliseconds: exchange.route.upstream.timeouts.responseMs)
        } else {
            deadline.arm(.clientBody, now: now, milliseconds: context.snapshot.config.clientTimeouts.idleMs)
        }
    }

    func upstream(_ upstream: UpstreamConnection, didReceiveHead head: HTTPHead) {
        guard let exchange else { return }
        let clientMinor = exchange.request.versionMinor
        if head.isInterim {
            // HTTP/1.0 clients do not understand interim responses.
            if clientMinor >= 1 {
                socket.write(ResponseHeadWriter.clientHead(for: head, framing: .none, keepAlive: true,
                                                           clientMinorVersion: clientMinor, upgrade: false))
            }
            return
        }
        if head.status == 101 {
            guard exchange.upgradeRequested else {
                upstream.close()
                failBeforeResponse(status: 502, message: UpstreamFailure.unexpectedUpgrade.message)
                return
            }
            exchange.responseHeadSent = true
            traceResponse(head)
            socket.write(ResponseHeadWriter.clientHead(for: head, framing: .none, keepAlive: true,
                                                       clientMinorVersion: clientMinor, upgrade: true))
            startTunnel()
            return
        }
        var head = head
        let plan = exchange.plan
        if !plan.isEmpty {
            if let status = plan.replaceStatus {
                // The upstream answered; the fault answers instead.
                upstream.close()
                exchange.upstream = nil
                respondWithFault(status, exchange: exchange)
                return
            }
            if let rewrite = plan.rewrite { head = head.rewritten(by: rewrite) }
            if plan.firstByteDelayMs > 0 || plan.downBytesPerSecond > 0 { startPacer(exchange, upstream: upstream) }
        }
        let framing = BodyFraming.forwarding(response: head, headRequest: exchange.isHeadRequest, clientMinorVersion: clientMinor)
        // A request whose body was not fully sent leaves unread bytes: the connection cannot be reused.
        let keepAlive = exchange.request.keepAlive && framing != .untilClose && !exchange.upgradeRequested
            && !draining && !context.draining
        exchange.responseFraming = framing
        exchange.clientKeepAlive = keepAlive
        traceResponse(head)
        exchange.responseHeadSent = true
        var bytes = ResponseHeadWriter.clientHead(for: head, framing: framing, keepAlive: keepAlive,
                                                  clientMinorVersion: clientMinor, upgrade: false)
        if !plan.isEmpty && exchange.snapshot.config.faultHeaders.markResponses {
            bytes.removeLast(2)
            appendFaultMarker(exchange, into: &bytes)
            bytes.append(contentsOf: [13, 10])
        }
        emitToClient(bytes)
        if exchange.pacer == nil {
            deadline.arm(.upstreamResponse, now: context.loop.now, milliseconds: exchange.route.upstream.timeouts.responseMs)
        } else {
            // A throttle holds the upstream back on purpose: its silence is not a timeout.
            deadline.disarm()
        }
        if plan.cutAfterBytes == 0 { cutResponse(exchange) }
    }

    func upstream(_ upstream: UpstreamConnection, didReceiveBody bytes: UnsafeRawBufferPointer) {
        guard let exchange else { return }
        // A body the client must not get (a status rewritten to 204/304, or HEAD).
        guard exchange.responseFraming != .none else { return }
        var body = bytes
        var cutHere = false
        if let cut = exchange.plan.cutAfterBytes {
            let remaining = cut - exchange.bodyBytesOut
            guard remaining > 0 else { return }
            if body.count >= remaining {
                body = UnsafeRawBufferPointer(rebasing: body[..<remaining])
                cutHere = true
            }
        }
        let first = exchange.bodyBytesOut == 0
        exchange.bodyBytesOut += body.count
        if exchange.plan.corruptJSON && first && !body.isEmpty {
            // A body that no JSON parser accepts, with its declared length intact.
            var corrupted = Array(body)
            corrupted[0] = UInt8(ascii: "<")
            corrupted.withUnsafeBytes { forwardResponseBody($0, exchange: exchange) }
        } else {
            forwardResponseBody(body, exchange: exchange)
        }
        if exchange.pacer == nil {
            deadline.arm(.upstreamResponse, now: context.loop.now, milliseconds: exchange.route.upstream.timeouts.responseMs)
        }
        if cutHere { cutResponse(exchange) }
    }

    private func forwardResponseBody(_ bytes: UnsafeRawBufferPointer, exchange: Exchange) {
        traceResponseBody(bytes)
        if exchange.responseFraming == .chunked {
            // Each piece read goes out as a complete chunk: a client that decodes whole
            // chunks must not wait for the next read to learn that this one ended.
            var prefix: [UInt8] = []
            HTTP1Encoder.appendChunkHeader(size: bytes.count, into: &prefix)
            if let pacer = exchange.pacer {
                prefix.withUnsafeBytes { pacer.emit($0) }
                pacer.emit(bytes)
                HTTP1Encoder.chunkEnd.withUnsafeBytes { pacer.emit($0) }
            } else {
                socket.write(prefix, bytes)
                socket.write(HTTP1Encoder.chunkEnd)
            }
        } else if let pacer = exchange.pacer {
            pacer.emit(bytes)
        } else {
            socket.write(bytes)
        }
    }

    func upstream(_ upstream: UpstreamConnection, didReceiveTrailers trailers: HTTPHeaders) {
        exchange?.responseTrailers = trailers
    }

    func upstreamDidFinishResponse(_ upstream: UpstreamConnection) {
        guard let exchange else { return }
        if exchange.responseFraming == .chunked {
            var tail: [UInt8] = []
            HTTP1Encoder.appendLastChunk(trailers: exchange.responseTrailers, into: &tail)
            emitToClient(tail)
        }
        // The pool decides: it keeps the connection only if this exchange left it clean.
        let upstreamConfig = exchange.route.upstream
        context.pool.release(upstream, maxIdle: upstreamConfig.maxIdleConnections,
                             idleMilliseconds: upstreamConfig.timeouts.idleMs, now: context.loop.now)
        exchange.upstream = nil
        deadline.disarm()
        let keepAlive = exchange.clientKeepAlive && exchange.requestComplete
        if let pacer = exchange.pacer {
            pacer.finish { [weak self, weak exchange] in
                guard let self, let exchange, self.exchange === exchange else { return }
                self.finishExchange(keepAlive: keepAlive)
            }
        } else {
            finishExchange(keepAlive: keepAlive)
        }
    }

    func upstream(_ upstream: UpstreamConnection, didReceiveTunnelBytes bytes: UnsafeRawBufferPointer) {
        if let exchange {
            deadline.arm(.tunnelIdle, now: context.loop.now, milliseconds: exchange.route.upstream.timeouts.tunnelIdleMs)
        }
        socket.write(bytes)
        if socket.pendingWriteBytes > 0 { upstream.socket.setReading(false) }
    }

    func upstreamDidDrain(_ upstream: UpstreamConnection) {
        // Reading also resumes once the request is complete: that is how a client that gives up
        // while the upstream thinks is noticed (its EOF), and how pipelined requests queue.
        if phase != .closed && pipelined.count < Self.pipelineLimit && context.loop.now >= uploadPausedUntil {
            socket.setReading(true)
        }
    }

    func upstream(_ upstream: UpstreamConnection, didFail failure: UpstreamFailure) {
        guard let exchange else { return }
        exchange.upstream = nil
        if let trace, case .pinMismatch = failure { trace.pinResult = .mismatch }
        if case .handshake = failure { logUpstreamTLSFailure(upstream: exchange.route.upstream.name, reason: failure.message) }
        if phase == .tunnel {
            closeAfterFlush()
            return
        }
        if exchange.responseHeadSent {
            // Never let a cut response look complete: close instead of ending the body.
            trace?.fail(failure.errorType, failure.message)
            abort()
            return
        }
        if exchange.mayRetry(after: failure, on: upstream) {
            exchange.retried = true
            connectUpstream(exchange, fresh: true)
            releaseUpstreamCork()
            return
        }
        trace?.fail(failure.errorType, failure.message)
        failBeforeResponse(status: failure.status, message: failure.message, contentType: failure.contentType)
    }

    /// Answers a gateway error before any response byte was sent.
    func failBeforeResponse(status: Int, message: String, contentType: String = "text/plain; charset=utf-8") {
        let complete = exchange?.requestComplete ?? false
        cancelExchange()
        respondLocally(status: status, message: message, requestFullyRead: complete, contentType: contentType)
    }

    func upstreamTimedOut(_ kind: ConnectionDeadline.Kind) {
        guard let exchange else { return }
        if exchange.responseHeadSent {
            trace?.fail("upstream_timeout", "upstream \(exchange.route.upstream.name) stalled mid-response")
            abort()
            return
        }
        let timeouts = exchange.route.upstream.timeouts
        let message = kind == .upstreamConnect
            ? "upstream \(exchange.route.upstream.name) did not accept the connection within \(timeouts.connectMs) ms"
            : "upstream \(exchange.route.upstream.name) did not answer within \(timeouts.responseMs) ms"
        trace?.fail("upstream_timeout", message)
        failBeforeResponse(status: 504, message: message)
    }

    /// Ends the exchange: the next pipelined request, keep-alive idling, or close.
    func finishExchange(keepAlive: Bool) {
        exchange = nil
        endTrace()
        guard phase != .closed else { return }
        guard keepAlive && !draining && !context.draining else {
            closeAfterFlush()
            return
        }
        phase = .idle
        deadline.arm(.clientIdle, now: context.loop.now, milliseconds: context.snapshot.config.clientTimeouts.idleMs)
        socket.setReading(true)
        // Inside a decoding pass that pass goes on with the bytes behind this request.
        decodePipelined()
    }

    private func startTunnel() {
        phase = .tunnel
        if let exchange {
            deadline.arm(.tunnelIdle, now: context.loop.now, milliseconds: exchange.route.upstream.timeouts.tunnelIdleMs)
        } else {
            deadline.disarm()
        }
        socket.setReading(true)
        if !pipelined.isEmpty, let upstream = exchange?.upstream {
            upstream.socket.write(pipelined)
            pipelined.removeAll()
        }
    }
}

extension UpstreamFailure {
    enum RetryClass { case connectionLost, other }

    /// A pooled connection the upstream closed while idle fails with a reset or an early close.
    var retryClass: RetryClass {
        switch self {
        case .closedEarly, .io: .connectionLost
        default: .other
        }
    }
}
