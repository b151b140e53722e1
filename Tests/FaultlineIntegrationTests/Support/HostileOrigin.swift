import Foundation
import FaultlineTestSupport

/// A Python origin for the head-validation and smuggling tests, and a proxy in front of it.
///
/// The origin parses every request it receives strictly (Content-Length or chunked body,
/// trailers) and logs it as one line, `conn N request <request line> <JSON of headers,
/// trailers, body>`, so a test can see exactly what reached the upstream and on which
/// connection. It answers:
/// - `/r/<name>`: the canned, hostile raw response `<name>` of `responses` (then keeps the
///   connection open unless the response is close-delimited);
/// - any other path: 200 JSON `{"target", "headers", "trailers", "body"}`, `Content-Length`.
final class HostileOrigin: Sendable {
    /// Canned responses by name; each is sent as it is.
    static let responses: [String: String] = [
        "cl-204": "HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\n",
        "te-204": "HTTP/1.1 204 No Content\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        "cl-103": "HTTP/1.1 103 Early Hints\r\nContent-Length: 0\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
        "te-304": "HTTP/1.1 304 Not Modified\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        "connection-cl": "HTTP/1.1 200 OK\r\nConnection: content-length\r\nContent-Length: 5\r\n\r\nhello",
        "connection-te": "HTTP/1.1 200 OK\r\nConnection: transfer-encoding\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
        "connection-host": "HTTP/1.1 200 OK\r\nConnection: keep-alive, Host\r\nContent-Length: 5\r\n\r\nhello",
        "empty-name": "HTTP/1.1 200 OK\r\n: x\r\nContent-Length: 2\r\n\r\nok",
        "fold-empty": "HTTP/1.1 200 OK\r\nX-Folded:\r\n folded\r\nContent-Length: 2\r\n\r\nok",
        "http10-te": "HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n",
        "status-600": "HTTP/1.1 600 Beyond\r\nContent-Length: 2\r\n\r\nok",
        "101-no-upgrade": "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\n\r\n",
        "reason-control": "HTTP/1.1 200 O\u{01}K\r\nContent-Length: 2\r\n\r\nok",
        "bad-trailers": "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n"
            + "Content-Length: 99\r\nSet-Cookie: trailer-cookie=1\r\nTrailer: X-Checksum\r\nX-Checksum: abc123\r\n\r\n",
        "gzip-chunked": "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
        "chunked-gzip": "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
        // Not a coding name (a space inside): read until close, it was forwarded re-framed as
        // `c hunked, chunked`, which a recipient that drops the space reads as chunked twice.
        "te-trailing-comma": "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked,\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
        "te-not-token": "HTTP/1.1 200 OK\r\nTransfer-Encoding: c hunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
        "ok": "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
        "close-field": "HTTP/1.1 200 OK\r\nConnection: close\r\nClose: hop-value\r\nX-Kept: yes\r\nContent-Length: 2\r\n\r\nok",
    ]

    static let source = PythonOriginPrelude.source + #"""
RESPONSES = json.loads(sys.argv[1])

def handle(sock, n):
    conn = Conn(sock, n)
    while True:
        request_line = conn.line().decode("latin-1")
        headers = fields(conn)
        lower = {k.lower(): v for k, v in headers}
        body, trailers = read_body(conn, lower)
        target = request_line.split(" ")[1] if " " in request_line else ""
        seen = {"target": target, "headers": headers, "trailers": trailers, "body": body.decode("latin-1")}
        log("conn %d request %s %s" % (n, request_line, json.dumps(seen)))
        if target.startswith("/r/") and target[3:] in RESPONSES:
            sock.sendall(RESPONSES[target[3:]].encode("latin-1"))
            continue
        payload = json.dumps(seen).encode()
        sock.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(payload) + payload)

serve(handle, errors=(OSError, ValueError))
"""#

    private let process: PythonScriptProcess

    var port: Int { process.port }
    var output: OutputLog { process.output }

    private init(process: PythonScriptProcess) { self.process = process }

    /// Starts the origin and waits until it listens.
    static func start() async throws -> HostileOrigin {
        let canned = try JSONSerialization.data(withJSONObject: responses, options: [.sortedKeys])
        let process = try await PythonScriptProcess.start("hostile_origin.py", source: source) { _ in
            [String(decoding: canned, as: UTF8.self)]
        }
        return HostileOrigin(process: process)
    }

    /// The request lines the origin logged (`conn N request ...`), in arrival order.
    var requests: [String] {
        output.settledLines.map(\.text).filter { $0.contains(" request ") }
    }

    /// The number of the upstream connection a request for `target` arrived on (waits for its line).
    func connection(of target: String) async throws -> Int {
        let line = try await output.waitForLine("the origin to log \(target)", timeout: .seconds(5)) {
            $0.contains(" request ") && $0.contains(" \(target) ")
        }
        let words = line.text.split(separator: " ")
        guard words.count > 1, let number = Int(words[1]) else { throw TestFailure("no connection number in \(line.text)") }
        return number
    }

    func kill() { process.kill() }
}

/// A `HostileOrigin` behind a Faultline proxy (JSON logging on: its stdout is a pipe).
final class HostileStack: Sendable {
    let origin: HostileOrigin
    let proxy: FaultlineProcess
    private let directory: TemporaryDirectory

    var port: Int { proxy.port }

    private init(origin: HostileOrigin, proxy: FaultlineProcess, directory: TemporaryDirectory) {
        self.origin = origin
        self.proxy = proxy
        self.directory = directory
    }

    /// One worker, so that every client shares one loop and so one upstream pool. The
    /// upstream response timeout is long: on a loaded runner the Python origin may take
    /// seconds to answer, and that must not turn an expected 502 into a 504.
    static func start() async throws -> HostileStack {
        let origin = try await HostileOrigin.start()
        let directory = try TemporaryDirectory()
        var config = ProxyConfig.single(port: origin.port, responseMs: 20_000)
        config.workers = 1
        let path = try directory.write("faultline.json", config.json)
        let proxy = try await FaultlineProcess.run(config: path)
        return HostileStack(origin: origin, proxy: proxy, directory: directory)
    }

    /// Sends `request` on a new connection and reads until `responses` complete responses
    /// arrived (or, with `untilClose`, until the proxy closes), or 25 s pass; returns the raw
    /// bytes too (trailers).
    func exchange(_ request: String, responses: Int = 1, untilClose: Bool = false) async throws
        -> (bytes: [UInt8], parsed: [ParsedResponse], closed: Bool) {
        let port = port
        return try await Blocking.run {
            let client = try RawClient(port: port)
            defer { client.close() }
            try client.send(request)
            return Self.read(client, responses: untilClose ? Int.max : responses)
        }
    }

    /// Reads from `client` until `responses` complete responses, a close, or 25 s (longer
    /// than the upstream response timeout, so a slow origin shows as what it is).
    static func read(_ client: RawClient, responses: Int) -> (bytes: [UInt8], parsed: [ParsedResponse], closed: Bool) {
        let end = ContinuousClock.now + .seconds(25)
        var received: [UInt8] = []
        while ContinuousClock.now < end {
            let parsed = HTTPResponseParser.parse(received)
            if parsed.count >= responses { return (received, parsed, false) }
            switch client.readSome() {
            case .bytes(let bytes): received += bytes
            case .closed, .reset: return (received, HTTPResponseParser.parse(received, closed: true), true)
            case .timedOut: continue
            }
        }
        return (received, HTTPResponseParser.parse(received), false)
    }

    /// Whether the proxy still serves: a plain GET on a new connection gets the origin's 200.
    func stillServes() async throws -> Bool {
        let answer = try await exchange("GET /alive HTTP/1.1\r\nHost: alive.test\r\n\r\n")
        return answer.parsed.first?.status == 200 && answer.parsed.first?.text.contains("/alive") == true
    }

    func stop() {
        proxy.kill()
        origin.kill()
    }
}
