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
    /// The descriptor (valid until closed); -1 for a socket on an in-memory transport.
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
    /// The in-memory connection under this socket (tests); nil on a kernel descriptor.
    let transport: (any StreamTransport)?

    /// Whether the socket has been closed.
    public var isClosed: Bool { lifecycle.isClosed }
    /// Whether reads are wanted (false while the other side of a relay is full, and after
    /// end of file).
    public var isReading: Bool { lifecycle.isReading(wanted: readingWanted) }
    /// Bytes the kernel has accepted for sending so far (ciphertext with a transformer): a
    /// caller that notes it before writing a message can tell later whether any of that
    /// message could have reached the peer.
    public internal(set) var bytesSent: UInt64 = 0

    /// Whether this side connected (rather than accepted): the TLS client.
    let isClient: Bool
    /// Connecting, handshaking, open, closing or closed; changed only through its methods.
    var lifecycle: StreamSocketLifecycle
    /// The owner's backpressure choice; whether reads happen also depends on `lifecycle`.
    var readingWanted = true
    /// When the TCP connection of a connecting socket was established (loop time, ns); with
    /// TLS, the handshake starts then. 0 until it happens.
    public private(set) var tcpConnectedAt: UInt64 = 0
    var outbound = OutboundBuffer()
    /// Plaintext written while corked, encrypted as one TLS record at `uncork()`.
    var corkedPlaintext: [UInt8] = []
    var corked = false
    var watched: UInt32 = 0

    /// Wraps an accepted or connecting descriptor and registers it with `loop`. If registration
    /// fails the descriptor stays open: the caller closes it.
    public init(fd: Int32, loop: EventLoop, peer: SocketAddress?, connecting: Bool = false,
                transformer: ByteTransformer? = nil) throws(IOError) {
        self.fd = fd
        self.loop = loop
        self.peer = peer
        self.transformer = transformer
        transport = nil
        isClient = connecting
        lifecycle = StreamSocketLifecycle(connecting: connecting, secure: transformer != nil)
        watched = interest()
        try loop.register(fd, handler: self, events: watched)
        startServerHandshake()
    }

    /// Wraps one end of an in-memory connection (tests): the same socket, its system calls
    /// answered by `transport` instead of the kernel, its events delivered by whoever drives
    /// the transport instead of epoll.
    package init(transport: any StreamTransport, loop: EventLoop, peer: SocketAddress?, connecting: Bool = false,
                 transformer: ByteTransformer? = nil) {
        fd = -1
        self.loop = loop
        self.peer = peer
        self.transformer = transformer
        self.transport = transport
        isClient = connecting
        lifecycle = StreamSocketLifecycle(connecting: connecting, secure: transformer != nil)
        watched = interest()
        transport.watch(self, events: watched)
        startServerHandshake()
    }

    private func startServerHandshake() {
        if let transformer, !isClient {
            // The server side of a handshake just waits for the ClientHello.
            _ = transformer.start()
        }
    }

    /// Starts connecting to `address` on `loop`; the delegate hears `socketDidConnect` (after
    /// the handshake, with a transformer) or `didFail`.
    public static func connect(to address: SocketAddress, on loop: EventLoop,
                               transformer: ByteTransformer? = nil) throws(IOError) -> StreamSocket {
        if let network = loop.network {
            return StreamSocket(transport: try network.connect(to: address), loop: loop, peer: address,
                                connecting: true, transformer: transformer)
        }
        let fd = try Sockets.connect(to: address)
        do {
            return try StreamSocket(fd: fd, loop: loop, peer: address, connecting: true, transformer: transformer)
        } catch {
            Sockets.close(fd)
            throw error
        }
    }

    /// Whether the connection (and its handshake, with a transformer) is still being set up.
    /// After a failure, whether it failed while being set up.
    public var isConnecting: Bool { lifecycle.isConnecting(client: isClient) }

    /// Bytes queued but not yet written.
    public var pendingWriteBytes: Int { outbound.count + lifecycle.pendingPlaintextCount + corkedPlaintext.count }

    // MARK: Reading

    /// Pauses or resumes reading (backpressure). Reading never resumes after end of file.
    public func setReading(_ reading: Bool) {
        guard reading != readingWanted, !isClosed, !(reading && lifecycle.sawEndOfInput) else { return }
        readingWanted = reading
        updateInterest()
    }

    /// Whether an idle connection is still open and silent: false when the peer has closed or
    /// reset it, or (without a transformer) has sent bytes nobody asked for. Asks the kernel
    /// directly, so a close that arrived since the last loop iteration is seen before any byte
    /// of a new request is written. A transformer may legitimately have unread records (a TLS
    /// session ticket), so for it only a close or an error counts.
    public func isOpenAndQuiet() -> Bool {
        switch lifecycle {
        case .connecting(closingTimer: nil), .connectingSecure, .handshaking, .open: break
        case .connecting(closingTimer: _?), .inputClosed, .lingering, .closed: return false
        }
        if let transport {
            switch transport.peek() {
            case .bytes: return transformer != nil
            case .endOfFile, .failed: return false
            case .wouldBlock: return true
            }
        }
        var byte: UInt8 = 0
        let count = Glibc.recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        if count > 0 { return transformer != nil }
        if count == 0 { return false }
        let code = errno
        return code == EAGAIN || code == EWOULDBLOCK || code == EINTR
    }

    // MARK: Events

    /// Handles epoll readiness.
    public func handleEvents(_ events: UInt32) {
        if lifecycle.isTCPConnecting {
            if events & (IOEvents.writable | IOEvents.error | IOEvents.hangup) != 0 {
                finishConnect()
            }
            return
        }
        if events & IOEvents.error != 0 {
            let code = systemPendingError()
            fail(IOError("socket error", code: code == 0 ? 104 : code))
            return
        }
        if events & IOEvents.writable != 0 {
            flushOutbound()
            if isClosed { return }
        }
        if events & (IOEvents.readable | IOEvents.readHangup | IOEvents.hangup) != 0 {
            if lifecycle.readsInput(wanted: readingWanted) {
                readAvailable()
            } else if events & IOEvents.hangup != 0 {
                fail(IOError("connection", code: 104))
            }
        }
    }

    private func finishConnect() {
        let code = systemPendingError()
        guard code == 0 else {
            fail(IOError("connect to \(peer?.description ?? "upstream")", code: code))
            return
        }
        let next = lifecycle.tcpConnected()
        tcpConnectedAt = loop.now
        updateInterest()
        switch next {
        case .startHandshake:
            // TLS client: send the first flight; the delegate hears of the connection when the
            // handshake (and certificate verification) has completed.
            guard let transformer else { return }
            if case .failed(let reason) = transformer.start() {
                fail(IOError.secureChannel(reason, peer: peer))
                return
            }
            flushTransformerOutput()
        case .established:
            delegate?.socketDidConnect(self)
            if !isClosed && !outbound.isEmpty { flushOutbound() }
        case .drain:
            if !outbound.isEmpty { flushOutbound() }
        case .ignored:
            break
        }
    }

    private func readAvailable() {
        let buffer = loop.readBuffer
        // A few reads per wake-up keep large transfers moving without starving other sockets.
        for _ in 0..<4 {
            guard lifecycle.readsInput(wanted: readingWanted) else { return }
            switch systemRead(into: buffer) {
            case .bytes(let count):
                if case .lingering = lifecycle { continue }
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
                endOfInput()
                return
            case .failed(let error):
                fail(error)
                return
            }
        }
    }

    /// The peer finished sending: tell the delegate, or finish a graceful close, or fail a
    /// handshake the peer walked away from.
    func endOfInput() {
        switch lifecycle.endOfInput() {
        case .report:
            updateInterest()
            delegate?.socketDidReadEOF(self)
        case .close:
            close()
        case .abortHandshake:
            fail(IOError("TLS with \(peer?.description ?? "peer")", code: ECONNABORTED,
                         detail: "peer closed the connection during the TLS handshake"))
        case .ignored:
            break
        }
    }

    func flushOutbound() {
        let queued = outbound.count
        let error = outbound.flush { systemWrite($0) }
        bytesSent &+= UInt64(queued - outbound.count)
        if let error {
            fail(error)
            return
        }
        updateInterest()
        if outbound.isEmpty {
            if case .lingering = lifecycle {
                systemShutdownWrite()
            } else {
                delegate?.socketDidDrain(self)
            }
        }
    }

    func fail(_ error: IOError) {
        guard !isClosed else { return }
        let delegate = self.delegate
        let closing = lifecycle.isClosing
        close()
        if !closing { delegate?.socket(self, didFail: error) }
    }

    private func interest() -> UInt32 {
        var events: UInt32 = 0
        if lifecycle.readsInput(wanted: readingWanted) { events |= IOEvents.readable | IOEvents.readHangup }
        if lifecycle.isTCPConnecting || !outbound.isEmpty { events |= IOEvents.writable }
        return events
    }

    func updateInterest() {
        guard !isClosed else { return }
        let wanted = interest()
        if wanted != watched {
            watched = wanted
            systemWatch(wanted)
        }
    }
}
