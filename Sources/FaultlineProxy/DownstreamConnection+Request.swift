import FaultlineHTTP
import FaultlineIO
import FaultlineConfig

extension DownstreamConnection {
    /// Feeds request bytes to the decoder and acts on what it found. A request the proxy
    /// answers itself ends inside this pass; the requests behind it are then decoded in the
    /// same pass, in order, and the first one that goes upstream leaves the rest queued.
    func decode(_ bytes: UnsafeRawBufferPointer) {
        let outermost = !decoding
        decoding = true
        defer {
            if outermost { decoding = false }
            releaseUpstreamCork()
        }
        var input = bytes
        messages: while true {
            if phase == .idle {
                phase = .readingHead
                deadline.arm(.clientHeader, now: context.loop.now, milliseconds: context.snapshot.config.clientTimeouts.headerMs)
            }
            let status = decoder.feed(input)
            for event in decoder.events {
                guard phase != .closed else { return }
                switch event {
                case .head(let head):
                    beginExchange(head)
                case .body(let range):
                    forwardRequestBody(UnsafeRawBufferPointer(rebasing: input[range]))
                case .trailers(let trailers):
                    exchange?.requestTrailers = trailers
                case .end:
                    finishRequest()
                }
            }
            guard phase != .closed else { return }
            switch status {
            case .needMore:
                break messages
            case .messageComplete(let consumed):
                decoder.resume()
                let rest = UnsafeRawBufferPointer(rebasing: input[consumed...])
                guard !rest.isEmpty else { break messages }
                if phase == .idle {
                    // Answered already (by the proxy itself): the next request's turn.
                    input = rest
                    continue messages
                }
                pipelined.append(contentsOf: rest)
                if pipelined.count >= Self.pipelineLimit { socket.setReading(false) }
                break messages
            case .upgraded(let consumed):
                // Bytes after an upgrade request belong to the new protocol: hold them for the tunnel.
                if consumed < input.count { pipelined.append(contentsOf: input[consumed...]) }
                socket.setReading(false)
                break messages
            case .failed(let error):
                writeLocalAndClose(status: error.status, message: "bad request: \(error.reason)")
                return
            }
        }
        if let local = pendingLocalResponse, phase != .closed {
            // The request is not fully read and never will be: answer and close.
            pendingLocalResponse = nil
            writeLocalAndClose(status: local.status, message: local.message)
        }
    }

    /// Decodes the queued bytes of pipelined requests (the exchange before them ended).
    func decodePipelined() {
        guard !decoding, !pipelined.isEmpty, phase != .closed else { return }
        let next = pipelined
        pipelined.removeAll(keepingCapacity: true)
        next.withUnsafeBytes { decode($0) }
    }

    private func beginExchange(_ received: HTTPHead) {
        deadline.disarm()
        phase = .exchange
        requestBodyReceived = 0
        lastRequestKeepAlive = received.keepAlive && !received.isUpgrade
        lastRequestWasHead = received.method == "HEAD"
        let snapshot = context.snapshot
        // The record keeps the target as received (its userinfo is redacted there); routing
        // and the upstream see the origin form.
        let trace = startTrace(received, log: snapshot.log)
        var head = received
        if let origin = received.originFormTarget { head.target = origin }
        if head.method == "CONNECT" {
            pendingLocalResponse = (405, "CONNECT is not supported: Faultline is a reverse proxy")
            return
        }
        let hostCount = head.headers.count(of: "host")
        if hostCount > 1 || (hostCount == 0 && head.versionMinor >= 1) {
            // RFC 9112 §3.2: an HTTP/1.1 request needs exactly one Host; two disagree about the target.
            pendingLocalResponse = (400, hostCount == 0 ? "bad request: HTTP/1.1 request without a Host header"
                                                       : "bad request: more than one Host header")
            lastRequestKeepAlive = false
            return
        }
        let limit = snapshot.config.limits.maxRequestBodyBytes
        if limit > 0, let length = head.contentLength, length > UInt64(limit) {
            pendingLocalResponse = (413, "request body of \(length) bytes exceeds the limit of \(limit) bytes")
            return
        }
        let host = head.headers.firstIndex(of: "host")
        let route = head.headers.bytes.withUnsafeBytes { raw -> CompiledRoute? in
            let hostBytes = host.map { index -> UnsafeRawBufferPointer in
                let field = head.headers.fields[index]
                return UnsafeRawBufferPointer(rebasing: raw[Int(field.valueStart)..<Int(field.valueEnd)])
            }
            var method = head.method
            return method.withUTF8 { method in
                head.path.withUnsafeBytes { path in
                    snapshot.routes.match(host: hostBytes, method: UnsafeRawBufferPointer(method), path: path)
                }
            }
        }
        guard let route else {
            pendingLocalResponse = (404, "no route matches \(head.method) \(String(decoding: head.path, as: UTF8.self))")
            return
        }
        let framing = BodyFraming.forwarding(request: head)
        trace?.route = route.name
        trace?.upstream = route.upstream.name
        let decision = snapshot.faults.decide(route: route)
        var plan = decision.isEmpty ? FaultPlan() : FaultPlan(decision, routeName: route.name)
        let controls = snapshot.config.faultHeaders
        if controls.enabled { plan.applyRequestHeaders(head.headers, controls: controls) }
        if let trace, !plan.names.isEmpty {
            trace.faults = plan.names
            logFaults(plan, route: route, head: head, log: snapshot.log)
        }
        let upstreamHead = RequestHeadWriter.upstreamHead(
            for: head, framing: framing, clientIP: clientIP, scheme: scheme, upstream: route.upstream,
            upgrade: head.isUpgrade, requestID: trace?.requestID, dropping: controls.enabled ? [controls.delayHeader, controls.statusHeader] : [])
        let exchange = Exchange(snapshot: snapshot, route: route, request: head, requestFraming: framing,
                                upstreamHead: upstreamHead, plan: plan, decision: decision)
        self.exchange = exchange
        if plan.terminal != nil {
            // Answered (or not) by the fault once the request has been read; until then its
            // body must keep coming like any other.
            deadline.arm(.clientBody, now: context.loop.now, milliseconds: snapshot.config.clientTimeouts.idleMs)
            return
        }
        if plan.requestDelayMs > 0 {
            delayUpstream(exchange, milliseconds: plan.requestDelayMs)
            return
        }
        connectUpstream(exchange, fresh: false)
    }

    /// Sends the exchange's head on a pooled or new upstream connection.
    func connectUpstream(_ exchange: Exchange, fresh: Bool) {
        let upstreamConfig = exchange.route.upstream
        guard let address = exchange.snapshot.address(ofUpstream: upstreamConfig.name) else {
            trace?.fail("upstream_connect", "upstream \(upstreamConfig.name) has no address")
            failBeforeResponse(status: 502, message: "upstream \(upstreamConfig.name) has no address")
            return
        }
        let security = exchange.snapshot.security(ofUpstream: upstreamConfig.name)
        let connection: UpstreamConnection
        if !fresh, let pooled = context.pool.take(address, security: security) {
            connection = pooled
            trace?.reusedConnection = true
            trace?.pinResult = pooled.pinResult.flatMap { .init(rawValue: $0) }
        } else {
            if let trace {
                trace.reusedConnection = false
                trace.connectStart = context.loop.now
                trace.usedTLS = security != nil
            }
            do {
                connection = try UpstreamConnection(address: address, loop: context.loop, security: security,
                                                    state: context.state)
            } catch {
                trace?.fail("upstream_connect", UpstreamFailure.connect(error).message)
                failBeforeResponse(status: 502, message: UpstreamFailure.connect(error).message)
                return
            }
        }
        exchange.upstream = connection
        connection.begin(owner: self, headRequest: exchange.isHeadRequest)
        // The head and the body bytes that came with it leave together when decoding ends.
        if let corked = corkedUpstream, corked !== connection { corked.socket.uncork() }
        connection.socket.cork()
        corkedUpstream = connection
        let now = context.loop.now
        if connection.socket.isConnecting {
            deadline.arm(.upstreamConnect, now: now, milliseconds: upstreamConfig.timeouts.connectMs)
        } else if exchange.requestComplete {
            deadline.arm(.upstreamResponse, now: now, milliseconds: upstreamConfig.timeouts.responseMs)
        } else {
            deadline.arm(.clientBody, now: now, milliseconds: context.snapshot.config.clientTimeouts.idleMs)
        }
        connection.socket.write(exchange.upstreamHead)
        if let replay = exchange.replayBody, !replay.isEmpty {
            // A retry: what the failed attempt had sent of the body goes again.
            connection.socket.write(replay)
        }
        if exchange.requestComplete && !exchange.waitingForDelay { connection.requestWritten() }
    }

    /// Request body bytes, whatever will answer the request: counted against the body limit,
    /// then forwarded, held during a delay, or read and dropped (a fault or the proxy answers).
    private func forwardRequestBody(_ bytes: UnsafeRawBufferPointer) {
        requestBodyReceived += UInt64(bytes.count)
        let limit = (exchange?.snapshot ?? context.snapshot).config.limits.maxRequestBodyBytes
        if limit > 0 && requestBodyReceived > UInt64(limit) {
            refuseOversizeBody(limit: limit)
            return
        }
        guard let exchange, pendingLocalResponse == nil else { return }
        if deadline.kind == .clientBody {
            deadline.arm(.clientBody, now: context.loop.now, milliseconds: context.snapshot.config.clientTimeouts.idleMs)
        }
        guard exchange.plan.terminal == nil else { return }
        if exchange.waitingForDelay {
            holdRequestBody(bytes, for: exchange)
            return
        }
        guard let upstream = exchange.upstream else { return }
        exchange.requestBodyBytes += UInt64(bytes.count)
        traceRequestBody(bytes)
        if exchange.requestFraming == .chunked {
            // Each piece a complete chunk, so the upstream never waits for the next one to
            // learn that this one ended; corked, the pieces of one pass leave in one write.
            if corkedUpstream == nil {
                upstream.socket.cork()
                corkedUpstream = upstream
            }
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

    /// The body outgrew `max_request_body_bytes`: 413 if no response has started, else the
    /// connection is cut; either way nothing more of it reaches anyone.
    private func refuseOversizeBody(limit: Int) {
        pendingLocalResponse = nil
        if exchange?.responseHeadSent == true {
            trace?.fail("body_too_large", "request body exceeds the limit of \(limit) bytes")
            closeNow()
            return
        }
        cancelExchange()
        writeLocalAndClose(status: 413, message: "request body exceeds the limit of \(limit) bytes")
    }

    private func finishRequest() {
        if let local = pendingLocalResponse {
            pendingLocalResponse = nil
            respondLocally(status: local.status, message: local.message, requestFullyRead: true)
            return
        }
        guard let exchange else { return }
        exchange.requestComplete = true
        if let terminal = exchange.plan.terminal {
            runTerminalFault(terminal, exchange: exchange)
            return
        }
        if exchange.waitingForDelay {
            holdRequestEnd(for: exchange)
            return
        }
        if let upstream = exchange.upstream {
            if exchange.requestFraming == .chunked {
                var tail: [UInt8] = []
                HTTP1Encoder.appendLastChunk(trailers: exchange.requestTrailers, into: &tail)
                upstream.socket.write(tail)
                tail.withUnsafeBytes { exchange.recordForReplay($0) }
            }
            upstream.requestWritten()
        }
        if deadline.kind == .clientBody {
            deadline.arm(.upstreamResponse, now: context.loop.now, milliseconds: exchange.route.upstream.timeouts.responseMs)
        }
    }

    /// Sends what was written upstream while decoding and applies backpressure to the client.
    func releaseUpstreamCork() {
        if let corked = corkedUpstream {
            corkedUpstream = nil
            corked.socket.uncork()
        }
        if phase != .closed, let upstream = exchange?.upstream, upstream.socket.pendingWriteBytes > 0 {
            socket.setReading(false)
        }
    }

    /// Relays client bytes to the upstream after a 101.
    func relayToUpstream(_ bytes: UnsafeRawBufferPointer) {
        guard let exchange, let upstream = exchange.upstream else { return }
        deadline.arm(.tunnelIdle, now: context.loop.now, milliseconds: exchange.route.upstream.timeouts.tunnelIdleMs)
        upstream.socket.write(bytes)
        if upstream.socket.pendingWriteBytes > 0 { socket.setReading(false) }
    }
}
