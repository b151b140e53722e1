import FaultlineHTTP
import FaultlineIO
import FaultlineTLS

/// One TCP connection to an upstream: it decodes responses for its current owner and, when
/// idle, waits in its loop's pool.
final class UpstreamConnection: StreamSocketDelegate {
    /// Where the connection stands. It may go back to the pool only from `.serving` with the
    /// request fully written and the response fully read on a connection that stays open
    /// (`isReusable`); every other ending closes it, so no byte of one exchange can reach
    /// another.
    enum Lifecycle {
        /// New (connecting) or idle in the pool: attached to no exchange.
        case unattached
        /// Carrying one request and its response.
        case serving(Service)
        /// After a 101, a byte relay: never reusable.
        case tunnel
    }

    /// The progress of the exchange a connection serves.
    struct Service {
        /// `socket.bytesSent` when the exchange began: equal afterwards means the upstream
        /// cannot have received any byte of this request.
        let bytesSentBefore: UInt64
        var request = RequestProgress.sending
        var response = ResponseProgress.awaitingHead
    }

    /// How far the request has been written.
    enum RequestProgress {
        /// Bytes of the request are still to come from the client.
        case sending
        /// The client's request ended and all of it was handed to the socket.
        case sent
    }

    /// How far the response has been read.
    enum ResponseProgress {
        /// No byte of a final response yet (interim responses may have come).
        case awaitingHead
        /// The final head arrived (`keepAlive`: it allows another request); the message is
        /// not complete.
        case receiving(keepAlive: Bool)
        /// The response is complete; `keepAlive` when the upstream allows another request
        /// and nothing followed it.
        case complete(keepAlive: Bool)
    }

    /// The socket.
    let socket: StreamSocket
    /// The address it connects to (its pool key).
    let address: SocketAddress
    /// Whether it served an earlier exchange (a failure before any response byte may be retried).
    private(set) var isReused = false
    private(set) var lifecycle = Lifecycle.unattached
    /// When it must leave the pool if nobody took it (monotonic ns).
    var idleDeadline: UInt64 = 0
    /// The pool that holds it while idle.
    var pool: UpstreamPool?

    /// Held strongly and cleared whenever the exchange ends, so no weak reference (and its
    /// slow reference counting) sits on the hot path.
    private var owner: UpstreamConnectionOwner?
    private let decoder = HTTP1Decoder(kind: .response)
    private var lastHeadWasInterim = false

    /// The pin verdict of this connection's handshake (`match`, `mismatch`, `report`, `off`);
    /// nil without pins. Pooled reuses carry it, since the chain was checked once.
    private(set) var pinResult: String?

    /// TLS settings and pins for https upstreams.
    let security: UpstreamSecurity?
    /// Where pin outcomes are counted and reported.
    private let state: ProxyServerState

    /// Starts a connection to `address` on `loop`, with TLS when `security` is given.
    init(address: SocketAddress, loop: EventLoop, security: UpstreamSecurity?, state: ProxyServerState) throws(IOError) {
        self.address = address
        self.security = security
        self.state = state
        socket = try StreamSocket.connect(to: address, on: loop, transformer: security?.makeSession())
        socket.delegate = self
    }

    /// Attaches the connection to an exchange; `headRequest` tells the decoder there is no body.
    func begin(owner: UpstreamConnectionOwner, headRequest: Bool) {
        self.owner = owner
        decoder.responseHasNoBody = headRequest
        lifecycle = .serving(Service(bytesSentBefore: socket.bytesSent))
        socket.setReading(true)
    }

    /// The owner has written the whole request (its last byte may still sit in the socket's queue).
    func requestWritten() {
        guard case .serving(var service) = lifecycle else { return }
        service.request = .sent
        lifecycle = .serving(service)
    }

    /// Whether the connection may carry another exchange: the one request it carried was
    /// written out completely, its complete response was read, the upstream keeps the
    /// connection open, and nothing is left to send or to read.
    var isReusable: Bool {
        guard case .serving(let service) = lifecycle, case .sent = service.request,
              case .complete(keepAlive: true) = service.response else { return false }
        return !socket.isClosed && socket.pendingWriteBytes == 0
    }

    /// Whether any byte of a final response arrived for the current exchange.
    var sawResponseBytes: Bool {
        guard case .serving(let service) = lifecycle, case .awaitingHead = service.response else { return true }
        return false
    }

    /// Whether no byte of the current request can have reached the upstream: the kernel took
    /// nothing since the exchange began.
    var sentNothing: Bool {
        guard case .serving(let service) = lifecycle else { return false }
        return socket.bytesSent == service.bytesSentBefore
    }

    /// Detaches from its exchange to wait in the pool; only the pool calls this, after `isReusable`.
    func detachForReuse() {
        owner = nil
        isReused = true
        lifecycle = .unattached
        decoder.resume()
    }

    /// Closes without reuse (cancelled or failed exchange).
    func close() {
        owner = nil
        pool?.remove(self)
        socket.close()
    }

    private func setResponse(_ progress: ResponseProgress) {
        guard case .serving(var service) = lifecycle else { return }
        service.response = progress
        lifecycle = .serving(service)
    }

    private var isTunnel: Bool {
        if case .tunnel = lifecycle { return true }
        return false
    }

    // MARK: StreamSocketDelegate

    func socketDidConnect(_ socket: StreamSocket) {
        if let security, let pins = security.pins, let session = socket.transformer as? TLSSession {
            // The chain is verified by now; pins narrow it before a byte of the request leaves.
            let check = PinEnforcement.evaluate(pins, security: security, session: session, address: address)
            state.pinStatus.record(check.observation)
            for event in check.events { state.events(event) }
            pinResult = check.result
            let log = state.snapshot.log
            if log.pinEvents {
                for record in check.records(address: address, policy: log.policy) { log.write(event: record) }
            }
            if let refusal = check.refusal {
                fail(.pinMismatch(refusal))
                return
            }
        }
        owner?.upstreamDidConnect(self)
    }

    func socket(_ socket: StreamSocket, didRead bytes: UnsafeRawBufferPointer) {
        guard let owner else {
            // An idle connection must stay silent; anything it says makes it unusable.
            close()
            return
        }
        if isTunnel {
            owner.upstream(self, didReceiveTunnelBytes: bytes)
            return
        }
        owner.upstreamWillDeliver(self)
        decode(bytes, owner: owner)
        owner.upstreamDidDeliver(self)
    }

    func socketDidReadEOF(_ socket: StreamSocket) {
        guard let owner else {
            close()
            return
        }
        if isTunnel {
            owner.upstream(self, didFail: .closedEarly)
            return
        }
        let status = decoder.finish()
        if case .failed = status {
            fail(.closedEarly)
            return
        }
        let finished = deliver(decoder.events, from: UnsafeRawBufferPointer(start: nil, count: 0), to: owner)
        if !finished { fail(.closedEarly) } else { socket.close() }
    }

    func socketDidDrain(_ socket: StreamSocket) {
        owner?.upstreamDidDrain(self)
    }

    func socket(_ socket: StreamSocket, didFail error: IOError) {
        pool?.remove(self)
        guard let owner else { return }
        self.owner = nil
        let failure: UpstreamFailure
        if socket.isConnecting {
            failure = error.detail != nil ? .handshake(error) : .connect(error)
        } else {
            failure = .io(error)
        }
        owner.upstream(self, didFail: failure)
    }

    // MARK: Decoding

    private func decode(_ bytes: UnsafeRawBufferPointer, owner: UpstreamConnectionOwner) {
        var input = bytes
        while true {
            let status = decoder.feed(input)
            let finished = deliver(decoder.events, from: input, to: owner)
            guard self.owner != nil, !socket.isClosed else { return }
            switch status {
            case .needMore:
                return
            case .messageComplete(let consumed):
                if lastHeadWasInterim {
                    decoder.resume()
                    input = UnsafeRawBufferPointer(rebasing: input[consumed...])
                    if input.isEmpty { return }
                    continue
                }
                if finished {
                    // Bytes after a complete response mean the connection cannot be trusted again.
                    if consumed != input.count { setResponse(.complete(keepAlive: false)) }
                    completeResponse()
                }
                return
            case .upgraded(let consumed):
                lifecycle = .tunnel
                let rest = UnsafeRawBufferPointer(rebasing: input[consumed...])
                if !rest.isEmpty { owner.upstream(self, didReceiveTunnelBytes: rest) }
                return
            case .failed(let error):
                fail(.malformed(error.reason))
                return
            }
        }
    }

    /// Hands events to the owner; returns whether a final response ended among them.
    private func deliver(_ events: [HTTP1DecoderEvent], from input: UnsafeRawBufferPointer,
                         to owner: UpstreamConnectionOwner) -> Bool {
        var finished = false
        for event in events {
            guard self.owner != nil else { return false }
            switch event {
            case .head(let head):
                lastHeadWasInterim = head.isInterim
                if head.status == 101 {
                    lifecycle = .tunnel
                } else if !head.isInterim {
                    setResponse(.receiving(keepAlive: head.keepAlive))
                }
                owner.upstream(self, didReceiveHead: head)
            case .body(let range):
                owner.upstream(self, didReceiveBody: UnsafeRawBufferPointer(rebasing: input[range]))
            case .trailers(let trailers):
                owner.upstream(self, didReceiveTrailers: trailers)
            case .end:
                if !lastHeadWasInterim && !isTunnel {
                    finished = true
                    // End of a close-delimited response (reported from `finish()`) leaves nothing to reuse.
                    guard case .serving(let service) = lifecycle, case .receiving(let keepAlive) = service.response else { continue }
                    setResponse(.complete(keepAlive: keepAlive && input.baseAddress != nil))
                }
            }
        }
        if finished && input.baseAddress == nil {
            completeResponse()
        }
        return finished
    }

    private func completeResponse() {
        guard let owner else { return }
        owner.upstreamDidFinishResponse(self)
    }

    private func fail(_ failure: UpstreamFailure) {
        guard let owner else { return }
        self.owner = nil
        pool?.remove(self)
        socket.close()
        owner.upstream(self, didFail: failure)
    }
}
