private import COpenSSL
import FaultlineIO

extension TLSSession {
    /// Begins the handshake; a client writes its ClientHello (read it with `takeOutput`).
    public func start() -> ByteTransformerEvent {
        switch state {
        case .idle:
            state = .handshaking
            return isClient ? driveHandshake() : .none
        case .failed(let reason):
            return .failed(reason)
        case .closed:
            return .closed
        case .handshaking, .established:
            return .none
        }
    }

    /// Consumes network bytes and appends the plaintext they carry to `plaintext`.
    ///
    /// Bytes after the handshake's last message are decrypted in the same call. When several
    /// things happen at once the most final event wins (`.failed` > `.closed` >
    /// `.handshakeCompleted`); `isHandshakeComplete` still tells whether the handshake finished.
    public func receive(_ bytes: UnsafeRawBufferPointer, into plaintext: inout [UInt8]) -> ByteTransformerEvent {
        switch state {
        case .failed(let reason): return .failed(reason)
        case .closed: return .closed
        case .idle: state = .handshaking
        case .handshaking, .established: break
        }
        guard let networkIn else { return .none }
        if firstBytes.count < 8, !bytes.isEmpty {
            firstBytes.append(contentsOf: bytes.prefix(8 - firstBytes.count))
        }
        if let base = bytes.baseAddress, !bytes.isEmpty {
            var offset = 0
            while offset < bytes.count {
                let length = Int32(clamping: bytes.count - offset)
                let written = BIO_write(networkIn, base + offset, length)
                if written <= 0 { return fail("could not buffer received bytes: out of memory") }
                offset += Int(written)
            }
        }
        var event = ByteTransformerEvent.none
        if case .handshaking = state {
            event = driveHandshake()
            guard case .established = state else { return event }
        }
        let readEvent = readPlaintext(into: &plaintext)
        return readEvent == .none ? event : readEvent
    }

    /// Encrypts application bytes into records (one `SSL_write`); valid once established.
    public func send(_ bytes: UnsafeRawBufferPointer) -> ByteTransformerEvent {
        switch state {
        case .failed(let reason): return .failed(reason)
        case .closed: return fail("cannot send: the TLS connection is closed")
        case .idle, .handshaking: return fail("cannot send application data before the TLS handshake completes")
        case .established: break
        }
        guard let ssl, let base = bytes.baseAddress, !bytes.isEmpty else { return .none }
        TLSOpenSSLErrors.clear()
        var offset = 0
        while offset < bytes.count {
            let length = Int32(clamping: bytes.count - offset)
            let written = SSL_write(ssl, base + offset, length)
            if written <= 0 {
                return fail(dataFailureReason(SSL_get_error(ssl, written), action: "sending"))
            }
            offset += Int(written)
        }
        return .none
    }

    /// Appends the network bytes waiting to be sent (handshake, records, alerts) to `output`.
    public func takeOutput(into output: inout [UInt8]) {
        guard let networkOut else { return }
        let pending = BIO_ctrl_pending(networkOut)
        guard pending > 0 else { return }
        output.reserveCapacity(output.count + pending)
        guard let base = scratch.baseAddress else { return }
        while true {
            let count = BIO_read(networkOut, base, Int32(scratch.count))
            if count <= 0 { return }
            output.append(contentsOf: UnsafeRawBufferPointer(start: base, count: Int(count)))
        }
    }

    /// Queues a close_notify alert (read it with `takeOutput`); later sends fail.
    public func shutdown() {
        switch state {
        case .failed:
            return
        case .idle, .handshaking:
            state = .failed("the TLS connection was closed before the handshake completed")
            return
        case .established, .closed:
            state = .closed
        }
        // The peer's close_notify may already have moved us to .closed; still answer it once.
        guard let ssl, SSL_get_shutdown(ssl) & SSL_SENT_SHUTDOWN == 0 else { return }
        TLSOpenSSLErrors.clear()
        _ = SSL_shutdown(ssl)
        TLSOpenSSLErrors.clear()
    }

    func driveHandshake() -> ByteTransformerEvent {
        guard let ssl else { return .none }
        TLSOpenSSLErrors.clear()
        let result = SSL_do_handshake(ssl)
        if result == 1 {
            state = .established
            handshakeDidComplete()
            return .handshakeCompleted
        }
        let error = SSL_get_error(ssl, result)
        switch error {
        case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
            return .none
        case SSL_ERROR_ZERO_RETURN:
            state = .closed
            return .closed
        default:
            return fail(handshakeFailureReason(error))
        }
    }

    func readPlaintext(into plaintext: inout [UInt8]) -> ByteTransformerEvent {
        guard let ssl, let networkIn, let base = scratch.baseAddress else { return .none }
        TLSOpenSSLErrors.clear()
        while true {
            // Nothing buffered anywhere: skip the call rather than collect a WANT_READ.
            if BIO_ctrl_pending(networkIn) == 0, SSL_pending(ssl) == 0, SSL_has_pending(ssl) == 0 {
                return .none
            }
            let count = SSL_read(ssl, base, Int32(scratch.count))
            if count > 0 {
                plaintext.append(contentsOf: UnsafeRawBufferPointer(start: base, count: Int(count)))
                continue
            }
            let error = SSL_get_error(ssl, count)
            switch error {
            case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
                return .none
            case SSL_ERROR_ZERO_RETURN:
                state = .closed
                return .closed
            default:
                return fail(dataFailureReason(error, action: "reading"))
            }
        }
    }

    func fail(_ reason: String) -> ByteTransformerEvent {
        state = .failed(reason)
        return .failed(reason)
    }

    private func handshakeDidComplete() {
        guard let ssl, isClient, SSL_session_reused(ssl) == 1 else { return }
        cache?.noteResumption()
    }
}
