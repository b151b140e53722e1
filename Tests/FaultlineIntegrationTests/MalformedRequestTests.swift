import Foundation
import Testing
import FaultlineTestSupport

/// Bad client input gets a clear status, the connection is closed, and nobody else notices.
@Suite(.timeLimit(.minutes(1)))
struct MalformedRequestTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let request: String
        let status: Int
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "not HTTP", request: "HELLO THERE\r\n\r\n", status: 400),
        Case(name: "bad version", request: "GET / HTTP/9.9\r\nHost: a\r\n\r\n", status: 400),
        Case(name: "space in header name", request: "GET / HTTP/1.1\r\nHost: a\r\nBad Name: x\r\n\r\n", status: 400),
        Case(name: "Content-Length and Transfer-Encoding",
             request: "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", status: 400),
        Case(name: "obs-fold", request: "GET / HTTP/1.1\r\nHost: a\r\nX-Folded: one\r\n two\r\n\r\n", status: 400),
        Case(name: "bare CR", request: "GET / HTTP/1.1\r\nHost: a\r\nX-Bad: a\rb\r\n\r\n", status: 400),
        Case(name: "invalid Content-Length", request: "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5x\r\n\r\nhello", status: 400),
        Case(name: "negative Content-Length", request: "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n", status: 400),
        Case(name: "differing duplicate Content-Length",
             request: "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!", status: 400),
        Case(name: "bad chunk size",
             request: "POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n", status: 400),
        Case(name: "oversize target", request: "GET /" + String(repeating: "a", count: 3000) + " HTTP/1.1\r\nHost: a\r\n\r\n", status: 414),
        Case(name: "huge header", request: "GET / HTTP/1.1\r\nHost: a\r\nX-Big: " + String(repeating: "b", count: 6000) + "\r\n\r\n", status: 431),
        Case(name: "too many headers",
             request: "GET / HTTP/1.1\r\nHost: a\r\n" + (0..<40).map { "X-H\($0): v\r\n" }.joined() + "\r\n", status: 431),
    ]

    static func stack() async throws -> ProxyStack {
        try await ProxyStack.demo { port in
            var config = ProxyConfig.single(port: port)
            config.limits = ["max_request_line_bytes": 1024, "max_header_bytes": 4096, "max_header_count": 30]
            return config
        }
    }

    @Test(arguments: cases)
    func rejectedWithStatusAndClosed(_ testCase: Case) async throws {
        let stack = try await Self.stack()
        defer { stack.stop() }
        let reply = try await Blocking.run {
            let client = try RawClient(port: stack.port)
            try client.send(testCase.request)
            return client.readUntilClose(timeout: .seconds(5))
        }
        let text = String(decoding: reply.bytes, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 \(testCase.status)"), "\(testCase.name): got \(text.debugDescription)")
        #expect(reply.closed, "\(testCase.name): connection left open")
        let responses = HTTPResponseParser.parse(reply.bytes, closed: true)
        #expect(responses.count == 1, "\(testCase.name): exactly one response, got \(text.debugDescription)")
        #expect(!(responses.first?.body.isEmpty ?? true), "\(testCase.name): error has a short body saying why")
    }

    @Test func otherConnectionsAreUnaffected() async throws {
        let stack = try await Self.stack()
        defer { stack.stop() }
        let bystander = try RawClient(port: stack.port)
        defer { bystander.close() }
        let before = try await Blocking.run {
            try bystander.send("GET /64 HTTP/1.1\r\nHost: a\r\n\r\n")
            return bystander.readResponses(1)
        }
        #expect(before.responses.first?.status == 200)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for testCase in Self.cases {
                group.addTask {
                    _ = try await Blocking.run {
                        let client = try RawClient(port: stack.port)
                        try client.send(testCase.request)
                        return client.readUntilClose(timeout: .seconds(5))
                    }
                }
            }
            try await group.waitForAll()
        }
        let after = try await Blocking.run {
            try bystander.send("GET /json HTTP/1.1\r\nHost: a\r\n\r\n")
            return bystander.readResponses(1)
        }
        #expect(after.responses.first?.status == 200)
        let fresh = try await Curl.run([stack.url("/64")])
        #expect(fresh.text.contains("sixty-four bytes"))
    }

    @Test func slowClientHeaderTimesOut() async throws {
        let stack = try await ProxyStack.demo { port in
            var config = ProxyConfig.single(port: port)
            config.clientHeaderMs = 500
            return config
        }
        defer { stack.stop() }
        let reply = try await Blocking.run {
            let client = try RawClient(port: stack.port)
            try client.send("GET / HTTP/1.1\r\nHost: a\r\n")
            return client.readUntilClose(timeout: .seconds(4))
        }
        #expect(reply.closed, "a request head that never completes must be timed out")
        let text = String(decoding: reply.bytes, as: UTF8.self)
        #expect(text.isEmpty || text.hasPrefix("HTTP/1.1 408"), "\(text)")
    }

    @Test func idleKeepAliveConnectionIsClosedAfterClientIdle() async throws {
        let stack = try await ProxyStack.demo { port in
            var config = ProxyConfig.single(port: port)
            config.clientIdleMs = 500
            return config
        }
        defer { stack.stop() }
        let reply = try await Blocking.run {
            let client = try RawClient(port: stack.port)
            try client.send("GET /64 HTTP/1.1\r\nHost: a\r\n\r\n")
            let start = ContinuousClock.now
            let result = client.readUntilClose(timeout: .seconds(10))
            return (result, ContinuousClock.now - start)
        }
        #expect(HTTPResponseParser.parse(reply.0.bytes).first?.status == 200)
        #expect(reply.0.closed, "an idle keep-alive connection must be closed after client_idle")
        #expect(reply.1 < .seconds(8), "closed after \(reply.1)")
    }
}
