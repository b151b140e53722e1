import Foundation
import Testing
import FaultlineTestSupport

/// HTTP/1.x details a proxy must get right: trailers, interim responses, HTTP/1.0 clients,
/// bodiless statuses, upstream connection reuse, Host handling, body limits.
@Suite(.timeLimit(.minutes(1)))
struct ProtocolDetailTests {
    @Test func responseTrailersReachTheClient() async throws {
        let stack = try await ProxyStack.scripted()
        defer { stack.stop() }
        let reply = try await Blocking.run {
            let client = try RawClient(port: stack.port)
            try client.send("GET /trailers HTTP/1.1\r\nHost: a\r\nTE: trailers\r\nConnection: close\r\n\r\n")
            return client.readUntilClose()
        }
        let text = String(decoding: reply.bytes, as: UTF8.self)
        #expect(HTTPResponseParser.parse(reply.bytes, closed: true).first?.text == "hello", "\(text.debugDescription)")
        #expect(text.contains("0\r\nX-Checksum: abc123\r\n\r\n"), "trailer lost: \(text.debugDescription)")
    }

    @Test func requestTrailersReachTheOrigin() async throws {
        let stack = try await ProxyStack.scripted()
        defer { stack.stop() }
        let reply = try await Blocking.run {
            let client = try RawClient(port: stack.port)
            try client.send("POST /headers HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nTrailer: X-Request-Trailer\r\n\r\n"
                            + "5\r\nhello\r\n6\r\n world\r\n0\r\nX-Request-Trailer: t1\r\n\r\n")
            return client.readResponses(1)
        }
        let response = try #require(reply.responses.first)
        let echo = try JSONObject.parse(response.body)
        #expect(echo["body_bytes"] as? Int == 11)
        let trailers = echo["trailers"] as? [[String]] ?? []
        #expect(trailers.contains(["X-Request-Trailer", "t1"]), "origin got trailers \(trailers)")
    }

    @Test func interimResponsesAreForwarded() async throws {
        let stack = try await ProxyStack.scripted()
        defer { stack.stop() }
        let reply = try await Blocking.run {
            let client = try RawClient(port: stack.port)
            try client.send("GET /early-hints HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
            return client.readUntilClose()
        }
        let responses = HTTPResponseParser.parse(reply.bytes, closed: true)
        #expect(responses.map(\.status) == [103, 200], "\(String(decoding: reply.bytes, as: UTF8.self).debugDescription)")
        #expect(responses.last?.text == "final")
        #expect(responses.first?.header("Link") == "</style.css>; rel=preload")
    }

    @Test func http10ClientNeverGetsChunkedEncoding() async throws {
        let stack = try await ProxyStack.demo()
        defer { stack.stop() }
        for path in ["/bytes/1000?chunked=1", "/bytes/1000?close=1", "/bytes/1000"] {
            let reply = try await Blocking.run {
                let client = try RawClient(port: stack.port)
                try client.send("GET \(path) HTTP/1.0\r\n\r\n")
                return client.readUntilClose()
            }
            #expect(reply.closed, "\(path)")
            let response = try #require(HTTPResponseParser.parse(reply.bytes, closed: true).first, "\(path)")
            #expect(response.status == 200)
            #expect(response.header("Transfer-Encoding") == nil, "\(path): chunked sent to an HTTP/1.0 client")
            #expect(response.body == BytePattern.modulo251(1000), "\(path): body differs")
        }
    }

    @Test func bodilessStatusesKeepThePipelineInStep() async throws {
        let stack = try await ProxyStack.demo()
        defer { stack.stop() }
        let reply = try await Blocking.run {
            let client = try RawClient(port: stack.port)
            try client.send("GET /status/204 HTTP/1.1\r\nHost: a\r\n\r\nGET /status/304 HTTP/1.1\r\nHost: a\r\n\r\n"
                            + "HEAD /json HTTP/1.1\r\nHost: a\r\n\r\nGET /64 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
            return client.readUntilClose()
        }
        let text = String(decoding: reply.bytes, as: UTF8.self)
        // The HEAD response has a Content-Length but no body, so split by hand.
        let heads = text.components(separatedBy: "HTTP/1.1 ").dropFirst().map { $0.prefix(3) }
        #expect(heads == ["204", "304", "200", "200"], "\(text.debugDescription)")
        #expect(text.hasSuffix("sixty-four bytes of text for benchmarks.\n"), "\(text.debugDescription)")
    }

    @Test func upstreamConnectionsAreReused() async throws {
        let stack = try await ProxyStack.scripted()
        defer { stack.stop() }
        let urls = (0..<5).map { stack.url("/headers?n=\($0)") }
        let result = try await Curl.run(urls.flatMap { ["-o", "/dev/null", $0] })
        #expect(result.exitCode == 0, "\(result.stderr)")
        for index in 0..<4 {
            let again = try await Curl.run(["-o", "/dev/null", stack.url("/headers?again=\(index)")])
            #expect(again.exitCode == 0)
        }
        let log = stack.origin.output
        try await log.waitForLine("nine requests at the origin", timeout: .seconds(5)) { _ in
            log.lines.filter { $0.text.contains("request GET /headers") }.count >= 9
        }
        let opened = log.lines.filter { $0.text.hasSuffix(" open") }.count
        // One pool per event loop (2 workers): at most two upstream connections for nine sequential requests.
        #expect(opened <= 2, "\(opened) upstream connections for 9 sequential requests:\n\(log.text)")
    }

    /// The origin closes a keep-alive connection right after answering (as servers with a short
    /// keep-alive timeout do). The next request must not fail on the dead pooled connection.
    @Test func pooledConnectionClosedByTheOriginIsNotReusedForAFailure() async throws {
        let stack = try await ProxyStack.scripted()
        defer { stack.stop() }
        let first = try await Curl.run(["-w", "\n%{http_code}", stack.url("/headers?then=close")])
        #expect(first.text.hasSuffix("\n200"))
        try await stack.origin.output.waitForLine(containing: "closed-by-origin")
        for index in 0..<3 {
            let next = try await Curl.run(["-o", "/dev/null", "-w", "%{http_code}", stack.url("/headers?then=close&i=\(index)")])
            #expect(next.text == "200", "request \(index) after the origin closed its pooled connection got \(next.text)")
            try await stack.origin.output.waitForLine(containing: "i=\(index)")
        }
        let post = try await Curl.run(["-o", "/dev/null", "-w", "%{http_code}", "--data-binary", "x", stack.url("/headers")])
        #expect(post.text == "200", "a POST after the origin closed its pooled connection got \(post.text)")
    }

    @Test func hostHeaderRewrittenWhenTheUpstreamAsksForIt() async throws {
        let stack = try await ProxyStack.scripted { port in
            var config = ProxyConfig.single(port: port)
            config.upstreams["o"]?.hostHeader = "upstream"
            return config
        }
        defer { stack.stop() }
        let result = try await Curl.run(["-H", "Host: app.example", stack.url("/headers")])
        let headers = (try JSONObject.parse(result.stdout)["headers"] as? [[String]] ?? []).map { ($0[0].lowercased(), $0[1]) }
        #expect(headers.first { $0.0 == "host" }?.1 == "127.0.0.1:\(stack.origin.port)", "\(headers)")
        #expect(headers.first { $0.0 == "x-forwarded-host" }?.1 == "app.example", "\(headers)")
    }

    @Test func requestBodyLimitGets413() async throws {
        let stack = try await ProxyStack.demo { port in
            var config = ProxyConfig.single(port: port)
            config.limits = ["max_request_body_bytes": 1000]
            return config
        }
        defer { stack.stop() }
        let directory = try TemporaryDirectory()
        let file = try directory.write("big.bin", Data(BytePattern.random(5000)))
        let small = try await Curl.run(["-o", "/dev/null", "-w", "%{http_code}", "--data-binary", "hello", stack.url("/echo")])
        #expect(small.text == "200")
        let large = try await Curl.run(["-o", "/dev/null", "-w", "%{http_code}", "--data-binary", "@\(file)", stack.url("/echo")])
        #expect(large.text == "413", "\(large.text) \(large.stderr)")
        let chunked = try await Curl.run(["-o", "/dev/null", "-w", "%{http_code}", "-H", "Transfer-Encoding: chunked",
                                          "--data-binary", "@\(file)", stack.url("/echo")])
        #expect(chunked.text == "413", "\(chunked.text) \(chunked.stderr)")
    }

    /// RFC 9112 §3.2: "A server MUST respond with a 400 (Bad Request) status code to any
    /// HTTP/1.1 request message that lacks a Host header field and to any request message
    /// that contains more than one Host header field line or a Host header field with an
    /// invalid field value." Two Hosts also let a client choose which one a host route sees.
    @Test(arguments: [
        "GET /64 HTTP/1.1\r\n\r\n",
        "GET /64 HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
    ])
    func hostMissingOrDuplicatedGets400(_ request: String) async throws {
        let stack = try await ProxyStack.demo()
        defer { stack.stop() }
        let reply = try await Blocking.run {
            let client = try RawClient(port: stack.port)
            try client.send(request)
            return client.readUntilClose(timeout: .seconds(3))
        }
        let text = String(decoding: reply.bytes, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 400"), "\(request.debugDescription) → \(text.debugDescription)")
        #expect(reply.closed)
    }
}
