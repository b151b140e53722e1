import FaultlineHTTP
import FaultlineIO

/// One admin client: requests are decoded one at a time and answered with JSON.
final class AdminConnection: StreamSocketDelegate {
    private static let bodyLimit = 1 << 20

    private let socket: StreamSocket
    private let router: AdminRouter
    private let decoder = HTTP1Decoder(kind: .request)
    private var head: HTTPHead?
    private var body: [UInt8] = []

    init(fd: Int32, peer: SocketAddress?, loop: EventLoop, router: AdminRouter) throws(IOError) {
        self.router = router
        socket = try StreamSocket(fd: fd, loop: loop, peer: peer)
        socket.delegate = self
    }

    func socket(_ socket: StreamSocket, didRead bytes: UnsafeRawBufferPointer) {
        var input = bytes
        while !input.isEmpty && !socket.isClosed {
            let status = decoder.feed(input)
            for event in decoder.events {
                switch event {
                case .head(let decoded):
                    head = decoded
                    body = []
                case .body(let range):
                    body.append(contentsOf: input[range])
                    if body.count > Self.bodyLimit {
                        answer(.error(413, "admin request body larger than \(Self.bodyLimit) bytes"), keepAlive: false)
                        return
                    }
                case .trailers:
                    break
                case .end:
                    finishRequest()
                }
            }
            switch status {
            case .needMore:
                return
            case .messageComplete(let consumed):
                decoder.resume()
                input = UnsafeRawBufferPointer(rebasing: input[consumed...])
            case .upgraded:
                answer(.error(400, "the admin API does not switch protocols"), keepAlive: false)
                return
            case .failed(let error):
                answer(.error(error.status, "bad request: \(error.reason)"), keepAlive: false)
                return
            }
        }
    }

    private func finishRequest() {
        guard let head else { return }
        self.head = nil
        let target = head.targetString
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let request = AdminRequest(method: head.method, path: String(parts.first ?? ""),
                                   query: parts.count > 1 ? String(parts[1]) : "", headers: head.headers, body: body)
        if let refusal = authorize(request) {
            answer(refusal, keepAlive: head.keepAlive)
            return
        }
        answer(router.respond(to: request), keepAlive: head.keepAlive)
    }

    /// Checks the bearer token when one is configured; compares in constant time.
    private func authorize(_ request: AdminRequest) -> AdminResponse? {
        guard let token = router.server.snapshot.config.admin?.token else { return nil }
        let expected = Array(("Bearer " + token).utf8)
        let given = Array((request.headers.first("authorization") ?? "").utf8)
        var difference = UInt8(expected.count == given.count ? 0 : 1)
        for index in 0..<min(expected.count, given.count) { difference |= expected[index] ^ given[index] }
        return difference == 0 ? nil : .error(401, "missing or wrong bearer token")
    }

    private func answer(_ response: AdminResponse, keepAlive: Bool) {
        var out: [UInt8] = []
        HTTP1Encoder.appendStatusLine(status: response.status, reason: [], into: &out)
        // A 204 has neither body nor Content-Length (RFC 9110 §8.6).
        if response.status != 204 {
            HTTP1Encoder.appendField("Content-Type", "application/json".utf8, into: &out)
            HTTP1Encoder.appendField("Content-Length", decimal: UInt64(response.body.count), into: &out)
        }
        if !keepAlive { HTTP1Encoder.appendField("Connection", "close".utf8, into: &out) }
        out.append(contentsOf: "\r\n".utf8)
        out.append(contentsOf: response.body)
        socket.write(out)
        if !keepAlive { socket.closeGracefully() }
    }

    func socketDidReadEOF(_ socket: StreamSocket) {
        socket.closeGracefully()
    }

    func socketDidDrain(_ socket: StreamSocket) {}

    func socketDidConnect(_ socket: StreamSocket) {}

    func socket(_ socket: StreamSocket, didFail error: IOError) {}
}
