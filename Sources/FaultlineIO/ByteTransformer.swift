/// What a byte transformer reports after consuming input.
public enum ByteTransformerEvent: Sendable, Equatable {
    /// Nothing notable: keep going.
    case none
    /// The handshake just completed: the channel is ready for application bytes.
    case handshakeCompleted
    /// The peer closed the secure channel cleanly (TLS close_notify).
    case closed
    /// The channel failed; the text says why (a verification error, an alert, garbage).
    case failed(String)
}

/// Turns the bytes of a secure channel into plaintext and back, with no I/O of its own: a TLS
/// session sits between a `StreamSocket` and the HTTP codec.
///
/// The socket calls `receive` with what arrived from the network and `send` with plaintext
/// the application writes, then sends whatever `drainOutput` hands it.
public protocol ByteTransformer: AnyObject {
    /// Whether the handshake has completed.
    var isHandshakeComplete: Bool { get }
    /// Begins the handshake; a client produces its first flight (read it with `takeOutput`).
    func start() -> ByteTransformerEvent
    /// Consumes network bytes, appending the plaintext they carry to `plaintext`.
    func receive(_ bytes: UnsafeRawBufferPointer, into plaintext: inout [UInt8]) -> ByteTransformerEvent
    /// Encrypts application bytes; only valid once the handshake has completed.
    func send(_ bytes: UnsafeRawBufferPointer) -> ByteTransformerEvent
    /// Appends the network bytes waiting to be sent (handshake, records, alerts) to `output`.
    func takeOutput(into output: inout [UInt8])
    /// Hands the network bytes waiting to be sent to `body` (not called when there are none)
    /// and forgets them; returns what `body` returned, true when there was nothing to send.
    func drainOutput(_ body: (UnsafeRawBufferPointer) -> Bool) -> Bool
    /// Starts a clean close (close_notify); read the alert with `takeOutput`.
    func shutdown()
    /// Bytes to send in the clear after a failure, before closing: a TLS server answers a
    /// client that spoke plain HTTP with an HTTP 400 rather than a bare close. Nil otherwise.
    func clearTextReplyAfterFailure() -> [UInt8]?
}
