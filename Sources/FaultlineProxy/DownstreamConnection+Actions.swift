import FaultlineHTTP
import FaultlineIO

/// Carrying out what an exchange's machine decided.
extension DownstreamConnection {
    /// What the adapter holds while it reports an event: body actions refer to it.
    enum InHand {
        case nothing
        case body(UnsafeRawBufferPointer)
        case head(HTTPHead)
    }

    /// Performs `actions` of `exchange` in order; stops if the exchange ended meanwhile (an
    /// action reported a further event that ended it).
    func run(_ actions: ExchangeActions, on exchange: Exchange, inHand: InHand = .nothing) {
        for action in actions {
            guard self.exchange === exchange else { return }
            perform(action, on: exchange, inHand: inHand)
        }
    }

    private func perform(_ action: ExchangeAction, on exchange: Exchange, inHand: InHand) {
        switch action {
        case .connectUpstream(let fresh, let requestComplete):
            connectUpstream(exchange, fresh: fresh, requestComplete: requestComplete)
        case .forwardRequestBody(let chunked):
            if case .body(let bytes) = inHand { forwardRequestBody(bytes, chunked: chunked, exchange: exchange) }
        case .holdRequestBody(let chunked):
            if case .body(let bytes) = inHand { holdRequestBody(bytes, chunked: chunked, exchange: exchange) }
        case .endRequest(let chunked, let held):
            endRequest(chunked: chunked, held: held, exchange: exchange)
        case .sendHeldRequest:
            sendHeldRequest(exchange)
        case .releaseUpstream:
            guard let upstream = exchange.upstream, let config = exchange.route?.upstream else { return }
            // The pool decides: it keeps the connection only if this exchange left it clean.
            exchange.upstream = nil
            context.pool.release(upstream, maxIdle: config.maxIdleConnections,
                                 idleMilliseconds: config.timeouts.idleMs, now: context.loop.now)
        case .closeUpstream:
            exchange.upstream?.close()
            exchange.upstream = nil
        case .writeInterimHead:
            if case .head(let head) = inHand { writeInterimHead(head, exchange: exchange) }
        case .writeResponseHead(let shape):
            if case .head(let head) = inHand { writeResponseHead(head, shape: shape, exchange: exchange) }
        case .startPacer(let settings):
            startPacer(settings, exchange: exchange)
        case .forwardResponseBody(let part):
            if case .body(let bytes) = inHand { forwardResponseBody(bytes, part: part, exchange: exchange) }
        case .endResponseBody(let chunked):
            endResponseBody(chunked: chunked, exchange: exchange)
        case .writeLocalResponse(let response):
            writeLocalResponse(response, exchange: exchange)
        case .writeFaultResponse(let status, let keepAlive):
            writeFaultResponse(status, keepAlive: keepAlive, exchange: exchange)
        case .writeGarbage:
            writeGarbage()
        case .writeBadChunkFraming:
            writeBadChunkFraming(exchange: exchange)
        case .startTunnel:
            startTunnel(exchange: exchange)
        case .awaitPacerDrain:
            awaitPacerDrain(exchange)
        case .armDeadline(let kind, let milliseconds):
            deadline.arm(kind, now: context.loop.now, milliseconds: milliseconds)
        case .disarmDeadline:
            deadline.disarm()
        case .scheduleFaultStep(let step, let milliseconds):
            exchange.faultTimer = context.loop.schedule(afterMilliseconds: milliseconds) { [weak self, weak exchange] in
                guard let self, let exchange, self.exchange === exchange else { return }
                exchange.faultTimer = nil
                self.run(exchange.machine.faultStepDue(step), on: exchange)
            }
        case .noteError(let error, let message):
            trace?.fail(error, message)
        case .finish(let keepAlive):
            finishExchange(keepAlive: keepAlive)
        case .closeClient(let how):
            closeClient(how)
        }
    }

    /// Ends the connection as the exchange asks.
    func closeClient(_ how: ClientClose) {
        switch how {
        case .graceful: closeAfterFlush()
        case .now: closeNow()
        case .reset: closeNow(reset: true)
        }
    }

    private func awaitPacerDrain(_ exchange: Exchange) {
        guard let pacer = exchange.pacer else {
            run(exchange.machine.pacerDrained(), on: exchange)
            return
        }
        pacer.finish { [weak self, weak exchange] in
            guard let self, let exchange, self.exchange === exchange else { return }
            self.run(exchange.machine.pacerDrained(), on: exchange)
        }
    }
}
