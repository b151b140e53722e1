extension StreamSocket {
    /// Closes now. With `reset`, the peer sees RST instead of FIN.
    public func close(reset: Bool = false) {
        guard !isClosed else { return }
        if !reset, !lifecycle.isClosing, let transformer, transformer.isHandshakeComplete {
            // A session freed without close_notify is not resumable (OpenSSL marks it so):
            // say goodbye properly, best effort, so the next connection can resume.
            transformer.shutdown()
            var goodbye: [UInt8] = []
            transformer.takeOutput(into: &goodbye)
            if !goodbye.isEmpty { goodbye.withUnsafeBytes { _ = systemWrite($0) } }
        }
        let left = lifecycle.close()
        delegate = nil
        if let timer = left.closingTimer { loop.cancel(timer) }
        systemClose(reset: reset)
    }

    /// Sends what is queued, then FIN. If the peer may still be sending, reads and discards
    /// until it closes (or a short grace period ends) so that unread input does not turn our
    /// close into an RST that destroys the response in flight.
    public func closeGracefully(graceMilliseconds: Int = 2000) {
        switch lifecycle {
        case .closed, .lingering, .connecting(closingTimer: _?):
            return
        case .connectingSecure:
            // Nothing can have reached the peer: the handshake has not even begun.
            close()
            return
        case .connecting(closingTimer: nil), .handshaking, .open, .inputClosed:
            break
        }
        corked = false
        delegate = nil
        let tcpConnecting = lifecycle.isTCPConnecting
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
        if !tcpConnecting && !outbound.isEmpty && outbound.flush({ systemWrite($0) }) != nil {
            close()
            return
        }
        if outbound.isEmpty && systemReadableBytes() == 0 {
            // Nothing unread: the kernel sends FIN after the queued bytes, no RST risk.
            close()
            return
        }
        let timer = loop.schedule(afterMilliseconds: graceMilliseconds) { [weak self] in
            self?.close()
        }
        guard lifecycle.startClosing(timer: timer) else {
            loop.cancel(timer)
            close()
            return
        }
        if outbound.isEmpty {
            systemShutdownWrite()
        }
        updateInterest()
    }
}
