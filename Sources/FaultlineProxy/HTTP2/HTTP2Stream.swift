import FaultlineHTTP
import FaultlineHTTP2
import FaultlineIO
import FaultlineConfig
import FaultlineLog

/// One HTTP/2 request stream as an `ExchangeHost`: its HEADERS start an exchange through
/// `ExchangeStarter`, its DATA and END_STREAM are the exchange's request events, and the
/// client writes become frames on this stream only. Every upstream action is the shared code
/// of `ExchangeHost`, exactly as for HTTP/1.
///
/// Flow control replaces socket readiness: request bytes reopen the stream's window only once
/// the upstream took them (`setClientReading`), and the upstream socket pauses while this
/// stream's outbound queue is long (`outboundDrained` resumes it). A stalled stream therefore
/// holds its own window and its own upstream, never the connection.
final class HTTP2Stream {
    /// Where the stream's exchange is.
    enum Phase {
        /// A request with a small declared body waits for its stream's end before its exchange
        /// starts (`HTTP2Stream+Holding.swift`).
        case holding(HTTP2HeldRequest)
        /// The exchange runs.
        case exchange(Exchange)
        /// The exchange ended; the stream may still be sending what it queued.
        case finished
    }

    /// Where the response side is.
    enum ResponseProgress: Equatable {
        /// No HEADERS submitted yet.
        case notStarted
        /// HEADERS went out; DATA follows.
        case streaming
        /// END_STREAM (or trailers) submitted.
        case ended
        /// RST_STREAM submitted or received.
        case reset
        /// HEADERS and part of a body are queued; RST_STREAM with this code follows once they
        /// have been framed (a reset submitted now would drop them).
        case cutting(HTTP2ErrorCode)
    }

    let id: Int32
    /// Strong: an upstream may still deliver to a finished stream after its connection closed
    /// (the cycle breaks when the connection drops the stream from `streams`).
    let connection: HTTP2Connection
    var phase: Phase
    var response = ResponseProgress.notStarted
    /// The record of this stream's exchange.
    var trace: ExchangeTrace?
    /// The stream's one deadline (request body, upstream connect and response).
    var deadline = ConnectionDeadline()
    /// Whether the stream's window reopens as request bytes arrive (`setClientReading`).
    var reading = true
    /// Request bytes received and not yet given back to the window.
    var unconsumed = 0
    /// An upload throttle holds the window closed until this time (monotonic ns).
    var uploadPausedUntil: UInt64 = 0
    /// The upstream whose writes are held until the current event is handled.
    var corkedUpstream: StreamSocket?
    /// Whether this stream paused its upstream because its outbound queue is long.
    var upstreamPaused = false

    /// Above this many queued response bytes the upstream socket pauses.
    static let outboundHighWater = 256 * 1024
    /// From this many queued response bytes (one default-sized DATA frame) an upstream delivery
    /// is framed at once instead of at the end of the loop's turn.
    static let immediateFlushBytes = 16 * 1024

    init(id: Int32, connection: HTTP2Connection) {
        self.id = id
        self.connection = connection
        phase = .finished
    }

    var context: LoopContext { connection.context }
    var session: HTTP2Session { connection.session }

    var exchange: Exchange? {
        if case .exchange(let exchange) = phase { return exchange }
        return nil
    }

    @inline(__always)
    func isCurrent(_ exchange: Exchange) -> Bool {
        if case .exchange(let current) = phase { return current === exchange }
        return false
    }

    /// The request head arrived: translated to HTTP/1.1 and started like any request. A head
    /// the translation refuses is malformed (RFC 9113 §8.1.1): the stream is reset.
    func begin(_ block: HTTP2HeaderBlock) {
        let head: HTTPHead
        do {
            head = try block.requestHead()
        } catch {
            startTrace(nil)?.fail(.badRequest, "bad request: \(error.description)")
            reset(.protocolError, answersClientError: true)
            endTrace()
            return
        }
        let membership = membership(of: head)
        let trace = startTrace(head, inSession: membership.session != nil)
        let matchLimit = ExchangeStarter.matchBodyLimit(for: head, bodyFollows: !block.endsStream,
                                                        session: membership.session, snapshot: context.snapshot,
                                                        scenarios: context.state.scenarios)
        if matchLimit != nil || holds(head, endsStream: block.endsStream) {
            hold(head, membership: membership, matchLimit: matchLimit)
            return
        }
        startStreamExchange(head, trace: trace, membership: membership, startedAt: context.loop.now)
    }

    /// Starts the request's exchange as every host does; keep-alive is the connection's
    /// business on HTTP/2, so the machine may always keep it.
    func startStreamExchange(_ head: HTTPHead, trace: ExchangeTrace?, membership: SessionMembership, startedAt: UInt64,
                             body: MatchBody? = nil) {
        startExchange(head, trace: trace, membership: membership, mayKeepAlive: true, startedAt: startedAt, body: body)
        releaseUpstreamCork()
        connection.scheduleFlush()
    }

    var clientIP: String { connection.clientIP }
    var scheme: StaticString { connection.scheme }

    func adopt(_ exchange: Exchange) {
        phase = .exchange(exchange)
    }

    /// Request body bytes: reported to the exchange, then given back to the window once the
    /// upstream has them.
    func requestBodyReceived(_ bytes: [UInt8]) {
        unconsumed += bytes.count
        if case .holding(let held) = phase {
            holdBody(bytes, of: held)
            return
        }
        guard let exchange, exchange.machine.isReadingRequest else {
            // Nobody reads this body (the answer is out, or the request was refused): dropped.
            giveBackWindow()
            return
        }
        bytes.withUnsafeBytes { raw in
            run(exchange.machine.requestBodyReceived(count: raw.count), on: exchange, inHand: .body(raw))
        }
        throttleUpload(afterReading: bytes.count)
        releaseUpstreamCork()
        if reading { giveBackWindow() }
    }

    /// Request trailers: forwarded when the upstream body is chunked.
    func requestTrailersReceived(_ fields: HTTPHeaders) {
        if case .holding(let held) = phase {
            held.trailers = fields
            return
        }
        exchange?.keepRequestTrailers(fields)
    }

    /// The request's trailers exceed SETTINGS_MAX_HEADER_LIST_SIZE: the request cannot reach the
    /// upstream whole, so its exchange ends with a 431 (a reset once a response has started).
    func requestTrailersRefused(_ refusal: HTTP2Refusal) {
        trace?.fail(.badRequest, "bad request: \(refusal.description)")
        if response == .notStarted {
            exchange?.clientStatus = 431
            writeOwnResponse(.local(LocalResponse(status: 431, message: "Request Header Fields Too Large", keepAlive: true),
                                    requestID: trace?.visibleRequestID), exchange: exchange)
        } else {
            reset(.protocolError)
        }
        abortExchange()
    }

    /// END_STREAM from the client.
    func requestEnded() {
        if case .holding(let held) = phase {
            release(held)
            return
        }
        guard let exchange, exchange.machine.isReadingRequest else { return }
        run(exchange.machine.requestEnded(), on: exchange)
        releaseUpstreamCork()
        connection.scheduleFlush()
    }

    /// The client reset the stream: its exchange ends as one whose client gave up.
    func clientReset(_ code: HTTP2ErrorCode) {
        response = .reset
        context.state.http2StreamReset(sentByProxy: false)
        trace?.noteHTTP2Error(LogHTTP2Error(code: code.rawValue, frame: .rstStream, sender: .client))
        trace?.fail(.clientClosed, "client reset the stream (\(code))")
        abortExchange()
    }

    /// nghttp2 closed the stream (after both END_STREAMs, or a reset either way).
    func streamClosed(_ code: HTTP2ErrorCode) {
        guard exchange != nil || isHolding else { return }
        if response != .reset && code != .noError {
            // nghttp2 reset the stream itself: the client broke a messaging rule (a body that
            // disagrees with its content-length, RFC 9113 §8.1.1). That code is the cause; a
            // held request never reached the upstream.
            trace?.noteHTTP2Error(LogHTTP2Error(code: code.rawValue, frame: .rstStream, sender: .faultline))
            trace?.fail(.badRequest, "malformed request: the stream was reset (\(code))")
        }
        // The stream is closed: nothing more may be sent on it, not even the exchange's own reset.
        response = .reset
        abortExchange()
    }

    /// The connection closed under the stream.
    func connectionClosed() {
        if isHolding { trace?.fail(.clientClosed, "the connection closed before the request ended") }
        response = .reset
        abortExchange()
    }

    /// Ends the exchange as a client that gave up would.
    func abortExchange() {
        if let exchange { run(exchange.machine.clientClosed(), on: exchange) }
        endExchange()
    }

    /// Drops the exchange (timers, pacer, an upstream still attached) and writes its record.
    func endExchange() {
        if let exchange {
            context.exchangeEnded(exchange)
            exchange.cancel(on: context.loop)
        }
        phase = .finished
        deadline.disarm()
        endTrace()
    }

    /// Every queued response byte has been framed: an upstream paused for this stream resumes.
    func outboundDrained() {
        if case .cutting(let code) = response {
            response = .streaming
            reset(code)
        }
        guard upstreamPaused else { return }
        upstreamPaused = false
        exchange?.upstream?.setResponseReading(true)
    }

    /// Enforces the stream's deadline.
    func checkDeadline(now: UInt64) {
        guard let expired = deadline.expired(now: now) else { return }
        deadline.disarm()
        if let exchange {
            run(exchange.machine.deadlineExpired(expired), on: exchange)
            connection.scheduleFlush()
        } else if isHolding {
            heldRequestStalled()
        }
    }

    /// Resets the stream (once) with `code`; `answersClientError` when it refuses a malformed
    /// request (it then counts against the stream-reset limit, `HTTP2Session.resetStream`).
    func reset(_ code: HTTP2ErrorCode, answersClientError: Bool = false) {
        guard response != .reset else { return }
        response = .reset
        session.resetStream(streamID: id, errorCode: code, answersPeerError: answersClientError)
        trace?.noteHTTP2Error(LogHTTP2Error(code: code.rawValue, frame: .rstStream, sender: .faultline))
        connection.scheduleFlush()
    }

    /// Gives the bytes received so far back to the stream's window.
    func giveBackWindow() {
        guard unconsumed > 0 else { return }
        session.consume(streamID: id, count: unconsumed)
        unconsumed = 0
        connection.scheduleFlush()
    }
}
