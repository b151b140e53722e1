extension StreamSocket {
    /// Feeds network bytes to the transformer, sends what it produced (handshake replies,
    /// alerts), and passes plaintext on.
    func receiveSecure(_ bytes: UnsafeRawBufferPointer) {
        guard let transformer else { return }
        var plaintext = loop.takePlaintextScratch()
        defer { loop.returnPlaintextScratch(&plaintext) }
        let event = transformer.receive(bytes, into: &plaintext)
        flushTransformerOutput()
        guard !isClosed else { return }
        if case .failed(let reason) = event {
            if let reply = transformer.clearTextReplyAfterFailure() {
                // Best effort: a short answer into an empty send buffer.
                reply.withUnsafeBytes { _ = systemWrite($0) }
            }
            fail(IOError.secureChannel(reason, peer: peer))
            return
        }
        // The handshake may finish in the same call that brings data or a close.
        if lifecycle.holdsPlaintext && transformer.isHandshakeComplete {
            handshakeCompleted()
            guard !isClosed else { return }
        }
        if !plaintext.isEmpty {
            plaintext.withUnsafeBytes { delegate?.socket(self, didRead: $0) }
        }
        if case .closed = event, !isClosed {
            endOfInput()
        }
    }

    /// The channel is ready: the delegate may inspect it (a TLS client checks pins here and
    /// closes on mismatch, so that nothing written before reaches the peer), then what was
    /// written meanwhile is encrypted and sent.
    private func handshakeCompleted() {
        let waiting = lifecycle.handshakeCompleted() ?? []
        updateInterest()
        delegate?.socketDidConnect(self)
        guard !isClosed, !waiting.isEmpty else { return }
        waiting.withUnsafeBytes { _ = write($0) }
    }

    /// Sends the ciphertext the transformer has ready.
    @discardableResult
    func flushTransformerOutput() -> Bool {
        guard let transformer else { return true }
        return transformer.drainOutput { writeRaw($0) }
    }
}
