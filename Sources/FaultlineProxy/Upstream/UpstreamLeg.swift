import FaultlineHTTP
import FaultlineIO
import FaultlineLog

/// The upstream side of one exchange: an HTTP/1 connection the exchange holds alone, or a
/// stream on an HTTP/2 connection it shares with other exchanges of its loop. The exchange
/// layer writes the request and applies flow control through these operations, and the leg
/// does its own framing; which protocol carries it was fixed by the upstream's `protocol`
/// when the exchange started. An enum rather than a protocol keeps the HTTP/1 path's calls
/// direct; the protocol switches live here, not in the shared exchange code.
enum UpstreamLeg {
    /// An HTTP/1 connection (pooled between exchanges, never shared during one).
    case http1(UpstreamConnection)
    /// One stream of a per-loop HTTP/2 connection.
    case http2(HTTP2UpstreamStream)

    /// Whether this leg and `other` are the same connection or stream.
    @inline(__always)
    func isLeg(_ other: UpstreamLeg) -> Bool {
        switch (self, other) {
        case (.http1(let mine), .http1(let theirs)): mine === theirs
        case (.http2(let mine), .http2(let theirs)): mine === theirs
        default: false
        }
    }

    /// The HTTP/1 connection, if that is what the leg is (a tunnel after a 101 needs it).
    var connection: UpstreamConnection? {
        if case .http1(let connection) = self { return connection }
        return nil
    }

    /// The socket whose writes a host may hold until its read pass ends (HTTP/1 only: an
    /// HTTP/2 connection frames what its streams queued at the end of the loop's turn).
    var corkableSocket: StreamSocket? {
        if case .http1(let connection) = self { return connection.socket }
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

    /// When the leg's TCP connection was established (monotonic ns), for the record.
    var tcpConnectedAt: UInt64 {
        switch self {
        case .http1(let connection): connection.socket.tcpConnectedAt
        case .http2(let stream): stream.connection.socket.tcpConnectedAt
        }
    }

    /// The pin verdict of the leg's connection, if pins were checked.
    var pin: PinResult? {
        switch self {
        case .http1(let connection): connection.pinResult
        case .http2(let stream): stream.connection.lifecycle.pin
        }
    }

    /// What a failed attempt on this leg tells the retry rules.
    func attemptFacts(replayable: Bool) -> UpstreamAttemptFacts {
        switch self {
        case .http1(let connection):
            UpstreamAttemptFacts(reused: connection.isReused, sawResponseBytes: connection.sawResponseBytes,
                                 sentNothing: connection.sentNothing, replayable: replayable)
        case .http2(let stream):
            UpstreamAttemptFacts(reused: stream.connectionWasOpen, sawResponseBytes: stream.sawResponseHead,
                                 sentNothing: stream.sentNothing, replayable: replayable)
        }
    }

    /// Writes a request body part, framed for the leg (a complete chunk on a chunked HTTP/1
    /// request, as it is otherwise; DATA carries its own length); `record` sees the bytes as
    /// they went, for a retry.
    func sendBody(_ bytes: UnsafeRawBufferPointer, chunked: Bool, record: (UnsafeRawBufferPointer) -> Void) {
        switch self {
        case .http1(let connection):
            guard chunked else {
                connection.socket.write(bytes)
                record(bytes)
                return
            }
            // Each piece a complete chunk, so the upstream never waits for the next one to
            // learn that this one ended; corked, the pieces of one pass leave in one write.
            var prefix: [UInt8] = []
            HTTP1Encoder.appendChunkHeader(size: bytes.count, into: &prefix)
            connection.socket.write(prefix, bytes)
            connection.socket.write(HTTP1Encoder.chunkEnd)
            prefix.withUnsafeBytes { record($0) }
            record(bytes)
            HTTP1Encoder.chunkEnd.withUnsafeBytes { record($0) }
        case .http2(let stream):
            stream.sendBody(bytes)
            record(bytes)
        }
    }

    /// The request ended: the last chunk with the trailers on a chunked HTTP/1 request (the
    /// connection then knows its request is written), END_STREAM with the trailers on a stream.
    func finish(trailers: HTTPHeaders, chunked: Bool, record: (UnsafeRawBufferPointer) -> Void) {
        switch self {
        case .http1(let connection):
            if chunked {
                var tail: [UInt8] = []
                HTTP1Encoder.appendLastChunk(trailers: trailers, into: &tail)
                connection.socket.write(tail)
                tail.withUnsafeBytes { record($0) }
            }
            connection.requestWritten()
        case .http2(let stream):
            stream.finishRequest(trailers: trailers)
        }
    }

    /// A delay ended: what arrived meanwhile (`held`, framed) follows the head on an HTTP/1
    /// connection; a stream took it when it opened. Returns whether the client may send
    /// more now.
    func sendHeld(_ held: inout [UInt8], record: (UnsafeRawBufferPointer) -> Void) -> Bool {
        switch self {
        case .http1(let connection):
            guard !held.isEmpty else { return false }
            connection.socket.write(held)
            held.withUnsafeBytes { record($0) }
            held = []
            return true
        case .http2(let stream):
            return stream.pendingRequestBytes == 0
        }
    }

    /// The exchange completed: an HTTP/1 connection goes back to `pool`, which keeps it only
    /// if the exchange left it clean; a stream is simply over.
    func release(to pool: UpstreamPool, maxIdle: Int, idleMilliseconds: Int, now: UInt64) {
        switch self {
        case .http1(let connection):
            pool.release(connection, maxIdle: maxIdle, idleMilliseconds: idleMilliseconds, now: now)
        case .http2(let stream):
            stream.release()
        }
    }
}
