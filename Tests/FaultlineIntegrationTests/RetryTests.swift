import Foundation
import Testing
import FaultlineTestSupport

/// A pooled upstream connection that turns out dead is retried only when that cannot run a
/// request twice: idempotent methods (RFC 9110 §9.2.2), or any method when the upstream
/// provably received nothing.
@Suite(.timeLimit(.minutes(1)))
struct RetryTests {
    static func stack() async throws -> ProxyStack {
        try await ProxyStack.start(origin: try await OriginProcess.counting()) { port in
            var config = ProxyConfig.single(port: port)
            // One loop: the second request is sure to meet the pooled connection.
            config.workers = 1
            return config
        }
    }

    /// Sends `requests` one after another on one client connection; each reply.
    static func sequence(_ port: Int, _ requests: [String]) async throws -> [ParsedResponse?] {
        try await Blocking.run {
            let client = try RawClient(port: port)
            var replies: [ParsedResponse?] = []
            for request in requests {
                try client.send(request)
                replies.append(client.readResponses(1, timeout: .seconds(5)).responses.first)
            }
            return replies
        }
    }

    @Test func idempotentRequestWithABodyIsRetriedAfterAStaleConnection() async throws {
        let stack = try await Self.stack()
        defer { stack.stop() }
        let replies = try await Self.sequence(stack.port, [
            "GET /once HTTP/1.1\r\nHost: a\r\n\r\n",
            "PUT /item HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello",
            "DELETE /item HTTP/1.1\r\nHost: a\r\n\r\n",
        ])
        #expect(replies.map { $0?.status } == [200, 200, 200], "\(stack.origin.output.text)")
        #expect(replies[1]?.text == "ok PUT /item")
        #expect(stack.origin.requests("PUT", "/item").count == 1, "\(stack.origin.output.text)")
        #expect(stack.origin.requests("PUT", "/item").first?.hasSuffix("body=hello") == true)
    }

    @Test func postIsNeverSentTwice() async throws {
        let stack = try await Self.stack()
        defer { stack.stop() }
        // The origin reads the POST and closes without answering: it may have acted on it.
        let replies = try await Self.sequence(stack.port, [
            "GET /warm HTTP/1.1\r\nHost: a\r\n\r\n",
            "POST /close-after-read HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n",
        ])
        #expect(replies.map { $0?.status } == [200, 502])
        try await Task.sleep(for: .milliseconds(300))
        #expect(stack.origin.requests("POST", "/close-after-read").count == 1, "\(stack.origin.output.text)")
    }

    @Test func postOnAConnectionTheOriginDroppedIsNotResent() async throws {
        let stack = try await Self.stack()
        defer { stack.stop() }
        // The origin receives the POST head on the pooled connection and drops it unanswered.
        let replies = try await Self.sequence(stack.port, [
            "GET /once HTTP/1.1\r\nHost: a\r\n\r\n",
            "POST /submit HTTP/1.1\r\nHost: a\r\n\r\n",
        ])
        #expect(replies.map { $0?.status } == [200, 502])
        try await Task.sleep(for: .milliseconds(300))
        let seen = stack.origin.output.lines.map(\.text).filter { $0.contains("POST /submit") }
        #expect(seen.count == 1, "\(stack.origin.output.text)")
    }

    @Test func postAfterTheOriginClosedAnIdleConnectionGoesOutOnceOnAFreshOne() async throws {
        let stack = try await Self.stack()
        defer { stack.stop() }
        let client = try RawClient(port: stack.port)
        let first = try await Blocking.run {
            try client.send("GET /bye HTTP/1.1\r\nHost: a\r\n\r\n")
            return client.readResponses(1).responses.first
        }
        #expect(first?.status == 200)
        try await stack.origin.output.waitForLine(containing: "closed-by-origin")
        try await Task.sleep(for: .milliseconds(100))
        let second = try await Blocking.run {
            try client.send("POST /submit HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\n\r\ndata")
            return client.readResponses(1).responses.first
        }
        #expect(second?.status == 200 && second?.text == "ok POST /submit")
        #expect(stack.origin.requests("POST", "/submit").count == 1, "\(stack.origin.output.text)")
    }

    @Test func manyRequestsAgainstAnOriginThatClosesAfterEachResponse() async throws {
        let stack = try await Self.stack()
        defer { stack.stop() }
        // Idempotent requests must never see a 502 for a connection the origin closed.
        let requests = (0..<30).map { "PUT /bye HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\n\($0 % 10)ab" }
        let replies = try await Self.sequence(stack.port, requests)
        #expect(replies.allSatisfy { $0?.status == 200 }, "\(replies.map { $0?.status })")
        #expect(stack.origin.requests("PUT", "/bye").count == 30, "\(stack.origin.output.text.suffix(2000))")
    }
}
