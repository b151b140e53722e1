import FaultlineHTTP
import FaultlineIO
import FaultlineConfig
import FaultlineTLS

/// A client connection: decodes requests one at a time (pipelined ones wait their turn),
/// runs each exchange against an upstream and relays the answer with backpressure.
final class DownstreamConnection: StreamSocketDelegate {
    enum Phase {
        /// Between requests (keep-alive).
        case idle
        /// Part of a request head has arrived.
        case readingHead
        /// An exchange is in progress.
        case exchange
        /// Bytes are relayed both ways after a 101.
        case tunnel
        /// Closed or closing.
        case closed
    }

    let socket: StreamSocket
    /// The loop's context outlives its connections; read on every event, so not counted.
    unowned(unsafe) let context: LoopContext
    let clientIP: String
    let clientPort: Int?
    let decoder: HTTP1Decoder
    var phase = Phase.idle
    var exchange: Exchange?
    /// The log record of the request in progress (nil when logging and HAR are off).
    var trace: ExchangeTrace?
    var deadline = ConnectionDeadline()
    /// Bytes of requests that arrived behind the one in progress, decoded in order once it ends.
    var pipelined: [UInt8] = []
    /// Whether a decoding pass is running: an exchange that ends inside it (answered by the
    /// proxy itself) leaves the bytes behind it to that pass, so requests stay in order.
    var decoding = false
    /// Body bytes of the current request read from the client, whatever answers it: the
    /// body limit holds on every path.
    var requestBodyReceived: UInt64 = 0
    /// A response Faultline answers itself, sent when the request has been read.
    var pendingLocalResponse: (status: Int, message: String)?
    var draining = false
    /// An upload throttle holds client reads until this time (monotonic ns).
    var uploadPausedUntil: UInt64 = 0
    /// The upstream whose writes are held back until the current decoding pass ends.
    var corkedUpstream: UpstreamConnection?
    /// Whether the request in progress allows keep-alive, and whether it is a HEAD.
    var lastRequestKeepAlive = true
    var lastRequestWasHead = false

    static let pipelineLimit = 64 * 1024

    /// "https" on a TLS listener, for X-Forwarded-Proto.
    let scheme: StaticString

    init(fd: Int32, peer: SocketAddress?, context: LoopContext, tls: TLSServerContext?) throws(IOError) {
        self.context = context
        clientIP = peer?.ip ?? "unknown"
        clientPort = peer.map { Int($0.port) }
        scheme = tls == nil ? "http" : "https"
        let limits = context.snapshot.config.limits
        decoder = HTTP1Decoder(kind: .request, limits: HTTP1DecoderLimits(
            maxTargetBytes: limits.maxRequestLineBytes, maxHeaderBytes: limits.maxHeaderBytes,
            maxHeaderCount: limits.maxHeaderCount))
        socket = try StreamSocket(fd: fd, loop: context.loop, peer: peer, transformer: tls?.makeSession())
        socket.delegate = self
        deadline.arm(.clientHeader, now: context.loop.now, milliseconds: context.snapshot.config.clientTimeouts.headerMs)
    }

    // MARK: StreamSocketDelegate

    func socket(_ socket: StreamSocket, didRead bytes: UnsafeRawBufferPointer) {
        switch phase {
        case .tunnel:
            relayToUpstream(bytes)
        case .exchange where exchange?.requestComplete ?? true && pendingLocalResponse == nil:
            pipelined.append(contentsOf: bytes)
            if pipelined.count >= Self.pipelineLimit { socket.setReading(false) }
        case .closed:
            return
        default:
            if pipelined.isEmpty {
                decode(bytes)
            } else {
                // Earlier bytes wait to be decoded: these go behind them.
                pipelined.append(contentsOf: bytes)
                decodePipelined()
            }
            throttleUpload(afterReading: bytes.count)
        }
    }

    func socketDidReadEOF(_ socket: StreamSocket) {
        // Like nginx, a client that closes its side has given up: cancel the upstream work.
        abort()
    }

    func socketDidDrain(_ socket: StreamSocket) {
        if let upstream = exchange?.upstream, !upstream.socket.isClosed {
            upstream.socket.setReading(true)
        }
    }

    func socket(_ socket: StreamSocket, didFail error: IOError) {
        if error.isSecureChannelFailure, phase == .idle, exchange == nil {
            // A failed TLS handshake (plain HTTP on a TLS port, an untrusting client) is worth
            // telling the operator: the client only sees a closed connection.
            context.state.events(.clientTLSFailure(peer: clientIP, reason: error.description))
            logClientTLSFailure(error.description)
        }
        abort()
    }

    func socketDidConnect(_ socket: StreamSocket) {}

    // MARK: Lifecycle

    /// Stops the exchange in progress, if any, and closes both sides now.
    func abort() {
        trace?.fail("client_closed", "the connection closed before the exchange was complete")
        closeNow()
    }

    /// Closes the client connection at once (no lingering), cancelling any upstream work.
    /// With `reset` the client sees RST (a connection reset) rather than FIN.
    func closeNow(reset: Bool = false) {
        cancelExchange()
        endTrace()
        guard phase != .closed else { return }
        phase = .closed
        socket.close(reset: reset)
        context.connectionClosed(self)
    }

    /// Flushes what is queued, then closes.
    func closeAfterFlush() {
        cancelExchange()
        endTrace()
        guard phase != .closed else { return }
        phase = .closed
        socket.closeGracefully()
        context.connectionClosed(self)
    }

    /// Closes the upstream side of an unfinished exchange (it cannot be reused mid-message).
    func cancelExchange() {
        exchange?.upstream?.close()
        exchange?.cancelFaults(on: context.loop)
        exchange = nil
    }

    /// Process shutdown: idle connections close now, busy ones after their exchange.
    func drain() {
        draining = true
        if phase == .idle { closeNow() }
    }

    /// Enforces the current deadline; called by the loop's sweep.
    func checkDeadline(now: UInt64) {
        guard let expired = deadline.expired(now: now) else { return }
        deadline.disarm()
        switch expired {
        case .clientIdle:
            closeNow()
        case .clientHeader:
            if phase == .readingHead {
                writeLocalAndClose(status: 408, message: "request head not received within \(context.snapshot.config.clientTimeouts.headerMs) ms")
            } else {
                closeNow()
            }
        case .clientBody:
            if exchange?.responseHeadSent == true {
                abort()
            } else {
                cancelExchange()
                writeLocalAndClose(status: 408, message: "request body stalled for \(context.snapshot.config.clientTimeouts.idleMs) ms")
            }
        case .upstreamConnect, .upstreamResponse:
            upstreamTimedOut(expired)
        case .tunnelIdle:
            trace?.fail("tunnel_idle", "no byte crossed the tunnel for \(exchange?.route.upstream.timeouts.tunnelIdleMs ?? 0) ms")
            closeNow()
        }
    }

    /// Writes a complete local response and closes after it is sent.
    func writeLocalAndClose(status: Int, message: String) {
        respondLocally(status: status, message: message, requestFullyRead: false)
    }

    /// Answers from Faultline itself (errors). The connection stays open only if the request
    /// was read to its end and the client and the process allow keep-alive.
    func respondLocally(status: Int, message: String, requestFullyRead: Bool,
                        contentType: String = "text/plain; charset=utf-8") {
        guard phase != .closed else { return }
        let keepAlive = requestFullyRead && lastRequestKeepAlive && !draining && !context.draining
        let includeBody = !(lastRequestWasHead && phase == .exchange)
        let body = Array((message + "\n").utf8)
        traceLocalResponse(status: status, contentType: contentType, body: includeBody ? body : [])
        if status >= 400 { trace?.fail(Self.errorType(forLocalStatus: status), message) }
        // The id lets a client (or a bug report) point at this exchange's log record.
        let idHeader = trace.map { [("X-Request-ID", $0.requestID)] } ?? []
        socket.write(ResponseHeadWriter.localResponse(status: status, body: message + "\n", keepAlive: keepAlive,
                                                      includeBody: includeBody, contentType: contentType,
                                                      extraHeaders: idHeader))
        if keepAlive {
            finishExchange(keepAlive: true)
        } else {
            closeAfterFlush()
        }
    }

    /// The `error.type` of a response Faultline answers itself when no more specific cause was noted.
    static func errorType(forLocalStatus status: Int) -> String {
        switch status {
        case 400, 414, 431: "bad_request"
        case 404: "no_route"
        case 405: "method_not_allowed"
        case 408: "client_timeout"
        case 413: "body_too_large"
        case 504: "upstream_timeout"
        default: "upstream_error"
        }
    }
}
