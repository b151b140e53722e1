extension StreamSocket {
    /// Writes `bytes`, queueing what the kernel does not take now. Returns false if the socket
    /// is closed or the write failed (the socket is then closed and the delegate told).
    @discardableResult
    public func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard !isClosed else { return false }
        guard !bytes.isEmpty else { return true }
        guard let transformer else { return writeRaw(bytes) }
        if lifecycle.holdPlaintext(bytes) { return true }
        // A graceful close that began before the channel was ready dropped the held plaintext;
        // what is written after it goes the same way.
        if case .lingering = lifecycle, !transformer.isHandshakeComplete { return true }
        if corked {
            // A head and a body written in one pass become one record: one encryption and
            // one record header instead of one per write.
            corkedPlaintext.append(contentsOf: bytes)
            return true
        }
        if case .failed(let reason) = transformer.send(bytes) {
            fail(IOError.secureChannel(reason, peer: peer))
            return false
        }
        return flushTransformerOutput()
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
        guard transformer == nil, outbound.isEmpty && !lifecycle.isTCPConnecting && !corked && !second.isEmpty else {
            return first.withUnsafeBytes { write($0) } && write(second)
        }
        return first.withUnsafeBytes { head -> Bool in
            switch systemWrite(head, second) {
            case .success(let written):
                bytesSent &+= UInt64(written)
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
        if !corkedPlaintext.isEmpty {
            // Moved out (a write may cork again); its storage comes back for the next message.
            var plaintext: [UInt8] = []
            swap(&plaintext, &corkedPlaintext)
            plaintext.withUnsafeBytes { _ = write($0) }
            if corkedPlaintext.isEmpty && plaintext.capacity <= 64 * 1024 {
                plaintext.removeAll(keepingCapacity: true)
                swap(&plaintext, &corkedPlaintext)
            }
        }
        if !isClosed && !lifecycle.isTCPConnecting && !outbound.isEmpty { flushOutbound() }
    }

    /// Bytes for the wire (ciphertext with a transformer).
    @discardableResult
    func writeRaw(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard !isClosed else { return false }
        if outbound.isEmpty && !lifecycle.isTCPConnecting && !corked {
            switch systemWrite(bytes) {
            case .success(let written):
                bytesSent &+= UInt64(written)
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
}
