/// The upstream side of one exchange: an HTTP/1 connection the exchange holds alone, or a
/// stream on an HTTP/2 connection it shares with other exchanges of its loop. The exchange
/// layer writes the request and applies flow control through these few operations; which
/// protocol carries it was fixed by the upstream's `protocol` when the exchange started.
enum UpstreamLeg {
    /// An HTTP/1 connection (pooled between exchanges, never shared during one).
    case http1(UpstreamConnection)
    /// One stream of a per-loop HTTP/2 connection.
    case http2(HTTP2UpstreamStream)

    /// Whether this leg is `object` (the connection or stream an event came from).
    @inline(__always)
    func isLeg(_ object: AnyObject) -> Bool {
        switch self {
        case .http1(let connection): connection === object
        case .http2(let stream): stream === object
        }
    }

    /// The HTTP/1 connection, if that is what the leg is.
    var connection: UpstreamConnection? {
        if case .http1(let connection) = self { return connection }
        return nil
    }

    /// Ends the leg without reuse: the HTTP/1 connection closes, the stream is reset (CANCEL)
    /// unless it already ended; the HTTP/2 connection goes on for the others.
    func close() {
        switch self {
        case .http1(let connection): connection.close()
        case .http2(let stream): stream.cancel()
        }
    }

    /// Pauses or resumes the response (backpressure from the client): the socket's reads
    /// for HTTP/1, the stream's receive window for HTTP/2.
    func setResponseReading(_ reading: Bool) {
        switch self {
        case .http1(let connection):
            if !connection.socket.isClosed { connection.socket.setReading(reading) }
        case .http2(let stream):
            stream.setResponseReading(reading)
        }
    }

    /// Request bytes handed over and not yet taken by the kernel (HTTP/1) or framed (HTTP/2).
    var pendingRequestBytes: Int {
        switch self {
        case .http1(let connection): connection.socket.pendingWriteBytes
        case .http2(let stream): stream.pendingRequestBytes
        }
    }

    /// Whether body bytes written now must be kept for a retry: on a pooled HTTP/1
    /// connection (a stale one may have dropped them), and on every stream (the peer may
    /// refuse it unprocessed).
    var keepsReplay: Bool {
        switch self {
        case .http1(let connection): connection.isReused
        case .http2: true
        }
    }
}
