/// The socket's system calls, each answered by the in-memory transport when there is one
/// (tests) and by the kernel otherwise. One branch per call on the descriptor path.
extension StreamSocket {
    @inline(__always)
    func systemRead(into buffer: UnsafeMutableRawBufferPointer) -> Sockets.ReadResult {
        if let transport { return transport.read(into: buffer) }
        return Sockets.read(fd, into: buffer)
    }

    @inline(__always)
    func systemWrite(_ bytes: UnsafeRawBufferPointer) -> Result<Int, IOError> {
        if let transport { return transport.write(bytes) }
        return Sockets.write(fd, bytes)
    }

    /// Two buffers in one call (`writev`); a transport takes them one after the other.
    @inline(__always)
    func systemWrite(_ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer) -> Result<Int, IOError> {
        guard let transport else { return Sockets.write(fd, first, second) }
        switch transport.write(first) {
        case .success(let written) where written == first.count:
            return transport.write(second).map { written + $0 }
        case let other:
            return other
        }
    }

    @inline(__always)
    func systemPendingError() -> Int32 {
        if let transport { return transport.pendingError() }
        return Sockets.pendingError(fd)
    }

    @inline(__always)
    func systemReadableBytes() -> Int {
        if let transport { return transport.readableBytes() }
        return Sockets.readableBytes(fd)
    }

    @inline(__always)
    func systemShutdownWrite() {
        if let transport { return transport.shutdownWrite() }
        Sockets.shutdownWrite(fd)
    }

    /// Forgets the descriptor on the loop and closes it (RST with `reset`).
    @inline(__always)
    func systemClose(reset: Bool) {
        if let transport { return transport.close(reset: reset) }
        loop.forgetClosing(fd)
        if reset { Sockets.setResetOnClose(fd) }
        Sockets.close(fd)
    }

    /// Tells the loop (or the transport) which events the socket wants.
    @inline(__always)
    func systemWatch(_ events: UInt32) {
        if let transport { return transport.watch(self, events: events) }
        loop.modify(fd, events: events)
    }
}
