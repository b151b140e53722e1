import FaultlineHTTP
import FaultlineIO
import FaultlineConfig

/// Request-phase faults: delays before the upstream is contacted, and the faults that end an
/// exchange instead of it (synthesized statuses, resets, empty replies, hangs, garbage).
extension DownstreamConnection {
    /// Holds the exchange for `milliseconds` on a loop timer (other exchanges keep flowing),
    /// then contacts the upstream with what arrived meanwhile.
    func delayUpstream(_ exchange: Exchange, milliseconds: Int) {
        exchange.waitingForDelay = true
        exchange.faultTimer = context.loop.schedule(afterMilliseconds: milliseconds) { [weak self, weak exchange] in
            guard let self, let exchange, self.exchange === exchange else { return }
            exchange.faultTimer = nil
            exchange.waitingForDelay = false
            self.connectUpstream(exchange, fresh: false)
            guard let upstream = exchange.upstream, !exchange.heldUpstream.isEmpty else {
                self.releaseUpstreamCork()
                return
            }
            upstream.socket.write(exchange.heldUpstream)
            exchange.heldUpstream.withUnsafeBytes { exchange.recordForReplay($0) }
            exchange.heldUpstream = []
            self.releaseUpstreamCork()
            if !exchange.requestComplete { self.socket.setReading(true) }
        }
    }

    /// Keeps request body bytes (framed for the upstream) until the delay ends.
    func holdRequestBody(_ bytes: UnsafeRawBufferPointer, for exchange: Exchange) {
        exchange.requestBodyBytes += UInt64(bytes.count)
        traceRequestBody(bytes)
        if exchange.requestFraming == .chunked {
            HTTP1Encoder.appendChunkHeader(size: bytes.count, into: &exchange.heldUpstream)
            exchange.heldUpstream.append(contentsOf: bytes)
            exchange.heldUpstream.append(contentsOf: HTTP1Encoder.chunkEnd)
        } else {
            exchange.heldUpstream.append(contentsOf: bytes)
        }
        if exchange.heldUpstream.count > 256 * 1024 { socket.setReading(false) }
    }

    /// The request ended during a delay: its last chunk waits with the rest.
    func holdRequestEnd(for exchange: Exchange) {
        guard exchange.requestFraming == .chunked else { return }
        HTTP1Encoder.appendLastChunk(trailers: exchange.requestTrailers, into: &exchange.heldUpstream)
    }

    /// Carries out a fault that replaces the whole exchange; the request has been read.
    func runTerminalFault(_ terminal: FaultPlan.Terminal, exchange: Exchange) {
        deadline.disarm()
        switch terminal {
        case .status(let status):
            respondWithFault(status, exchange: exchange)
        case .reset:
            trace?.fail("fault", "connection reset by fault \(exchange.plan.names.joined(separator: ", "))")
            closeNow(reset: true)
        case .close:
            trace?.fail("fault", "connection closed by fault \(exchange.plan.names.joined(separator: ", "))")
            closeNow()
        case .hang(let hang):
            trace?.fail("fault", "hung by fault \(exchange.plan.names.joined(separator: ", "))")
            // Nothing is sent; without a duration the client's own timeout ends it (its EOF
            // aborts the exchange like any client that gives up).
            guard let ms = hang.ms else { return }
            exchange.faultTimer = context.loop.schedule(afterMilliseconds: ms) { [weak self, weak exchange] in
                guard let self, let exchange, self.exchange === exchange else { return }
                exchange.faultTimer = nil
                self.closeNow(reset: hang.then == .reset)
            }
        case .garbage:
            trace?.fail("fault", "garbage reply by fault \(exchange.plan.names.joined(separator: ", "))")
            socket.write(Array("\u{0}\u{1}\u{2}\u{3} faultline corrupt reply: this is not HTTP \u{7f}\u{ff}\r\n".utf8))
            closeAfterFlush()
        case .badChunkFraming:
            var bytes: [UInt8] = []
            HTTP1Encoder.appendStatusLine(status: 200, reason: [], into: &bytes)
            HTTP1Encoder.appendField("Content-Type", "application/json".utf8, into: &bytes)
            HTTP1Encoder.appendField("Transfer-Encoding", "chunked".utf8, into: &bytes)
            appendFaultMarker(exchange, into: &bytes)
            bytes.append(contentsOf: "\r\n6\r\n{\"ok\":\r\nzz-not-a-chunk-size\r\n".utf8)
            trace?.status = 200
            trace?.fail("fault", "malformed chunked body by fault \(exchange.plan.names.joined(separator: ", "))")
            socket.write(bytes)
            closeAfterFlush()
        }
    }

    /// Answers with a status fault's response (synthesized, or replacing the upstream's).
    func respondWithFault(_ status: StatusFault, exchange: Exchange) {
        let body: [UInt8]
        switch status.body {
        case .empty: body = []
        case .text(let text): body = Array(text.utf8)
        case .file(let path): body = exchange.snapshot.faultBodies[path] ?? []
        }
        let keepAlive = exchange.requestComplete && lastRequestKeepAlive && !draining && !context.draining
        var bytes: [UInt8] = []
        HTTP1Encoder.appendStatusLine(status: status.code, reason: [], into: &bytes)
        let bodiless = status.code < 200 || status.code == 204 || status.code == 304
        if !bodiless {
            HTTP1Encoder.appendField("Content-Type", (status.contentType ?? "text/plain; charset=utf-8").utf8, into: &bytes)
            HTTP1Encoder.appendField("Content-Length", decimal: UInt64(body.count), into: &bytes)
        }
        for header in status.headers {
            bytes.append(contentsOf: header.name.utf8)
            bytes.append(contentsOf: ": ".utf8)
            bytes.append(contentsOf: header.value.utf8)
            bytes.append(contentsOf: "\r\n".utf8)
        }
        appendFaultMarker(exchange, into: &bytes)
        if let trace { HTTP1Encoder.appendField("X-Request-ID", trace.requestID.utf8, into: &bytes) }
        if !keepAlive { HTTP1Encoder.appendField("Connection", "close".utf8, into: &bytes) }
        bytes.append(contentsOf: "\r\n".utf8)
        if !bodiless && !exchange.isHeadRequest { bytes.append(contentsOf: body) }
        traceLocalResponse(status: status.code, contentType: bodiless ? nil : (status.contentType ?? "text/plain; charset=utf-8"),
                           headers: status.headers.map { ($0.name, $0.value) },
                           body: bodiless || exchange.isHeadRequest ? [] : body)
        socket.write(bytes)
        finishExchange(keepAlive: keepAlive)
    }

    /// `X-Faultline-Fault: route/fault, …` so a client can tell an injected failure from a real one.
    func appendFaultMarker(_ exchange: Exchange, into bytes: inout [UInt8]) {
        guard !exchange.plan.isEmpty, exchange.snapshot.config.faultHeaders.markResponses else { return }
        HTTP1Encoder.appendField("X-Faultline-Fault", exchange.plan.names.joined(separator: ", ").utf8, into: &bytes)
    }
}

extension FaultPlan {
    /// Per-request control by header (opt-in): a delay in milliseconds and/or a status code.
    mutating func applyRequestHeaders(_ headers: HTTPHeaders, controls: FaultHeadersConfig) {
        for index in 0..<headers.count {
            let (name, value) = (headers.name(at: index), headers.value(at: index))
            if name.lowercased() == controls.delayHeader.lowercased(), let ms = Int(value), ms >= 0, ms <= 600_000 {
                requestDelayMs += ms
                names.append("header/delay")
            } else if name.lowercased() == controls.statusHeader.lowercased(), let code = Int(value), (200...599).contains(code) {
                terminal = .status(StatusFault(code: code, body: .text("fault injected by \(controls.statusHeader)\n")))
                names.append("header/status")
            }
        }
    }
}
