import FaultlineHTTP
import FaultlineHTTP2

/// One exchange's stream on an HTTP/2 upstream connection. It keeps the request until the
/// connection may open the stream (connected, the peer's SETTINGS read, a slot free), then
/// hands head, body and trailers to the session; the response comes back through the
/// connection as `UpstreamLegOwner` events.
///
/// Flow control: the stream's receive window reopens only for bytes the owner has taken
/// while reading (`setResponseReading`); bytes that arrive while the owner's client is
/// behind stay owed until it catches up, so a slow client stalls its own stream alone.
final class HTTP2UpstreamStream {
    /// Where the stream is.
    enum Lifecycle {
        /// Not yet opened on the connection: the request waits here.
        case waiting(owner: UpstreamLegOwner)
        /// Opened with stream id `id`.
        case open(owner: UpstreamLegOwner, id: Int32)
        /// The response completed, the stream failed or the exchange let it go; `id` if it
        /// was opened.
        case over(id: Int32?)
    }

    /// The request's end as the exchange reported it.
    enum RequestEnd {
        /// More body may come.
        case open
        /// The request ended; trailer fields (HTTP/2 lowercase) if any.
        case ended(trailers: HTTPHeaders?)
    }

    /// The connection carrying it (another one if it had to move before opening).
    var connection: HTTP2UpstreamConnection
    var lifecycle: Lifecycle
    /// The request head as HTTP/2 fields, pseudo-header fields first.
    let fields: HTTPHeaders
    /// Whether the connection served earlier exchanges: if it then breaks before any
    /// response byte, the request may go again (as on a stale pooled HTTP/1 connection).
    let connectionWasOpen: Bool
    /// Body bytes given before the stream opened.
    private(set) var pendingBody: [UInt8] = []
    private(set) var requestEnd = RequestEnd.open
    /// Whether the final response head arrived.
    private(set) var sawResponseHead = false
    /// Whether the owner takes response bytes now; if not, `owedWindow` bytes wait.
    private var reading = true
    private var owedWindow = 0

    init(connection: HTTP2UpstreamConnection, owner: UpstreamLegOwner, fields: HTTPHeaders, connectionWasOpen: Bool) {
        self.connection = connection
        self.fields = fields
        self.connectionWasOpen = connectionWasOpen
        lifecycle = .waiting(owner: owner)
    }

    /// The exchange it serves, until it is over.
    var owner: UpstreamLegOwner? {
        switch lifecycle {
        case .waiting(let owner), .open(let owner, _): owner
        case .over: nil
        }
    }

    /// Whether the request has ended.
    private var requestEnded: Bool {
        if case .ended = requestEnd { return true }
        return false
    }

    /// The stream id once opened (kept after it is over).
    var id: Int32? {
        switch lifecycle {
        case .waiting: nil
        case .open(_, let id): id
        case .over(let id): id
        }
    }

    /// Whether nothing of the request can have reached the upstream.
    var sentNothing: Bool { id == nil }

    /// Whether the connection is still being set up (connect, TLS, pins, ALPN, SETTINGS).
    var isConnecting: Bool { connection.isConnecting }

    /// Request bytes not yet framed.
    var pendingRequestBytes: Int {
        guard let id else { return pendingBody.count }
        return connection.session.queuedOutboundBytes(streamID: id)
    }

    // MARK: Request

    /// Request body bytes for the upstream.
    func sendBody(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        switch lifecycle {
        case .waiting:
            pendingBody.append(contentsOf: bytes)
        case .open(_, let id):
            connection.session.sendBody(streamID: id, bytes)
            connection.scheduleFlush()
        case .over:
            break
        }
    }

    /// The request ended, with the client's trailer fields (sent as HTTP/2 trailers, without
    /// those a trailer section may not carry, as the HTTP/1 encoder drops them).
    func finishRequest(trailers: HTTPHeaders) {
        guard case .open = requestEnd else { return }
        let forwardable = trailers.count > 0 ? HTTPHead.http2Trailers(trailers.forwardableTrailers) : HTTPHeaders()
        let fields = forwardable.count > 0 ? forwardable : nil
        requestEnd = .ended(trailers: fields)
        if case .open(_, let id) = lifecycle {
            connection.session.finishBody(streamID: id, trailers: fields)
            connection.scheduleFlush()
        }
    }

    /// Opens the stream on the session (the connection calls this when a slot is free):
    /// a request already complete without a body goes as one HEADERS frame with END_STREAM.
    func open() throws(HTTP2Failure) {
        guard case .waiting(let owner) = lifecycle else { return }
        var endsAtHead = false
        var trailers: HTTPHeaders?
        if case .ended(let fields) = requestEnd {
            trailers = fields
            endsAtHead = pendingBody.isEmpty && fields == nil
        }
        let id = try connection.session.submitRequest(fields: fields, endStream: endsAtHead)
        lifecycle = .open(owner: owner, id: id)
        guard !endsAtHead else { return }
        if !pendingBody.isEmpty {
            connection.session.sendBody(streamID: id, pendingBody)
            pendingBody = []
        }
        if case .ended = requestEnd { connection.session.finishBody(streamID: id, trailers: trailers) }
    }

    // MARK: Response

    /// A final response head arrived.
    func noteResponseHead() {
        sawResponseHead = true
    }

    /// `count` body bytes were delivered to the owner: the window reopens for them now, or
    /// once the owner reads again.
    func delivered(_ count: Int) {
        guard case .open(_, let id) = lifecycle else { return }
        if reading {
            connection.session.consume(streamID: id, count: count)
        } else {
            owedWindow += count
        }
    }

    /// Pauses or resumes the response (the owner's client is behind, or caught up).
    func setResponseReading(_ reading: Bool) {
        self.reading = reading
        guard reading, owedWindow > 0, let id else { return }
        connection.session.consume(streamID: id, count: owedWindow)
        owedWindow = 0
        connection.scheduleFlush()
    }

    // MARK: Ending

    /// The exchange no longer needs the stream: reset it (CANCEL) unless both sides ended.
    func cancel() {
        switch lifecycle {
        case .waiting:
            lifecycle = .over(id: nil)
            connection.forget(self)
        case .open(_, let id):
            lifecycle = .over(id: id)
            requestEnd = .ended(trailers: nil)
            connection.reset(self, id: id, code: .cancel)
        case .over(let id):
            // The response ended while the request was still going: stop sending it.
            guard let id, !requestEnded else { return }
            requestEnd = .ended(trailers: nil)
            connection.reset(self, id: id, code: .cancel)
        }
    }

    /// The exchange completed cleanly (response complete, request sent): nothing to send.
    func release() {
        lifecycle = .over(id: id)
        connection.forget(self)
    }

    /// Marks the stream over and returns the owner to tell, if it had one.
    @discardableResult
    func end() -> UpstreamLegOwner? {
        let owner = self.owner
        lifecycle = .over(id: id)
        return owner
    }
}
