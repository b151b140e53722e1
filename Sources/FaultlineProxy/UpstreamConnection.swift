import FaultlineHTTP
import FaultlineIO
import FaultlineTLS

/// One TCP connection to an upstream: it decodes responses for its current owner and, when
/// idle, waits in its loop's pool.
final class UpstreamConnection: StreamSocketDelegate {
    /// The socket.
    let socket: StreamSocket
    /// The address it connects to (its pool key).
    let address: SocketAddress
    /// Whether it served an earlier exchange (a failure before any response byte may be retried).
    private(set) var isReused = false
    /// Whether any byte of the current response arrived.
    private(set) var sawResponseBytes = false
    /// Whether the last response allows reuse.
    private(set) var reusable = false
    /// When it became idle in the pool (monotonic ns).
    /// When it must leave the pool if nobody took it (monotonic ns).
    var idleDeadline: UInt64 = 0
    /// The pool that holds it while idle.
    var pool: UpstreamPool?

    /// Held strongly and cleared whenever the exchange ends, so no weak reference (and its
    /// slow reference counting) sits on the hot path.
    private var owner: UpstreamConnectionOwner?
    private let decoder = HTTP1Decoder(kind: .response)
    private var lastHeadWasInterim = false
    private var tunneling = false

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
        sawResponseBytes = false
        reusable = false
        socket.setReading(true)
    }

    /// Detaches from the exchange so the connection can wait in the pool.
    func detachForReuse() {
        owner = nil
        isReused = true
        decoder.resume()
    }

    /// Closes without reuse (cancelled or failed exchange).
    func close() {
        owner = nil
        pool?.remove(self)
        socket.close()
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
        if tunneling {
            owner.upstream(self, didReceiveTunnelBytes: bytes)
            return
        }
        sawResponseBytes = true
        owner.upstreamWillDeliver(self)
        decode(bytes, owner: owner)
        owner.upstreamDidDeliver(self)
    }

    func socketDidReadEOF(_ socket: StreamSocket) {
        guard let owner else {
            close()
            return
        }
        if tunneling {
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
                // Bytes after a complete response mean the connection cannot be trusted again.
                reusable = reusable && consumed == input.count
                if finished { completeResponse() }
                return
            case .upgraded(let consumed):
                tunneling = true
                reusable = false
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
                if !head.isInterim {
                    reusable = head.keepAlive
                }
                if head.status == 101 {
                    tunneling = true
                }
                owner.upstream(self, didReceiveHead: head)
            case .body(let range):
                owner.upstream(self, didReceiveBody: UnsafeRawBufferPointer(rebasing: input[range]))
            case .trailers(let trailers):
                owner.upstream(self, didReceiveTrailers: trailers)
            case .end:
                if !lastHeadWasInterim && !tunneling { finished = true }
            }
        }
        if finished && input.baseAddress == nil {
            // End of a close-delimited response, reported from `finish()`.
            reusable = false
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
