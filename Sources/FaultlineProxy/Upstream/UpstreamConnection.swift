import FaultlineHTTP
import FaultlineIO
import FaultlineLog
import FaultlineTLS

/// One TCP connection to an upstream: it decodes responses for its current owner and, when
/// idle, waits in its loop's pool. Where it stands is its `lifecycle`; it may go back to the
/// pool only after a clean exchange (`isReusable`), every other ending closes it, so no byte
/// of one exchange can reach another.
final class UpstreamConnection: StreamSocketDelegate {
    /// The socket.
    let socket: StreamSocket
    /// The address it connects to (its pool key).
    let address: SocketAddress
    /// TLS settings and pins for https upstreams.
    let security: UpstreamSecurity?
    /// Where pin outcomes are counted and reported.
    let state: ProxyServerState
    /// Its stage; changed only through the transitions of `UpstreamConnectionLifecycle`, by
    /// this type and its extensions (decoding, pins).
    var lifecycle: UpstreamConnectionLifecycle
    let decoder = HTTP1Decoder(kind: .response)

    /// Starts a connection to `address` on `loop` for `owner`'s exchange, with TLS when
    /// `security` is given; `headRequest` tells the decoder there is no body.
    init(address: SocketAddress, loop: EventLoop, security: UpstreamSecurity?, state: ProxyServerState,
         owner: UpstreamLegOwner, headRequest: Bool) throws(IOError) {
        self.address = address
        self.security = security
        self.state = state
        socket = try StreamSocket.connect(to: address, on: loop, transformer: security?.makeSession())
        lifecycle = UpstreamConnectionLifecycle(connectingFor: owner, bytesSent: socket.bytesSent)
        decoder.responseHasNoBody = headRequest
        socket.delegate = self
        socket.setReading(true)
    }

    /// Attaches an idle connection, just taken from the pool, to an exchange; `headRequest`
    /// tells the decoder there is no body.
    func begin(owner: UpstreamLegOwner, headRequest: Bool) {
        guard lifecycle.attach(owner: owner, bytesSent: socket.bytesSent) else { return }
        decoder.responseHasNoBody = headRequest
        socket.setReading(true)
    }

    /// The owner has written the whole request (its last byte may still sit in the socket's queue).
    func requestWritten() {
        lifecycle.requestWritten()
    }

    /// Whether the connection may carry another exchange: the one request it carried was
    /// written out completely, its complete response was read, the upstream keeps the
    /// connection open, and nothing is left to send or to read.
    var isReusable: Bool {
        lifecycle.isReusable && !socket.isClosed && socket.pendingWriteBytes == 0
    }

    /// Whether it served an earlier exchange (a failure before any response byte may be retried).
    var isReused: Bool {
        if case .pooled? = lifecycle.exchange?.lease { return true }
        return false
    }

    /// Whether any byte of a final response arrived for the current exchange.
    var sawResponseBytes: Bool {
        lifecycle.exchange?.sawResponseBytes ?? true
    }

    /// Whether no byte of the current request can have reached the upstream: the kernel took
    /// nothing since the exchange began.
    var sentNothing: Bool {
        guard let exchange = lifecycle.exchange else { return false }
        return socket.bytesSent == exchange.bytesSentBefore
    }

    /// Whether the connect, handshake or pin check is still running.
    var isConnecting: Bool { lifecycle.isConnecting }

    /// The pin verdict of this connection's handshake; nil without pins or before it.
    var pinResult: PinResult? { lifecycle.pinResult }

    /// When it last went into the pool (monotonic ns; 0 before that): the pool asks the
    /// kernel whether a connection idle for long is still open before handing it out.
    private(set) var parkedAt: UInt64 = 0

    /// When it must leave the pool if nobody took it (monotonic ns); never unless idle.
    var idleDeadline: UInt64 { lifecycle.idleDeadline ?? .max }

    /// Moves into `pool` at `now` until `deadline`; only the pool calls this, after `isReusable`.
    /// False (nothing changed) if the exchange did not end cleanly.
    func park(in pool: UpstreamPool, at now: UInt64, until deadline: UInt64) -> Bool {
        guard lifecycle.park(in: pool, until: deadline) else { return false }
        parkedAt = now
        decoder.resume()
        return true
    }

    /// Closes without reuse (cancelled exchange, or dropped by the pool); the owner asked
    /// for it or there is none, so nobody is told.
    func close() {
        if case .leavePool(let pool) = lifecycle.close(.byProxy) { pool.remove(self) }
        socket.close()
    }

    /// Closes after a failure and tells the owner, if it had one.
    func fail(_ failure: UpstreamFailure) {
        let after = lifecycle.close(.failed(failure))
        socket.close()
        switch after {
        case .tellOwner(let owner): owner.upstream(.http1(self), reported: .failed(failure))
        case .leavePool(let pool): pool.remove(self)
        case .ignored: break
        }
    }

    /// The upstream closed after a complete response: nothing to reuse.
    func closeByUpstream() {
        if case .leavePool(let pool) = lifecycle.close(.byUpstream) { pool.remove(self) }
        socket.close()
    }

    // MARK: StreamSocketDelegate

    func socketDidConnect(_ socket: StreamSocket) {
        switch checkPins() {
        case .passed(let pin):
            let owner = lifecycle.connected(pin: pin)
            owner?.upstream(.http1(self), reported: .connected)
        case .refused(let refusal):
            fail(.pinMismatch(refusal))
        }
    }

    func socket(_ socket: StreamSocket, didRead bytes: UnsafeRawBufferPointer) {
        switch lifecycle {
        case .serving(let owner, _, _):
            owner.upstream(.http1(self), reported: .willDeliver)
            decode(bytes, for: owner)
            owner.upstream(.http1(self), reported: .didDeliver)
        case .tunnel(let owner):
            owner.upstream(.http1(self), reported: .tunnelBytes(bytes))
        case .connecting:
            // The socket reports the connection before any byte; a byte before the request
            // could not be an answer to it.
            fail(.malformed("bytes before the connection was ready"))
        case .idle, .closed:
            // An idle connection must stay silent; anything it says makes it unusable.
            close()
        }
    }

    func socketDidReadEOF(_ socket: StreamSocket) {
        switch lifecycle {
        case .serving:
            finishAtEndOfInput()
        case .tunnel, .connecting:
            fail(.closedEarly)
        case .idle, .closed:
            close()
        }
    }

    func socketDidDrain(_ socket: StreamSocket) {
        lifecycle.owner?.upstream(.http1(self), reported: .drained)
    }

    func socket(_ socket: StreamSocket, didFail error: IOError) {
        fail(lifecycle.failure(for: error))
    }
}
