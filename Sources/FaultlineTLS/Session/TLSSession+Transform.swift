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
        if firstBytes.count < 8, !bytes.isEmpty {
            firstBytes.append(contentsOf: bytes.prefix(8 - firstBytes.count))
        }
        // The BIO reads straight from `bytes`; with read-ahead OpenSSL takes all of them into
        // its record buffer before it asks for more, so nothing is left over after this call.
        input = bytes
        inputOffset = 0
        defer {
            input = UnsafeRawBufferPointer(start: nil, count: 0)
            inputOffset = 0
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
        TLSOpenSSLErrors.clearIfNeeded()
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
        guard !self.output.isEmpty else { return }
        output.append(contentsOf: self.output)
        self.output.removeAll(keepingCapacity: true)
    }

    /// Hands the network bytes waiting to be sent to `body` and forgets them.
    public func drainOutput(_ body: (UnsafeRawBufferPointer) -> Bool) -> Bool {
        guard !output.isEmpty else { return true }
        // Moved out first: `body` may close the connection, and a close writes a close_notify
        // through the BIO into `output` while these bytes are still being sent.
        var pending: [UInt8] = []
        swap(&pending, &output)
        let result = pending.withUnsafeBytes(body)
        // Kept for the next record unless a large write grew it (idle connections would hold it).
        if output.isEmpty && pending.capacity <= 64 * 1024 {
            pending.removeAll(keepingCapacity: true)
            output = pending
        }
        return result
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
        TLSOpenSSLErrors.clearIfNeeded()
        _ = SSL_shutdown(ssl)
        TLSOpenSSLErrors.clearIfNeeded()
    }

    func driveHandshake() -> ByteTransformerEvent {
        guard let ssl else { return .none }
        TLSOpenSSLErrors.clearIfNeeded()
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
        guard let ssl, let base = scratch.baseAddress else { return .none }
        TLSOpenSSLErrors.clearIfNeeded()
        while true {
            // Nothing unread anywhere: skip the call rather than collect a WANT_READ.
            if inputOffset >= input.count, SSL_has_pending(ssl) == 0 {
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

extension TLSSession {
    /// The BIO's write: OpenSSL hands over ciphertext; it is kept until drained.
    func bioWrite(_ data: UnsafePointer<CChar>?, _ length: Int) -> Int32 {
        guard let data, length > 0 else { return 0 }
        output.append(contentsOf: UnsafeRawBufferPointer(start: data, count: length))
        return Int32(clamping: length)
    }

    /// The BIO's read: up to `length` of the received bytes not handed over yet; 0 when none.
    func bioRead(_ data: UnsafeMutablePointer<CChar>?, _ length: Int) -> Int {
        guard let data, let base = input.baseAddress, length > 0, inputOffset < input.count else { return 0 }
        let count = min(length, input.count - inputOffset)
        UnsafeMutableRawPointer(data).copyMemory(from: base + inputOffset, byteCount: count)
        inputOffset += count
        return count
    }
}
