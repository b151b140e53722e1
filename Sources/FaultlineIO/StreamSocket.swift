/// A non-blocking TCP connection on one event loop: reads go to the delegate, writes are
/// queued when the kernel is full, and reading can be paused for backpressure.
public final class StreamSocket: EventHandler {
    /// The descriptor (valid until closed).
    public let fd: Int32
    /// The loop this socket lives on.
    public unowned let loop: EventLoop
    /// Receives reads and state changes. Held strongly (a weak reference would put both
    /// objects on Swift's slow reference-counting path) and released when the socket closes.
    public var delegate: StreamSocketDelegate?
    /// The peer's address, when known.
    public let peer: SocketAddress?

    /// Whether the socket has been closed.
    public private(set) var isClosed = false
    /// Whether a connect is still in progress.
    public private(set) var isConnecting: Bool
    /// Whether reads are wanted (false while the other side of a relay is full).
    public private(set) var isReading = true

    private var outbound = OutboundBuffer()
    private var corked = false
    private var sawEndOfFile = false
    private var watched: UInt32 = 0
    private var lingering = false
    private var lingerTimer: TimerID?

    /// Wraps an accepted or connecting descriptor and registers it with `loop`. If registration
    /// fails the descriptor stays open: the caller closes it.
    public init(fd: Int32, loop: EventLoop, peer: SocketAddress?, connecting: Bool = false) throws(IOError) {
        self.fd = fd
        self.loop = loop
        self.peer = peer
        isConnecting = connecting
        watched = interest()
        try loop.register(fd, handler: self, events: watched)
    }

    /// Starts connecting to `address` on `loop`; the delegate hears `socketDidConnect` or `didFail`.
    public static func connect(to address: SocketAddress, on loop: EventLoop) throws(IOError) -> StreamSocket {
        let fd = try Sockets.connect(to: address)
        do {
            return try StreamSocket(fd: fd, loop: loop, peer: address, connecting: true)
        } catch {
            Sockets.close(fd)
            throw error
        }
    }

    /// Bytes queued but not yet written.
    public var pendingWriteBytes: Int { outbound.count }

    // MARK: Writing

    /// Writes `bytes`, queueing what the kernel does not take now. Returns false if the socket
    /// is closed or the write failed (the socket is then closed and the delegate told).
    @discardableResult
    public func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard !isClosed else { return false }
        guard !bytes.isEmpty else { return true }
        if outbound.isEmpty && !isConnecting && !corked {
            switch Sockets.write(fd, bytes) {
            case .success(let written):
                if written < bytes.count {
                    outbound.append(UnsafeRawBufferPointer(rebasing: bytes[written...]))
                }
            case .failure(let error):
                fail(error)
                return false
            }
        } else {
            outbound.append(bytes)
            // Corked bytes are sent by `uncork()`; asking epoll for writability now would cost
            // two epoll_ctl calls per message for nothing.
            if corked { return true }
        }
        updateInterest()
        return true
    }

    /// Writes `bytes`.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { write($0) }
    }

    /// Writes two buffers with one system call when nothing is queued (head + body).
    @discardableResult
    public func write(_ first: [UInt8], _ second: UnsafeRawBufferPointer) -> Bool {
        guard !isClosed else { return false }
        guard outbound.isEmpty && !isConnecting && !corked && !second.isEmpty else {
            return first.withUnsafeBytes { write($0) } && write(second)
        }
        return first.withUnsafeBytes { head -> Bool in
            switch Sockets.write(fd, head, second) {
            case .success(let written):
                if written < head.count {
                    outbound.append(UnsafeRawBufferPointer(rebasing: head[written...]))
                    outbound.append(second)
                } else if written < head.count + second.count {
                    outbound.append(UnsafeRawBufferPointer(rebasing: second[(written - head.count)...]))
                }
                updateInterest()
                return true
            case .failure(let error):
                fail(error)
                return false
            }
        }
    }

    /// Holds writes back until `uncork()`, so that the parts of a message produced while
    /// handling one read leave in one system call (and one packet) instead of several.
    public func cork() {
        corked = true
    }

    /// Sends what `cork()` held back.
    public func uncork() {
        guard corked else { return }
        corked = false
        if !isClosed && !isConnecting && !outbound.isEmpty { flushOutbound() }
    }

    // MARK: Reading

    /// Pauses or resumes reading (backpressure). Reading never resumes after end of file.
    public func setReading(_ reading: Bool) {
        guard reading != isReading, !isClosed, !(reading && sawEndOfFile) else { return }
        isReading = reading
        updateInterest()
    }

    // MARK: Closing

    /// Closes now. With `reset`, the peer sees RST instead of FIN.
    public func close(reset: Bool = false) {
        guard !isClosed else { return }
        isClosed = true
        delegate = nil
        if let lingerTimer { loop.cancel(lingerTimer) }
        loop.deregister(fd)
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
        if !isConnecting && !outbound.isEmpty && outbound.flush(to: fd) != nil {
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
        if isConnecting {
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
            if isReading || lingering {
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
        isConnecting = false
        updateInterest()
        delegate?.socketDidConnect(self)
        if !isClosed && !outbound.isEmpty { flushOutbound() }
    }

    private func readAvailable() {
        let buffer = loop.readBuffer
        // A few reads per wake-up keep large transfers moving without starving other sockets.
        for _ in 0..<4 {
            guard !isClosed, isReading || lingering else { return }
            switch Sockets.read(fd, into: buffer) {
            case .bytes(let count):
                if lingering { continue }
                delegate?.socket(self, didRead: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                if count < buffer.count { return }
            case .wouldBlock:
                return
            case .endOfFile:
                if lingering {
                    close()
                } else {
                    isReading = false
                    sawEndOfFile = true
                    updateInterest()
                    delegate?.socketDidReadEOF(self)
                }
                return
            case .failed(let error):
                fail(error)
                return
            }
        }
    }

    private func flushOutbound() {
        if let error = outbound.flush(to: fd) {
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

    private func fail(_ error: IOError) {
        guard !isClosed else { return }
        let delegate = self.delegate
        close()
        if !lingering { delegate?.socket(self, didFail: error) }
    }

    private func interest() -> UInt32 {
        var events: UInt32 = 0
        if (isReading || lingering) && !isConnecting { events |= IOEvents.readable | IOEvents.readHangup }
        if isConnecting || !outbound.isEmpty { events |= IOEvents.writable }
        return events
    }

    private func updateInterest() {
        guard !isClosed else { return }
        let wanted = interest()
        if wanted != watched {
            watched = wanted
            loop.modify(fd, events: wanted)
        }
    }
}
