import FaultlineHTTP
import FaultlineIO
import FaultlineTLS
import FaultlineConfig

/// A client connection speaking HTTP/1: decodes requests one at a time (pipelined ones wait
/// their turn), reports each one to its `Exchange`'s machine and carries out what the
/// machine decides. It makes no routing, fault or framing decision itself.
final class DownstreamConnection: StreamSocketDelegate {
    /// Where the connection stands between and during exchanges.
    enum Phase {
        /// Between requests (keep-alive).
        case idle
        /// Part of a request head has arrived.
        case readingHead
        /// A request's body is read before routing it (a rule's `json` conditions).
        case holding(HTTP1HeldRequest)
        /// An exchange is in progress.
        case exchange(Exchange)
        /// Bytes are relayed both ways after a 101 (the exchange that upgraded keeps its record).
        case tunnel(Exchange)
        /// Closed or closing.
        case closed

        /// Whether the connection has closed.
        var isClosed: Bool {
            if case .closed = self { return true }
            return false
        }

        /// Whether the connection waits for its next request.
        var isIdle: Bool {
            if case .idle = self { return true }
            return false
        }
    }

    let socket: StreamSocket
    /// The loop's context outlives its connections; read on every event, so not counted.
    unowned(unsafe) let context: LoopContext
    let clientIP: String
    let clientPort: Int?
    /// The connection's per-process number (the journal's `connection`).
    let number: Int
    /// Requests begun on the connection: the journal's `attempt` of the next one is one more.
    var requestsBegun = 0
    private(set) var decoder: HTTP1Decoder
    /// Where the decoder goes back when the connection is gone (the loop's pool, held here
    /// because the context may be torn down first at exit).
    private let decoderPool: RequestDecoderPool
    var phase = Phase.idle
    /// Whether `exchange` is the one in progress (checked before every action).
    @inline(__always)
    func isCurrent(_ exchange: Exchange) -> Bool {
        switch phase {
        case .exchange(let current), .tunnel(let current): current === exchange
        case .idle, .readingHead, .holding, .closed: false
        }
    }

    /// The exchange in progress (also the one a tunnel came from).
    var exchange: Exchange? {
        switch phase {
        case .exchange(let exchange), .tunnel(let exchange): exchange
        case .idle, .readingHead, .holding, .closed: nil
        }
    }
    /// The log record of the request in progress (nil when logging and HAR are off).
    var trace: ExchangeTrace?
    var deadline = ConnectionDeadline()
    /// Bytes of requests that arrived behind the one in progress, decoded in order once it ends.
    var pipelined: [UInt8] = []
    /// Where response heads are written before they go to the socket, reused from one
    /// response to the next (`writeResponseHead`).
    var headBuffer: [UInt8] = []
    /// The largest head buffer kept between responses.
    static let keptHeadBufferBytes = 4096
    /// Whether a decoding pass is running: an exchange that ends inside it (answered by the
    /// proxy itself) leaves the bytes behind it to that pass, so requests stay in order.
    /// Not a `Phase` case: one pass spans phases (it starts idle, begins an exchange and may
    /// see it end), so it guards re-entrancy beside the lifecycle rather than being a step of
    /// it; as a case it would have to carry, and restore, whichever phase it interrupted.
    var decoding = false
    /// An upload throttle holds client reads until this time (monotonic ns).
    var uploadPausedUntil: UInt64 = 0
    /// The upstream whose writes are held back until the current decoding pass ends.
    var corkedUpstream: StreamSocket?

    static let pipelineLimit = 64 * 1024

    /// "https" on a TLS listener, for X-Forwarded-Proto.
    let scheme: StaticString
    /// Whether the first bytes may still be an HTTP/2 preface (an h2c listener, nothing read yet).
    var awaitsH2CPreface: Bool
    /// The forward-proxy settings of the listener, if it is one.
    let forward: ForwardProxyConfig?
    /// Whether `forward` is set: what the request path tests. Testing the optional itself
    /// (`forward != nil`) copies the whole configuration through its generic value witness,
    /// some ninety instructions a test, nil or not.
    let isForwardListener: Bool
    /// A CONNECT head whose tunnel starts once the decoding pass ends (the bytes behind it
    /// are the tunnel's).
    var pendingConnect: HTTPHead?
    /// On a connection intercepted after CONNECT: where every request goes, and the place it
    /// holds among the open tunnels (released when the last holder goes).
    let interception: ForwardInterception?
    /// Where the request in progress goes when its route names no upstream: the intercepted
    /// CONNECT's host, or an absolute-form request's.
    var currentDestination: ForwardDestination?

    /// Takes an accepted descriptor (with TLS when `tls` is given, or an intercepted CONNECT's
    /// session in `interception`); if registering it fails the descriptor stays open for the
    /// caller to close.
    convenience init(fd: Int32, peer: SocketAddress?, context: LoopContext, tls: TLSServerContext?, h2c: Bool = false,
                     forward: ForwardProxyConfig? = nil, interception: ForwardInterception? = nil) throws(IOError) {
        let socket = try StreamSocket(fd: fd, loop: context.loop, peer: peer,
                                      transformer: interception?.session ?? tls?.makeSession())
        self.init(socket: socket, context: context, secure: tls != nil || interception != nil, h2c: h2c,
                  forward: forward, interception: interception)
    }

    /// Takes a socket already on the context's loop: an accepted descriptor's, or one on an
    /// in-memory transport (the unit tests' harness). `secure` when it carries TLS.
    init(socket: StreamSocket, context: LoopContext, secure: Bool, h2c: Bool,
         forward: ForwardProxyConfig? = nil, interception: ForwardInterception? = nil) {
        self.context = context
        self.forward = forward
        isForwardListener = forward != nil
        self.interception = interception
        awaitsH2CPreface = h2c && !secure
        clientIP = socket.peer?.ip ?? "unknown"
        clientPort = socket.peer.map { Int($0.port) }
        number = context.connections.nextNumber()
        scheme = secure ? "https" : "http"
        let limits = context.snapshot.config.limits
        decoderPool = context.requestDecoders
        decoder = decoderPool.take(limits: HTTP1DecoderLimits(
            maxTargetBytes: limits.maxRequestLineBytes, maxHeaderBytes: limits.maxHeaderBytes,
            maxHeaderCount: limits.maxHeaderCount))
        self.socket = socket
        socket.delegate = self
        deadline.arm(.clientHeader, now: context.loop.now, milliseconds: context.snapshot.config.clientTimeouts.headerMs)
    }

    deinit {
        decoderPool.recycle(&decoder)
    }

    // MARK: StreamSocketDelegate

    func socket(_ socket: StreamSocket, didRead bytes: UnsafeRawBufferPointer) {
        if awaitsH2CPreface {
            awaitsH2CPreface = false
            if phase.isIdle && opensAsHTTP2(bytes) {
                handOverToHTTP2(initial: bytes)
                return
            }
        }
        switch phase {
        case .tunnel(let exchange):
            relayToUpstream(bytes, exchange: exchange)
        case .exchange(let exchange) where !exchange.machine.isReadingRequest:
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
        if interception != nil, phase.isIdle, socket.transformer?.isHandshakeComplete == false, socket.bytesSent > 0 {
            // Our certificate went out and the client hung up without a word.
            noteInterceptRefusal("the client closed the connection right after the server's certificate")
        }
        // Like nginx, a client that closes its side has given up: cancel the upstream work.
        abort()
    }

    func socketDidDrain(_ socket: StreamSocket) {
        exchange?.upstream?.setResponseReading(true)
    }

    func socket(_ socket: StreamSocket, didFail error: IOError) {
        if error.isSecureChannelFailure, phase.isIdle, interception != nil, Self.isCertificateRefusal(error.description) {
            noteInterceptRefusal(error.description)
        } else if !error.isSecureChannelFailure, interception != nil, phase.isIdle,
                  socket.transformer?.isHandshakeComplete == false, socket.bytesSent > 0 {
            // A reset right after our certificate: the alert, if one was sent, died with it.
            noteInterceptRefusal("the client reset the connection right after the server's certificate (\(error))")
        } else if error.isSecureChannelFailure, phase.isIdle {
            // A failed TLS handshake (plain HTTP on a TLS port, an untrusting client) is worth
            // telling the operator: the client only sees a closed connection.
            context.state.events(.clientTLSFailure(peer: clientIP, reason: error.description))
            logClientTLSFailure(error.description)
        }
        abort()
    }

    func socketDidConnect(_ socket: StreamSocket) {
        // A TLS client that chose h2 by ALPN speaks HTTP/2 from its first byte.
        if negotiatedHTTP2 && phase.isIdle { handOverToHTTP2(initial: nil) }
    }

    // MARK: Lifecycle

    /// The client is gone: the exchange in progress, if any, ends, and both sides close now.
    func abort() {
        if let exchange { run(exchange.machine.clientClosed(), on: exchange) }
        closeNow()
    }

    /// Closes the client connection at once (no lingering), cancelling any upstream work.
    /// With `reset` the client sees RST (a connection reset) rather than FIN.
    func closeNow(reset: Bool = false) {
        cancelExchange()
        endTrace()
        guard !phase.isClosed else { return }
        phase = .closed
        socket.close(reset: reset)
        context.connectionClosed(self)
    }

    /// Flushes what is queued, then closes.
    func closeAfterFlush() {
        cancelExchange()
        endTrace()
        guard !phase.isClosed else { return }
        phase = .closed
        socket.closeGracefully()
        context.connectionClosed(self)
    }

    /// Drops the exchange, closing its upstream side if still attached (it cannot be reused
    /// mid-message) and stopping its timers.
    func cancelExchange() {
        guard let exchange else { return }
        context.exchangeEnded(exchange)
        exchange.cancel(on: context.loop)
        phase = .idle
    }

    /// Process shutdown (`context.draining` is set first): idle connections close now, busy
    /// ones after their exchange. The connection keeps no flag of its own: the loop's drain
    /// is the one condition, and the machine already answers with `Connection: close`.
    func drain() {
        exchange?.machine.drain()
        if phase.isIdle { closeNow() }
    }

    /// Enforces the current deadline; called by the loop's sweep.
    func checkDeadline(now: UInt64) {
        guard let expired = deadline.expired(now: now) else { return }
        deadline.disarm()
        if let exchange {
            run(exchange.machine.deadlineExpired(expired), on: exchange)
            return
        }
        if case .holding(let held) = phase {
            heldRequestStalled(held)
        } else if expired == .clientHeader, case .readingHead = phase {
            writeLocalAndClose(LocalResponse(
                status: 408, message: "request head not received within \(context.snapshot.config.clientTimeouts.headerMs) ms",
                keepAlive: false))
        } else {
            closeNow()
        }
    }

    /// Ends the exchange: the next pipelined request, keep-alive idling, or close.
    func finishExchange(keepAlive: Bool) {
        cancelExchange()
        endTrace()
        guard !phase.isClosed else { return }
        // The machine's keep-alive was decided when the response ended; a drain may have
        // begun since (a pacer still held bytes).
        guard keepAlive && !context.draining else {
            closeAfterFlush()
            return
        }
        phase = .idle
        deadline.arm(.clientIdle, now: context.loop.now, milliseconds: context.snapshot.config.clientTimeouts.idleMs)
        socket.setReading(true)
        // Inside a decoding pass that pass goes on with the bytes behind this request.
        decodePipelined()
    }
}
