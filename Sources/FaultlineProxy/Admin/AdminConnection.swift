import FaultlineHTTP
import Foundation
import FaultlineIO

/// One admin client: requests are decoded one at a time on the loop, checked (Host, token,
/// Content-Type), then answered with JSON by the router on the admin queue. Counts against
/// `AdminServer.maxConnections` until it is gone; bounded in time by the client timeouts
/// (`timeouts_ms.client_header` for a request to arrive whole, `client_idle` between requests).
final class AdminConnection: StreamSocketDelegate, RequestInputOwner {
    private static let bodyLimit = 1 << 20

    private enum Phase {
        /// No byte of the next request yet; the timer closes the connection.
        case waiting(TimerID)
        /// Part of a request has arrived; the timer bounds the rest.
        case reading(TimerID)
        /// A complete request is being answered on the admin queue; input is held until then.
        /// `closeAfter` once the client has finished sending.
        case answering(closeAfter: Bool)
        /// Streaming live exchanges (`GET /exchanges/stream`) until the client leaves; input is ignored.
        case streaming(AdminLiveStream)
        /// Closed or closing.
        case closed
    }

    private let context: AdminContext
    private let decoder = HTTP1Decoder(kind: .request)
    private var head: HTTPHead?
    private var body: [UInt8] = []
    private var phase = Phase.closed
    private let socket: StreamSocket
    /// Input not decoded yet (what arrived while a request was answered, or while the client
    /// was not reading its answers), the peer's end and reading: the request loop the demo
    /// origin shares.
    private lazy var input = RequestInputLoop(socket: socket, owner: self, maxHeld: Self.heldHighWater,
                                              outputHighWater: Self.outputHighWater)

    /// Past this much held input, reading pauses until it is decoded.
    private static let heldHighWater = 256 * 1024
    /// Past this much unsent output, decoding pauses until the client reads (a flood of
    /// pipelined requests refused on the loop must not queue answers without bound).
    private static let outputHighWater = 64 * 1024

    init(fd: Int32, peer: SocketAddress?, loop: EventLoop, context: AdminContext) throws(IOError) {
        self.context = context
        // Last: if registration fails, no deinit runs and the acceptor releases the count.
        socket = try StreamSocket(fd: fd, loop: loop, peer: peer)
        socket.delegate = self
        phase = .waiting(arm(timeouts.headerMs, expired: .waiting))
    }

    deinit {
        context.connections.release()
    }

    private var timeouts: ClientTimeoutsView {
        let timeouts = context.router.server.snapshot.config.clientTimeouts
        return ClientTimeoutsView(headerMs: timeouts.headerMs, idleMs: timeouts.idleMs)
    }

    // MARK: Reading

    func socket(_ socket: StreamSocket, didRead bytes: UnsafeRawBufferPointer) {
        switch phase {
        case .closed, .streaming: return
        case .waiting, .reading, .answering: break
        }
        input.received(bytes)
    }

    /// Decodes held input now that the last answer went out or the client read its answers.
    private func continueWithHeld() {
        input.resume()
    }

    /// Reads only while held input and unsent output are small.
    private func updateReading() {
        input.updateReading()
    }

    /// Whether the next request may be decoded now: none is being answered, the connection
    /// is open, and the client is reading its answers.
    var canDecode: Bool {
        switch phase {
        case .waiting, .reading: return socket.pendingWriteBytes <= Self.outputHighWater && !socket.isClosed
        case .answering, .streaming, .closed: return false
        }
    }

    /// Decodes requests from `bytes` one after another, iteratively, for as long as each is
    /// answered on the loop; stops when one goes to the admin queue. Returns the bytes used.
    func decode(_ bytes: UnsafeRawBufferPointer) -> Int {
        var used = 0
        while used < bytes.count, canDecode {
            if case .waiting(let timer) = phase {
                socket.loop.cancel(timer)
                phase = .reading(arm(timeouts.headerMs, expired: .reading))
            }
            used += decodeOne(UnsafeRawBufferPointer(rebasing: bytes[used...]))
        }
        return used
    }

    /// Feeds the decoder until a request is complete (it is then answered) or the input runs
    /// out; returns the bytes used (all of them after a refusal that closes).
    private func decodeOne(_ bytes: UnsafeRawBufferPointer) -> Int {
        var input = bytes
        var used = 0
        while !input.isEmpty {
            let status = decoder.feed(input)
            var complete = false
            for event in decoder.events {
                switch event {
                case .head:
                    head = decoder.head
                    body = []
                case .body(let range):
                    body.append(contentsOf: input[range])
                    if body.count > Self.bodyLimit {
                        answerLocally(.error(413, "admin request body larger than \(Self.bodyLimit) bytes"), keepAlive: false)
                        return bytes.count
                    }
                case .trailers:
                    break
                case .end:
                    complete = true
                }
            }
            switch status {
            case .needMore:
                if complete { startAnswer() }
                return bytes.count
            case .messageComplete(let consumed):
                decoder.resume()
                used += consumed
                if complete {
                    startAnswer()
                    return used
                }
                input = UnsafeRawBufferPointer(rebasing: input[consumed...])
            case .upgraded:
                answerLocally(.error(400, "the admin API does not switch protocols"), keepAlive: false)
                return bytes.count
            case .failed(let error):
                answerLocally(.error(error.status, "bad request: \(error.reason)"), keepAlive: false)
                return bytes.count
            }
        }
        return used
    }

    // MARK: Answering

    /// Checks the complete request on the loop; hands what passes to the admin queue.
    private func startAnswer() {
        guard let head else { return }
        self.head = nil
        if case .reading(let timer) = phase { socket.loop.cancel(timer) }
        phase = .answering(closeAfter: false)
        let target = head.targetString
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let request = AdminRequest(method: head.method, path: String(parts.first ?? ""),
                                   query: parts.count > 1 ? String(parts[1]) : "", headers: head.headers, body: body)
        body = []
        if let refusal = refusal(of: request) {
            deliver(refusal, keepAlive: head.keepAlive)
            return
        }
        if request.method == "GET", request.path == AdminLiveStream.path {
            let stream = AdminLiveStream(socket: socket, feed: context.router.server.live, queue: context.streamQueue,
                                         cache: context.streamCache, after: AdminLiveStream.cursor(query: request.query))
            phase = .streaming(stream)
            stream.start(headers: AdminSecurityHeaders.common + [("Content-Security-Policy", AdminSecurityHeaders.apiPolicy)])
            return
        }
        let router = context.router
        let loop = socket.loop
        let reference = AdminConnectionReference(self)
        let keepAlive = head.keepAlive
        context.queue.async {
            let response = router.respond(to: request)
            // If the client went away meanwhile, the connection is gone and so is the answer.
            loop.execute { reference.connection?.deliverFromQueue(response, keepAlive: keepAlive) }
        }
    }

    /// Why the request is refused before any endpoint sees it, if it is.
    private func refusal(of request: AdminRequest) -> AdminResponse? {
        // DNS rebinding: a page on a name that now points here still sends its own name.
        // The device-setup files (the CA certificate, its profile, the PAC file) are fetched by
        // a phone or an emulator, which reach this machine by an IP literal (a LAN address,
        // 10.0.2.2); a rebinding page needs a name, so any IP literal is accepted for them.
        let setupFile = AdminRouter.isDeviceSetupFile(request)
        let hosts = request.headers.count(of: "host")
        let host = request.headers.first("host")
        if hosts != 1 || !(setupFile ? context.hostCheck.allowsPublicFile(host) : context.hostCheck.allows(host)) {
            return .error(421, "the Host header must name the admin API (its address, or localhost, 127.0.0.1 or [::1], with its port)")
        }
        // The dashboard's page, script and style files hold no data: they load without the
        // token, so the page can ask for it. Every request they make carries it. The
        // device-setup files hold only public data and a device's browser has no token.
        if !DashboardAssets.isPublic(request) && !setupFile, let refusal = authorize(request) { return refusal }
        // CSRF: a page on another site can send a form or a "simple" request (text/plain,
        // form-encoded, multipart) without asking; application/json needs a CORS preflight,
        // which this API never grants. DELETE is never simple, so a bodiless one needs no type.
        let safe = request.method == "GET" || request.method == "HEAD" || request.method == "OPTIONS"
        let bodilessDelete = request.method == "DELETE" && request.body.isEmpty && request.headers.first("content-type") == nil
        if !safe && !bodilessDelete && !Self.isJSON(request.headers.first("content-type")) {
            return .error(415, "\(request.method) requests need Content-Type: application/json")
        }
        return nil
    }

    /// Checks the bearer token when one is configured; compares in constant time.
    private func authorize(_ request: AdminRequest) -> AdminResponse? {
        guard let token = context.router.server.snapshot.config.admin?.token else { return nil }
        let expected = Array(("Bearer " + token).utf8)
        let given = Array((request.headers.first("authorization") ?? "").utf8)
        var difference = UInt8(expected.count == given.count ? 0 : 1)
        for index in 0..<min(expected.count, given.count) { difference |= expected[index] ^ given[index] }
        return difference == 0 ? nil : .error(401, "missing or wrong bearer token")
    }

    /// `application/json`, any case, parameters (`; charset=utf-8`) allowed.
    private static func isJSON(_ value: String?) -> Bool {
        guard let value else { return false }
        let type = value.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return type.trimmingCharacters(in: .whitespaces).lowercased() == "application/json"
    }

    /// An answer decided on the loop without the router (malformed or oversized input).
    private func answerLocally(_ response: AdminResponse, keepAlive: Bool) {
        if case .reading(let timer) = phase { socket.loop.cancel(timer) }
        if case .waiting(let timer) = phase { socket.loop.cancel(timer) }
        phase = .answering(closeAfter: false)
        deliver(response, keepAlive: keepAlive)
    }

    /// The router's answer, back on the loop: written, then the held input goes on.
    func deliverFromQueue(_ response: AdminResponse, keepAlive: Bool) {
        deliver(response, keepAlive: keepAlive)
        continueWithHeld()
        updateReading()
    }

    /// Writes the answer (on the loop), then waits for the next request or closes. Never
    /// decodes further input itself (its callers do, iteratively).
    private func deliver(_ response: AdminResponse, keepAlive: Bool) {
        guard case .answering(let closeAfter) = phase, !socket.isClosed else { return }
        var out: [UInt8] = []
        HTTP1Encoder.appendStatusLine(status: response.status, reason: [], into: &out)
        // A 204 has neither body nor Content-Length (RFC 9110 §8.6).
        if response.status != 204 {
            HTTP1Encoder.appendField("Content-Type", response.contentType.utf8, into: &out)
            HTTP1Encoder.appendField("Content-Length", decimal: UInt64(response.body.count), into: &out)
        }
        for (name, value) in AdminSecurityHeaders.common + response.headers { HTTP1Encoder.appendField(name, value.utf8, into: &out) }
        let staying = keepAlive && !closeAfter
        if !staying { HTTP1Encoder.appendField("Connection", "close".utf8, into: &out) }
        out.append(contentsOf: "\r\n".utf8)
        out.append(contentsOf: response.body)
        _ = socket.write(out)
        guard staying, !socket.isClosed else {
            close()
            return
        }
        phase = .waiting(arm(timeouts.idleMs, expired: .waiting))
    }

    // MARK: Time limits

    private enum Expiry {
        case waiting
        case reading
    }

    /// A timer that closes the connection if it is still in the phase it was armed for.
    private func arm(_ milliseconds: Int, expired: Expiry) -> TimerID {
        socket.loop.schedule(afterMilliseconds: milliseconds) { [weak self] in
            guard let self else { return }
            switch (self.phase, expired) {
            case (.waiting, .waiting):
                self.close()
            case (.reading, .reading):
                // Part of a request came, too slowly: say so, as the proxy does (408).
                self.phase = .answering(closeAfter: true)
                self.deliver(.error(408, "request not received within \(self.timeouts.headerMs) ms"), keepAlive: false)
            default:
                break
            }
        }
    }

    private func close() {
        switch phase {
        case .waiting(let timer), .reading(let timer):
            socket.loop.cancel(timer)
        case .streaming(let stream):
            stream.stop()
        case .answering, .closed:
            break
        }
        // Held input is dropped by the loop (after its pass, if one is running).
        phase = .closed
        input.finish()
        socket.closeGracefully()
    }

    // MARK: Socket events

    func socketDidReadEOF(_ socket: StreamSocket) {
        if case .answering = phase { phase = .answering(closeAfter: true) }
        input.peerEnded()
    }

    /// The client finished sending and nothing is held: close, or once the answer in
    /// progress is out.
    func inputEnded() {
        switch phase {
        case .answering:
            phase = .answering(closeAfter: true)
        case .waiting, .reading, .streaming:
            close()
        case .closed:
            break
        }
    }

    func socketDidDrain(_ socket: StreamSocket) {
        // The client read its answers: decoding (and reading) may go on.
        continueWithHeld()
        updateReading()
    }

    func socketDidConnect(_ socket: StreamSocket) {}

    func socket(_ socket: StreamSocket, didFail error: IOError) {
        if case .streaming(let stream) = phase { stream.stop() }
        phase = .closed
        input.finish()
    }
}

/// The two client timeouts an admin connection uses.
private struct ClientTimeoutsView {
    let headerMs: Int
    let idleMs: Int
}

/// Lets the admin queue hand an answer back to its connection without keeping it alive:
/// created and read on the connection's loop only.
private final class AdminConnectionReference: @unchecked Sendable {
    weak var connection: AdminConnection?

    init(_ connection: AdminConnection) {
        self.connection = connection
    }
}
