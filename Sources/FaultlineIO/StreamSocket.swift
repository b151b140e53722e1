#if canImport(Glibc)
import Glibc
#endif

/// A non-blocking TCP connection on one event loop: reads go to the delegate, writes are
/// queued when the kernel is full, and reading can be paused for backpressure.
///
/// With a `ByteTransformer` (TLS) the socket carries ciphertext and its delegate sees only
/// plaintext; "connected" then means the handshake completed, and application bytes written
/// before that wait unencrypted until the delegate has seen `socketDidConnect`.
public final class StreamSocket: EventHandler {
    /// The descriptor (valid until closed).
    public let fd: Int32
    /// The loop this socket lives on. A loop outlives every socket registered with it, so the
    /// reference skips reference counting (this is read several times per request).
    public unowned(unsafe) let loop: EventLoop
    /// Receives reads and state changes. Held strongly (a weak reference would put both
    /// objects on Swift's slow reference-counting path) and released when the socket closes.
    public var delegate: StreamSocketDelegate?
    /// The peer's address, when known.
    public let peer: SocketAddress?
    /// The secure channel, if any, between this socket and its delegate.
    public let transformer: ByteTransformer?

    /// Whether the socket has been closed.
    public internal(set) var isClosed = false
    /// Whether reads are wanted (false while the other side of a relay is full).
    public internal(set) var isReading = true
    /// Bytes the kernel has accepted for sending so far (ciphertext with a transformer): a
    /// caller that notes it before writing a message can tell later whether any of that
    /// message could have reached the peer.
    public internal(set) var bytesSent: UInt64 = 0

    /// Whether this side connected (rather than accepted): the TLS client.
    let isClient: Bool
    var tcpConnecting: Bool
    /// When the TCP connection of a connecting socket was established (loop time, ns); with
    /// TLS, the handshake starts then. 0 until it happens.
    public private(set) var tcpConnectedAt: UInt64 = 0
    var awaitingHandshake: Bool
    var outbound = OutboundBuffer()
    /// Plaintext written before the secure channel was ready.
    var pendingPlaintext: [UInt8] = []
    /// Plaintext written while corked, encrypted as one TLS record at `uncork()`.
    var corkedPlaintext: [UInt8] = []
    var corked = false
    var sawEndOfFile = false
    var watched: UInt32 = 0
    var lingering = false
    var lingerTimer: TimerID?

    /// Wraps an accepted or connecting descriptor and registers it with `loop`. If registration
    /// fails the descriptor stays open: the caller closes it.
    public init(fd: Int32, loop: EventLoop, peer: SocketAddress?, connecting: Bool = false,
                transformer: ByteTransformer? = nil) throws(IOError) {
        self.fd = fd
        self.loop = loop
        self.peer = peer
        self.transformer = transformer
        tcpConnecting = connecting
        isClient = connecting
        awaitingHandshake = transformer != nil
        watched = interest()
        try loop.register(fd, handler: self, events: watched)
        if let transformer, !connecting {
            // The server side of a handshake just waits for the ClientHello.
            _ = transformer.start()
        }
    }

    /// Starts connecting to `address` on `loop`; the delegate hears `socketDidConnect` (after
    /// the handshake, with a transformer) or `didFail`.
    public static func connect(to address: SocketAddress, on loop: EventLoop,
                               transformer: ByteTransformer? = nil) throws(IOError) -> StreamSocket {
        let fd = try Sockets.connect(to: address)
        do {
            return try StreamSocket(fd: fd, loop: loop, peer: address, connecting: true, transformer: transformer)
        } catch {
            Sockets.close(fd)
            throw error
        }
    }

    /// Whether the connection (and its handshake, with a transformer) is still being set up.
    public var isConnecting: Bool { tcpConnecting || (isClient && awaitingHandshake) }

    /// Bytes queued but not yet written.
    public var pendingWriteBytes: Int { outbound.count + pendingPlaintext.count + corkedPlaintext.count }

    // MARK: Reading

    /// Pauses or resumes reading (backpressure). Reading never resumes after end of file.
    public func setReading(_ reading: Bool) {
        guard reading != isReading, !isClosed, !(reading && sawEndOfFile) else { return }
        isReading = reading
        updateInterest()
    }

    /// Whether an idle connection is still open and silent: false when the peer has closed or
    /// reset it, or (without a transformer) has sent bytes nobody asked for. Asks the kernel
    /// directly, so a close that arrived since the last loop iteration is seen before any byte
    /// of a new request is written. A transformer may legitimately have unread records (a TLS
    /// session ticket), so for it only a close or an error counts.
    public func isOpenAndQuiet() -> Bool {
        guard !isClosed, !sawEndOfFile, !lingering else { return false }
        var byte: UInt8 = 0
        let count = Glibc.recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        if count > 0 { return transformer != nil }
        if count == 0 { return false }
        let code = errno
        return code == EAGAIN || code == EWOULDBLOCK || code == EINTR
    }

    // MARK: Closing

    /// Closes now. With `reset`, the peer sees RST instead of FIN.
    public func close(reset: Bool = false) {
        guard !isClosed else { return }
        if !reset, !lingering, let transformer, transformer.isHandshakeComplete {
            // A session freed without close_notify is not resumable (OpenSSL marks it so):
            // say goodbye properly, best effort, so the next connection can resume.
            transformer.shutdown()
            var goodbye: [UInt8] = []
            transformer.takeOutput(into: &goodbye)
            if !goodbye.isEmpty { goodbye.withUnsafeBytes { _ = Sockets.write(fd, $0) } }
        }
        isClosed = true
        delegate = nil
        if let lingerTimer { loop.cancel(lingerTimer) }
        loop.forgetClosing(fd)
        if reset { Sockets.setResetOnClose(fd) }
        Sockets.close(fd)
    }

    /// Sends what is queued, then FIN. If the peer may still be sending, reads and discards
    /// until it closes (or a short grace period ends) so that unread input does not turn our
    /// close into an RST that destroys the response in flight.
    public func closeGracefully(graceMilliseconds: Int = 2000) {
        guard !isClosed, !lingering else { return }
        corked = false
        delegate = nil
        if let transformer, transformer.isHandshakeComplete, !tcpConnecting {
            if !corkedPlaintext.isEmpty {
                // Held back by a cork: it still goes out, ahead of close_notify.
                corkedPlaintext.withUnsafeBytes { _ = transformer.send($0) }
                corkedPlaintext = []
            }
            transformer.shutdown()
            flushTransformerOutput()
            if isClosed { return }
        }
        if !tcpConnecting && !outbound.isEmpty && outbound.flush(to: fd) != nil {
            close()
            return
        }
        if outbound.isEmpty && Sockets.readableBytes(fd) == 0 {
            // Nothing unread: the kernel sends FIN after the queued bytes, no RST risk.
            close()
            return
        }
        lingering = true
        isReading = true
        lingerTimer = loop.schedule(afterMilliseconds: graceMilliseconds) { [weak self] in
            self?.close()
        }
        if outbound.isEmpty {
            Sockets.shutdownWrite(fd)
        }
        updateInterest()
    }

    // MARK: Events

    /// Handles epoll readiness.
    public func handleEvents(_ events: UInt32) {
        if tcpConnecting {
            if events & (IOEvents.writable | IOEvents.error | IOEvents.hangup) != 0 {
                finishConnect()
            }
            return
        }
        if events & IOEvents.error != 0 {
            let code = Sockets.pendingError(fd)
            fail(IOError("socket error", code: code == 0 ? 104 : code))
            return
        }
        if events & IOEvents.writable != 0 {
            flushOutbound()
            if isClosed { return }
        }
        if events & (IOEvents.readable | IOEvents.readHangup | IOEvents.hangup) != 0 {
            if isReading || lingering || (awaitingHandshake && transformer != nil) {
                readAvailable()
            } else if events & IOEvents.hangup != 0 {
                fail(IOError("connection", code: 104))
            }
        }
    }

    private func finishConnect() {
        let code = Sockets.pendingError(fd)
        guard code == 0 else {
            fail(IOError("connect to \(peer?.description ?? "upstream")", code: code))
            return
        }
        tcpConnecting = false
        tcpConnectedAt = loop.now
        updateInterest()
        if let transformer {
            // TLS client: send the first flight; the delegate hears of the connection when the
            // handshake (and certificate verification) has completed.
            if case .failed(let reason) = transformer.start() {
                fail(IOError.secureChannel(reason, peer: peer))
                return
            }
            flushTransformerOutput()
            return
        }
        delegate?.socketDidConnect(self)
        if !isClosed && !outbound.isEmpty { flushOutbound() }
    }

    private func readAvailable() {
        let buffer = loop.readBuffer
        // A few reads per wake-up keep large transfers moving without starving other sockets.
        for _ in 0..<4 {
            guard !isClosed, isReading || lingering || (awaitingHandshake && transformer != nil) else { return }
            switch Sockets.read(fd, into: buffer) {
            case .bytes(let count):
                if lingering { continue }
                let bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
                if transformer != nil {
                    receiveSecure(bytes)
                } else {
                    delegate?.socket(self, didRead: bytes)
                }
                if count < buffer.count { return }
            case .wouldBlock:
                return
            case .endOfFile:
                if lingering {
                    close()
                } else if awaitingHandshake && transformer != nil {
                    fail(IOError("TLS with \(peer?.description ?? "peer")", code: ECONNABORTED,
                                 detail: "peer closed the connection during the TLS handshake"))
                } else {
                    reportEndOfFile()
                }
                return
            case .failed(let error):
                fail(error)
                return
            }
        }
    }

    func reportEndOfFile() {
        isReading = false
        sawEndOfFile = true
        updateInterest()
        delegate?.socketDidReadEOF(self)
    }

    func flushOutbound() {
        let queued = outbound.count
        let error = outbound.flush(to: fd)
        bytesSent &+= UInt64(queued - outbound.count)
        if let error {
            fail(error)
            return
        }
        updateInterest()
        if outbound.isEmpty {
            if lingering {
                Sockets.shutdownWrite(fd)
            } else {
                delegate?.socketDidDrain(self)
            }
        }
    }

    func fail(_ error: IOError) {
        guard !isClosed else { return }
        let delegate = self.delegate
        close()
        if !lingering { delegate?.socket(self, didFail: error) }
    }

    private func interest() -> UInt32 {
        var events: UInt32 = 0
        let handshaking = awaitingHandshake && transformer != nil
        if (isReading || lingering || handshaking) && !tcpConnecting { events |= IOEvents.readable | IOEvents.readHangup }
        if tcpConnecting || !outbound.isEmpty { events |= IOEvents.writable }
        return events
    }

    func updateInterest() {
        guard !isClosed else { return }
        let wanted = interest()
        if wanted != watched {
            watched = wanted
            loop.modify(fd, events: wanted)
        }
    }
}
