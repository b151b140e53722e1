import FaultlineIO
import FaultlineHTTP2

/// A client connection speaking HTTP/2 (ALPN `h2` on a TLS listener, or prior-knowledge h2c on
/// a plain one): owns the nghttp2 session and one `HTTP2Stream` per request stream. Bytes from
/// the socket go into the session; the session's events start and feed the streams; what the
/// streams submit leaves in `flush`, as far as the socket keeps up. Stream-level behaviour
/// (exchanges, faults, flow control) is the streams'; this class is the connection's lifecycle.
final class HTTP2Connection: StreamSocketDelegate, ClientConnection {
    /// Where the connection stands.
    enum Phase {
        /// Accepting streams.
        case open
        /// Shutting down gracefully: the shutdown notice went out; the final GOAWAY follows
        /// (`finalGoAwaySent`), then the connection closes once its streams have finished.
        case draining(finalGoAwaySent: Bool)
        /// Closed.
        case closed

        var isClosed: Bool {
            if case .closed = self { return true }
            return false
        }
    }

    let socket: StreamSocket
    /// The loop's context outlives its connections.
    unowned(unsafe) let context: LoopContext
    let session: HTTP2Session
    let clientIP: String
    let clientPort: Int?
    /// The client connection's per-process number (kept from the HTTP/1 connection it replaced).
    let number: Int
    /// Streams begun so far: the journal's `attempt` of the next one is one more.
    var streamsBegun = 0
    /// "https" or "http", for X-Forwarded-Proto and the records.
    let scheme: StaticString
    /// On a connection intercepted after CONNECT: where every stream's request goes.
    let interception: ForwardInterception?
    var phase = Phase.open
    /// Open request streams by id.
    var streams = HTTP2StreamTable<HTTP2Stream>()
    /// The connection's own deadline: the first request's head (as on HTTP/1, so a client that
    /// never sends one cannot hold a connection), then idle while no stream is open.
    var deadline = ConnectionDeadline()
    /// Nesting depth of passes that batch their output (a read, an upstream delivery).
    var batchDepth = 0
    /// Whether `flush` is running (events it hands out may submit more).
    var flushing = false
    /// Whether a flush at the end of the loop's turn is pending (`flushAtTurnEnd`).
    var flushQueued = false
    /// Reused output buffer.
    var output: [UInt8] = []

    /// Stop framing more output while the socket holds this much unsent (the streams' queues
    /// then fill and pause their upstreams).
    static let socketHighWater = 256 * 1024
    /// Bytes framed per pass of `flush`: many streams' bodies leave in passes of this size
    /// (each one TLS write) instead of one buffer as large as all their queues together, which
    /// the connection would keep for its lifetime.
    static let passLimit = 64 * 1024

    /// Takes over `socket` from the HTTP/1 connection that accepted it; `initial` are bytes
    /// already read (the h2c preface).
    init(socket: StreamSocket, context: LoopContext, clientIP: String, clientPort: Int?, scheme: StaticString,
         number: Int, initial: UnsafeRawBufferPointer?, interception: ForwardInterception? = nil) throws(HTTP2Failure) {
        self.interception = interception
        self.socket = socket
        self.number = number
        self.context = context
        self.clientIP = clientIP
        self.clientPort = clientPort
        self.scheme = scheme
        session = try HTTP2Session(role: .server, settings: context.snapshot.http2Settings)
        context.state.http2ConnectionAccepted()
        socket.delegate = self
        deadline.arm(.clientHeader, now: context.loop.now, milliseconds: context.snapshot.config.clientTimeouts.headerMs)
        if let initial, !initial.isEmpty {
            self.socket(socket, didRead: initial)
        } else {
            flush()
        }
    }

    // MARK: StreamSocketDelegate

    func socket(_ socket: StreamSocket, didRead bytes: UnsafeRawBufferPointer) {
        guard !phase.isClosed else { return }
        batchDepth += 1
        session.receive(bytes)
        session.handleEvents { handle(&$0) }
        batchDepth -= 1
        flush()
    }

    func socketDidReadEOF(_ socket: StreamSocket) {
        // The client has gone: every stream's exchange ends as a client that gave up.
        close(now: true)
    }

    func socketDidDrain(_ socket: StreamSocket) {
        flush()
    }

    func socket(_ socket: StreamSocket, didFail error: IOError) {
        close(now: true)
    }

    func socketDidConnect(_ socket: StreamSocket) {}

    // MARK: Output

    /// Writes what the session has ready now, unless a batching pass is running (it flushes
    /// at its end).
    func scheduleFlush() {
        if batchDepth == 0 { flush() }
    }

    /// Writes what the session has ready once the loop's current turn is over: the responses
    /// of many streams' upstreams that became readable together leave in one write (one TLS
    /// record, one system call) instead of one each.
    func flushAtTurnEnd() {
        guard !flushQueued, !phase.isClosed else { return }
        flushQueued = true
        context.loop.atTurnEnd(self)
    }

    /// Frames what the streams submitted and hands it to the socket, handling the events that
    /// sending produces (streams closing, queues draining), until nothing more comes; then
    /// closes the connection if the session is done.
    func flush() {
        guard !flushing, !phase.isClosed else { return }
        flushing = true
        while !phase.isClosed && socket.pendingWriteBytes < Self.socketHighWater {
            output.removeAll(keepingCapacity: output.capacity <= Self.passLimit * 2)
            session.send(into: &output, limit: Self.passLimit)
            var events = session.takeEvents()
            if !output.isEmpty { _ = socket.write(output) }
            handle(&events)
            let handledNone = events.isEmpty
            session.recycle(&events)
            if output.isEmpty && handledNone { break }
        }
        flushing = false
        guard !phase.isClosed else { return }
        if session.isFinished {
            close(now: false)
        } else if case .draining(finalGoAwaySent: true) = phase, streams.isEmpty, socket.pendingWriteBytes == 0 {
            // The final GOAWAY is out and every stream finished: nothing more will come.
            close(now: false)
        }
    }

    // MARK: Lifecycle

    /// Closes the connection; streams still open end as if their client gave up.
    func close(now: Bool) {
        guard !phase.isClosed else { return }
        phase = .closed
        let open = streams.values
        streams.removeAll()
        for stream in open { stream.connectionClosed() }
        if now {
            socket.close()
        } else {
            socket.closeGracefully()
        }
        context.connectionClosed(self)
    }

    /// A stream has closed for good (both directions, or reset).
    func streamFinished(_ streamID: Int32) {
        streams.removeValue(forKey: streamID)
        if streams.isEmpty { armIdle() }
    }

    /// Starts the idle deadline when no stream is open.
    func armIdle() {
        guard streams.isEmpty else { return }
        deadline.arm(.clientIdle, now: context.loop.now, milliseconds: context.snapshot.config.clientTimeouts.idleMs)
    }
}

extension HTTP2Connection: TurnEndHandler {
    func turnDidEnd() {
        flushQueued = false
        flush()
    }
}
