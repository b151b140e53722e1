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
            socket.write(ResponseHeadWriter.clientHead(for: head, framing: .none, keepAlive: true,
                                                       clientMinorVersion: clientMinor, upgrade: true))
            startTunnel()
            return
        }
        let framing: BodyFraming
        if exchange.isHeadRequest || head.status == 204 || head.status == 304 {
            framing = .none
        } else if let length = head.contentLength, !head.isChunked {
            framing = .contentLength(length)
        } else if clientMinor >= 1 {
            framing = .chunked
        } else {
            framing = .untilClose
        }
        // A request whose body was not fully sent leaves unread bytes: the connection cannot be reused.
        let keepAlive = exchange.request.keepAlive && framing != .untilClose && !exchange.upgradeRequested
            && !draining && !context.draining
        exchange.responseFraming = framing
        exchange.clientKeepAlive = keepAlive
        exchange.responseHeadSent = true
        socket.write(ResponseHeadWriter.clientHead(for: head, framing: framing, keepAlive: keepAlive,
                                                   clientMinorVersion: clientMinor, upgrade: false))
        deadline.arm(.upstreamResponse, now: context.loop.now, milliseconds: exchange.route.upstream.timeouts.responseMs)
    }

    func upstream(_ upstream: UpstreamConnection, didReceiveBody bytes: UnsafeRawBufferPointer) {
        guard let exchange else { return }
        if exchange.responseFraming == .chunked {
            var prefix: [UInt8] = exchange.responseChunkOpen ? [13, 10] : []
            HTTP1Encoder.appendChunkHeader(size: bytes.count, into: &prefix)
            exchange.responseChunkOpen = true
            socket.write(prefix, bytes)
        } else {
            socket.write(bytes)
        }
        deadline.arm(.upstreamResponse, now: context.loop.now, milliseconds: exchange.route.upstream.timeouts.responseMs)
    }

    func upstream(_ upstream: UpstreamConnection, didReceiveTrailers trailers: HTTPHeaders) {
        exchange?.responseTrailers = trailers
    }

    func upstreamDidFinishResponse(_ upstream: UpstreamConnection) {
        guard let exchange else { return }
        if exchange.responseFraming == .chunked {
            var tail: [UInt8] = exchange.responseChunkOpen ? [13, 10] : []
            HTTP1Encoder.appendLastChunk(trailers: exchange.responseTrailers, into: &tail)
            socket.write(tail)
        }
        if upstream.reusable && exchange.requestComplete {
            context.pool.put(upstream, maxIdle: exchange.route.upstream.maxIdleConnections, now: context.loop.now)
        } else {
            upstream.close()
        }
        exchange.upstream = nil
        finishExchange(keepAlive: exchange.clientKeepAlive && exchange.requestComplete)
    }

    func upstream(_ upstream: UpstreamConnection, didReceiveTunnelBytes bytes: UnsafeRawBufferPointer) {
        socket.write(bytes)
        if socket.pendingWriteBytes > 0 { upstream.socket.setReading(false) }
    }

    func upstreamDidDrain(_ upstream: UpstreamConnection) {
        // Reading also resumes once the request is complete: that is how a client that gives up
        // while the upstream thinks is noticed (its EOF), and how pipelined requests queue.
        if phase != .closed && pipelined.count < Self.pipelineLimit {
            socket.setReading(true)
        }
    }

    func upstream(_ upstream: UpstreamConnection, didFail failure: UpstreamFailure) {
        guard let exchange else { return }
        exchange.upstream = nil
        if phase == .tunnel {
            closeAfterFlush()
            return
        }
        if exchange.responseHeadSent {
            // Never let a cut response look complete: close instead of ending the body.
            abort()
            return
        }
        if upstream.isReused && exchange.canRetry, case .connectionLost = failure.retryClass {
            exchange.retried = true
            connectUpstream(exchange, fresh: true)
            releaseUpstreamCork()
            return
        }
        failBeforeResponse(status: failure.status, message: failure.message, contentType: failure.contentType)
    }

    /// Answers a gateway error before any response byte was sent.
    func failBeforeResponse(status: Int, message: String, contentType: String = "text/plain; charset=utf-8") {
        let complete = exchange?.requestComplete ?? false
        exchange?.upstream?.close()
        exchange = nil
        respondLocally(status: status, message: message, requestFullyRead: complete, contentType: contentType)
    }

    func upstreamTimedOut(_ kind: ConnectionDeadline.Kind) {
        guard let exchange else { return }
        if exchange.responseHeadSent {
            abort()
            return
        }
        let timeouts = exchange.route.upstream.timeouts
        let message = kind == .upstreamConnect
            ? "upstream \(exchange.route.upstream.name) did not accept the connection within \(timeouts.connectMs) ms"
            : "upstream \(exchange.route.upstream.name) did not answer within \(timeouts.responseMs) ms"
        failBeforeResponse(status: 504, message: message)
    }

    /// Ends the exchange: the next pipelined request, keep-alive idling, or close.
    func finishExchange(keepAlive: Bool) {
        exchange = nil
        guard phase != .closed else { return }
        guard keepAlive && !draining && !context.draining else {
            closeAfterFlush()
            return
        }
        phase = .idle
        deadline.arm(.clientIdle, now: context.loop.now, milliseconds: context.snapshot.config.clientTimeouts.idleMs)
        socket.setReading(true)
        if !pipelined.isEmpty {
            let next = pipelined
            pipelined.removeAll(keepingCapacity: true)
            next.withUnsafeBytes { decode($0) }
        }
    }

    private func startTunnel() {
        phase = .tunnel
        deadline.disarm()
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
