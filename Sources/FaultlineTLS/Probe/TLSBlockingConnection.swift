#if canImport(Glibc)
import Glibc
#endif
import FaultlineIO

/// Drives a `TLSSession` over a blocking socket with a deadline: for CLI tools and tests,
/// never for the proxy's event loops.
final class TLSBlockingConnection {
    let fd: Int32
    let session: TLSSession
    private let deadline: UInt64
    private var buffer = [UInt8](repeating: 0, count: 16384)
    private var output: [UInt8] = []
    /// Plaintext received but not yet returned by `read`.
    var plaintext: [UInt8] = []

    /// Takes ownership of `fd` (closed by `close()` or deinit).
    init(fd: Int32, session: TLSSession, timeoutMs: Int) {
        self.fd = fd
        self.session = session
        self.deadline = Self.now() + UInt64(max(timeoutMs, 1)) * 1_000_000
        Self.setTimeouts(fd, milliseconds: timeoutMs)
    }

    private var isOpen = true

    deinit {
        if isOpen { Glibc.close(fd) }
    }

    func handshake() throws(TLSProbeError) {
        var event = session.start()
        while true {
            try flush()
            switch event {
            case .handshakeCompleted: return
            case .failed(let reason): throw .handshake(reason)
            case .closed: throw .handshake("the peer closed the connection during the TLS handshake")
            case .none:
                if session.isHandshakeComplete { return }
            }
            event = try receiveOnce("TLS handshake")
        }
    }

    /// Encrypts and sends `bytes`.
    func write(_ bytes: [UInt8]) throws(TLSProbeError) {
        let event = bytes.withUnsafeBytes { session.send($0) }
        if case .failed(let reason) = event { throw .io(reason) }
        try flush()
    }

    /// Waits until more plaintext arrives (appended to `plaintext`); false once the peer closed.
    func read() throws(TLSProbeError) -> Bool {
        guard !peerClosed else { return false }
        let before = plaintext.count
        while plaintext.count == before {
            let event = try receiveOnce("reading")
            try flush()
            switch event {
            case .failed(let reason): throw .io(reason)
            case .closed:
                peerClosed = true
                return plaintext.count > before
            default: break
            }
        }
        return true
    }

    private var peerClosed = false

    /// Sends close_notify (best effort) and closes the socket.
    func close() {
        guard isOpen else { return }
        session.shutdown()
        try? flush()
        isOpen = false
        Glibc.close(fd)
    }

    private func receiveOnce(_ what: String) throws(TLSProbeError) -> ByteTransformerEvent {
        guard Self.now() < deadline else { throw .timedOut("timed out during \(what)") }
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count == 0 { throw .io("the peer closed the connection during \(what)") }
        if count < 0 {
            let code = errno
            if code == EINTR { return .none }
            if code == EAGAIN || code == EWOULDBLOCK { throw .timedOut("timed out during \(what)") }
            throw .io("receive failed during \(what): \(TLSFileReader.errnoText(code))")
        }
        return buffer.withUnsafeBytes { session.receive(UnsafeRawBufferPointer(rebasing: $0[0..<count]), into: &plaintext) }
    }

    private func flush() throws(TLSProbeError) {
        output.removeAll(keepingCapacity: true)
        session.takeOutput(into: &output)
        var offset = 0
        while offset < output.count {
            let sent = output.withUnsafeBytes { Glibc.send(fd, $0.baseAddress.map { $0 + offset }, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if sent < 0 {
                if errno == EINTR { continue }
                throw .io("send failed: \(TLSFileReader.errnoText(errno))")
            }
            offset += sent
        }
    }

    static func setTimeouts(_ fd: Int32, milliseconds: Int) {
        BlockingIO.setTimeouts(fd, milliseconds: milliseconds)
    }

    static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }
}
