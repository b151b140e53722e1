import FaultlineHTTP
import FaultlineIO

/// Response-side faults: first-byte delays, throttling and cut responses.
extension DownstreamConnection {
    /// Response bytes go through the exchange's pacer when one shapes them.
    func emitToClient(_ bytes: [UInt8]) {
        if let pacer = exchange?.pacer {
            bytes.withUnsafeBytes { pacer.emit($0) }
        } else {
            socket.write(bytes)
        }
    }

    /// An upload throttle: after reading `count` bytes of a request body, stop reading for as
    /// long as the rate says those bytes should have taken.
    func throttleUpload(afterReading count: Int) {
        guard let exchange, exchange.plan.upBytesPerSecond > 0, !exchange.requestComplete, phase == .exchange else { return }
        let pause = count * 1000 / exchange.plan.upBytesPerSecond
        guard pause > 0 else { return }
        socket.setReading(false)
        uploadPausedUntil = context.loop.now &+ UInt64(pause) &* 1_000_000
        context.loop.schedule(afterMilliseconds: pause) { [weak self, weak exchange] in
            guard let self, let exchange, self.exchange === exchange, self.phase == .exchange else { return }
            if exchange.upstream?.socket.pendingWriteBytes ?? 0 == 0 { self.socket.setReading(true) }
        }
    }

    func startPacer(_ exchange: Exchange, upstream: UpstreamConnection) {
        let plan = exchange.plan
        let pacer = ResponsePacer(socket: socket, loop: context.loop, bytesPerSecond: plan.downBytesPerSecond,
                                  chunkBytes: plan.chunkBytes, holdMilliseconds: plan.firstByteDelayMs)
        pacer.backpressure = { [weak upstream] pause in
            upstream?.socket.setReading(!pause)
        }
        exchange.pacer = pacer
    }

    /// Ends a response early (truncate, close or reset after N bytes): what was emitted is
    /// sent, then the connection ends so the client sees the cut.
    func cutResponse(_ exchange: Exchange) {
        exchange.upstream?.close()
        exchange.upstream = nil
        let reset = exchange.plan.cutWithReset
        trace?.fail("fault", "response cut after \(exchange.bodyBytesOut) body bytes by fault \(exchange.plan.names.joined(separator: ", "))"
                    + (reset ? " (connection reset)" : " (connection closed)"))
        let end = { [weak self, weak exchange] in
            guard let self, let exchange, self.exchange === exchange else { return }
            if reset {
                // Give the bytes a moment to leave before the RST discards what is unsent.
                exchange.faultTimer = self.context.loop.schedule(afterMilliseconds: 50) { [weak self] in
                    self?.closeNow(reset: true)
                }
            } else {
                self.closeAfterFlush()
            }
        }
        if let pacer = exchange.pacer { pacer.finish(end) } else { end() }
    }
}
