import FaultlineHTTP
import FaultlineIO
import FaultlineConfig

/// A protocol adapter that drives exchanges: the seam between a client protocol and the
/// exchange layer.
///
/// The adapter decodes its protocol, starts each request's `Exchange` with an
/// `ExchangeStarter`, reports the request's events to `exchange.machine` and hands the
/// resulting actions to `run(_:on:inHand:)`. Everything upstream-bound (connecting, pooling,
/// retries, writing and holding the request, timers, fault steps, the log record's error) is
/// carried out here, once for every protocol; what reaches the client goes through the
/// `ExchangeClient` requirements, which each protocol writes its own way. The upstream leg
/// reports to the host as its `UpstreamLegOwner` (implemented once, here, for every host but
/// the flow-control hooks below), so its events reach the same machine whatever the upstream
/// speaks. How an HTTP/2 stream plugs in: docs/architecture.md, "Adapters".
///
/// `DownstreamConnection` is the HTTP/1 host (one exchange at a time, pipelined requests
/// queued). `HTTP2Stream` is the host of one HTTP/2 stream: HEADERS start an exchange,
/// DATA frames are `requestBodyReceived`, END_STREAM is `requestEnded`; the client writes
/// become HEADERS and DATA frames on the stream, `closeClient` an RST_STREAM, and its
/// deadline and read pausing map to the stream's timers and flow-control window.
protocol ExchangeHost: ExchangeClient, UpstreamLegOwner {
    /// The loop the host lives on, its pool and shared state.
    var context: LoopContext { get }
    /// The exchange in progress.
    var exchange: Exchange? { get }
    /// Whether `exchange` is the one in progress (checked before every action: an action may
    /// have ended it).
    func isCurrent(_ exchange: Exchange) -> Bool
    /// Its log record (nil when logging and HAR are off).
    var trace: ExchangeTrace? { get }
    /// The host's one deadline for the exchange (request body, upstream connect and response).
    var deadline: ConnectionDeadline { get set }
    /// The upstream socket whose writes are held back until the host's current pass ends.
    var corkedUpstream: StreamSocket? { get set }
    /// An upload throttle holds client reads until this time (monotonic ns).
    var uploadPausedUntil: UInt64 { get set }
    /// The client's address (X-Forwarded-For, session membership, records).
    var clientIP: String { get }
    /// "http" or "https", the listener's (X-Forwarded-Proto).
    var scheme: StaticString { get }
    /// Where a forward-proxy request goes when its route names no upstream; nil otherwise.
    var forwardDestination: ForwardDestination? { get }
    /// Makes `exchange` the one in progress (the host's phase).
    func adopt(_ exchange: Exchange)
    /// Pauses or resumes reading from the client.
    func setClientReading(_ reading: Bool)
    /// Events of one upstream read are about to be delivered (the host may batch its writes).
    func upstreamWillDeliver()
    /// Events of one upstream read have been delivered by `leg`: the host applies
    /// backpressure (`leg.setResponseReading(false)`) if its client is behind.
    func upstreamDidDeliver(_ leg: UpstreamLeg)
    /// The upstream took the request bytes it was given: the client may send more.
    func upstreamDidDrain()
    /// After a 101, bytes from the upstream for the client (HTTP/1 only).
    func relayTunnelBytes(_ bytes: UnsafeRawBufferPointer, from leg: UpstreamLeg)
}

/// What is the same for every host: starting an exchange, its deadline, the upstream cork,
/// upload throttling, its record.
extension ExchangeHost {
    /// Starts the exchange of `head` (its target in origin form; its record and session
    /// already resolved, since whether a journal wants the record depends on the session):
    /// the one way every host starts one.
    @discardableResult
    func startExchange(_ head: HTTPHead, trace: ExchangeTrace?, membership: SessionMembership, mayKeepAlive: Bool,
                       startedAt: UInt64, body: MatchBody? = nil) -> Exchange {
        var starter = ExchangeStarter(snapshot: context.snapshot, clientIP: clientIP, scheme: scheme,
                                      sessions: context.state.sessions, now: context.loop.now,
                                      scenarios: context.state.scenarios)
        starter.destination = forwardDestination
        starter.headScratch = context.headScratch
        let exchange = starter.start(head, trace: trace, membership: membership, mayKeepAlive: mayKeepAlive, body: body)
        exchange.startedAt = startedAt
        adopt(exchange)
        run(exchange.machine.requestHeadReceived(), on: exchange)
        return exchange
    }

    /// The session `head` belongs to, if any, resolved now (it renews the session).
    func membership(of head: HTTPHead) -> SessionMembership {
        SessionMembership(head, clientIP: clientIP, sessions: context.state.sessions, now: context.loop.now)
    }

    /// (Re)starts the host's one deadline for the exchange.
    func armDeadline(_ kind: ConnectionDeadline.Kind, milliseconds: Int) {
        deadline.arm(kind, now: context.loop.now, milliseconds: milliseconds)
    }

    /// No deadline applies.
    func disarmDeadline() {
        deadline.disarm()
    }

    /// Holds `socket`'s writes until the host's read pass ends (then `releaseUpstreamCork`).
    func corkUpstream(_ socket: StreamSocket) {
        guard corkedUpstream !== socket else { return }
        corkedUpstream?.uncork()
        socket.cork()
        corkedUpstream = socket
    }

    /// Sends what was corked; while the upstream has not taken the request bytes, the client
    /// is not read.
    func releaseUpstreamCork() {
        if let corked = corkedUpstream {
            corkedUpstream = nil
            corked.uncork()
        }
        if let upstream = exchange?.upstream, upstream.pendingRequestBytes > 0 {
            setClientReading(false)
        }
    }

    /// An upload throttle: after reading `count` bytes of a request body, the client is not
    /// read for as long as the exchange says those bytes should have taken.
    func throttleUpload(afterReading count: Int) {
        guard let exchange, !exchange.isTunnel, let pause = exchange.machine.uploadPause(afterReading: count) else { return }
        setClientReading(false)
        uploadPausedUntil = context.loop.now &+ UInt64(pause) &* 1_000_000
        context.loop.schedule(afterMilliseconds: pause) { [weak self, weak exchange] in
            guard let self, let exchange, self.isCurrent(exchange), !exchange.isTunnel else { return }
            if exchange.upstream?.pendingRequestBytes ?? 0 == 0 { self.setClientReading(true) }
        }
    }

    /// Notes the response head the client gets.
    func traceResponse(_ head: HTTPHead) {
        trace?.noteResponse(head, now: context.loop.now)
    }

    /// Counts (and captures the start of) response body bytes the client gets.
    func traceResponseBody(_ bytes: UnsafeRawBufferPointer) {
        trace?.countResponseBody(bytes)
    }

    /// Counts (and captures the start of) request body bytes.
    func traceRequestBody(_ bytes: UnsafeRawBufferPointer) {
        trace?.countRequestBody(bytes)
    }

    /// Routes the response through a pacer from now on; the pacer holds the upstream back
    /// while it holds bytes.
    func startPacer(_ settings: PacerSettings, exchange: Exchange) {
        let pacer = ResponsePacer(sink: pacedSink, loop: context.loop, bytesPerSecond: settings.bytesPerSecond,
                                  chunkBytes: settings.chunkBytes, holdMilliseconds: settings.holdMilliseconds)
        pacer.backpressure = { [weak exchange] pause in
            exchange?.upstream?.setResponseReading(!pause)
        }
        exchange.pacer = pacer
    }

    /// Notes `response` on the record, as its `record` says.
    func noteOwnResponse(_ response: OwnResponse) {
        switch response.record {
        case .local(let contentType, let headers, let body)?:
            trace?.noteLocalResponse(status: response.status, contentType: contentType, headers: headers, body: body,
                                     now: context.loop.now)
        case .status?:
            trace?.status = response.status
        case nil:
            break
        }
    }

    /// A record of its own for an upstream TLS handshake that failed.
    func logUpstreamTLSFailure(upstream: String, reason: String) {
        trace?.logUpstreamTLSFailure(upstream: upstream, reason: reason)
    }
}

extension ExchangeHost {
    /// Performs `actions` of `exchange` in order; stops if the exchange ended meanwhile (an
    /// action reported a further event that ended it).
    func run(_ actions: ExchangeActions, on exchange: Exchange, inHand: ExchangeInHand = .nothing) {
        for index in 0..<actions.count {
            guard isCurrent(exchange), let action = actions[index] else { return }
            perform(action, on: exchange, inHand: inHand)
        }
    }

    private func perform(_ action: ExchangeAction, on exchange: Exchange, inHand: ExchangeInHand) {
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
            releaseUpstream(exchange)
        case .closeUpstream:
            exchange.upstream?.close()
            exchange.upstream = nil
        case .writeInterimHead:
            if case .head(let head) = inHand { writeInterimHead(head, exchange: exchange) }
        case .writeResponseHead(let shape):
            guard case .head(let head) = inHand else { return }
            exchange.clientStatus = head.status
            writeResponseHead(head, shape: shape, exchange: exchange)
        case .startPacer:
            startPacer(exchange.machine.pacerSettings, exchange: exchange)
        case .forwardResponseBody(let part):
            if case .body(let bytes) = inHand { forwardResponseBody(bytes, part: part, exchange: exchange) }
        case .endResponseBody(let chunked):
            endResponseBody(chunked: chunked, exchange: exchange)
        case .writeLocalResponse:
            guard case .local(let response) = exchange.machine.answer else { return }
            exchange.clientStatus = response.status
            writeOwnResponse(.local(response, requestID: trace?.visibleRequestID), exchange: exchange)
        case .writeFaultResponse:
            guard case .fault(let status, let keepAlive) = exchange.machine.answer else { return }
            exchange.clientStatus = status.code
            writeOwnResponse(.fault(status, keepAlive: keepAlive, exchange: exchange, requestID: trace?.visibleRequestID),
                             exchange: exchange)
        case .writeGarbage:
            writeOwnResponse(.garbage, exchange: exchange)
        case .writeBadChunkFraming:
            exchange.clientStatus = 200
            writeOwnResponse(.badChunkFraming(marker: exchange.machine.setup.faultMarker), exchange: exchange)
        case .startTunnel:
            startTunnel(exchange: exchange)
        case .awaitPacerDrain:
            awaitPacerDrain(exchange)
        case .sendGracefulGoAway:
            sendGracefulGoAway(exchange: exchange)
        case .armDeadline(let kind, let milliseconds):
            armDeadline(kind, milliseconds: milliseconds)
        case .disarmDeadline:
            disarmDeadline()
        case .scheduleFaultStep(let step, let milliseconds):
            exchange.faultTimer = context.loop.schedule(afterMilliseconds: milliseconds) { [weak self, weak exchange] in
                guard let self, let exchange, self.exchange === exchange else { return }
                exchange.faultTimer = nil
                self.run(exchange.machine.faultStepDue(step), on: exchange)
            }
        case .noteError:
            if let failure = exchange.machine.failure { trace?.fail(failure.error, failure.message) }
        case .finish(let keepAlive):
            finishExchange(keepAlive: keepAlive)
        case .closeClient(let how):
            closeClient(how)
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
