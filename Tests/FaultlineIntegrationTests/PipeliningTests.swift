import Foundation
import Testing
import FaultlineTestSupport

/// Pipelined requests get exactly their own responses, in order, even when the proxy answers
/// some of them itself (no route, a status fault, a refused body).
@Suite(.timeLimit(.minutes(1)))
struct PipeliningTests {
    /// `/api` goes to the counting origin, `/down` is answered by a 503 fault, anything else is 404.
    static func stack() async throws -> FaultStack {
        let origin = try await OriginProcess.counting()
        return try await FaultStack.start(routes: [
            .init(name: "api", match: #"{"path_prefix": "/api"}"#),
            .init(name: "down", match: #"{"path_prefix": "/down"}"#, faults: #"[{"status": 503}]"#),
        ], topLevel: #""limits": {"max_request_body_bytes": 1000}"#, origin: origin)
    }

    static func exchange(_ port: Int, _ requests: [String], expecting count: Int) async throws -> (responses: [ParsedResponse], closed: Bool) {
        try await Blocking.run {
            let client = try RawClient(port: port)
            try client.send(requests.joined())
            return client.readResponses(count, timeout: .seconds(5))
        }
    }

    @Test func locallyAnsweredRequestsKeepTheirPlace() async throws {
        let stack = try await Self.stack()
        defer { stack.stop() }
        let requests = [
            "GET /api/1 HTTP/1.1\r\nHost: a\r\n\r\n",
            "GET /nowhere/2 HTTP/1.1\r\nHost: a\r\n\r\n",
            "GET /api/3 HTTP/1.1\r\nHost: a\r\n\r\n",
            "GET /down/4 HTTP/1.1\r\nHost: a\r\n\r\n",
            "POST /nowhere/5 HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello",
            "POST /down/6 HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
            "GET /api/7 HTTP/1.1\r\nHost: a\r\n\r\n",
        ]
        let reply = try await Self.exchange(stack.proxy.port, requests, expecting: requests.count)
        #expect(reply.responses.map(\.status) == [200, 404, 200, 503, 404, 503, 200], "\(reply.responses.map(\.status))")
        guard reply.responses.count == requests.count else { return }
        #expect(reply.responses[0].text == "ok GET /api/1")
        #expect(reply.responses[2].text == "ok GET /api/3")
        #expect(reply.responses[6].text == "ok GET /api/7")
    }

    @Test func requestsBehindALocalAnswerAreNotStranded() async throws {
        let stack = try await Self.stack()
        defer { stack.stop() }
        // Only answered by the proxy: a stranded tail would never be answered at all.
        let requests = (1...5).map { "GET /nowhere/\($0) HTTP/1.1\r\nHost: a\r\n\r\n" }
            + ["GET /api/last HTTP/1.1\r\nHost: a\r\n\r\n"]
        let reply = try await Self.exchange(stack.proxy.port, requests, expecting: requests.count)
        #expect(reply.responses.map(\.status) == [404, 404, 404, 404, 404, 200])
        #expect(reply.responses.last?.text == "ok GET /api/last")
    }

    @Test func laterRequestsOnTheConnectionStayInOrder() async throws {
        let stack = try await Self.stack()
        defer { stack.stop() }
        let reply = try await Blocking.run {
            let client = try RawClient(port: stack.proxy.port)
            try client.send("GET /down/1 HTTP/1.1\r\nHost: a\r\n\r\nGET /api/2 HTTP/1.1\r\nHost: a\r\n\r\n")
            let first = client.readResponses(2, timeout: .seconds(5))
            try client.send("GET /api/3 HTTP/1.1\r\nHost: a\r\n\r\n")
            let second = client.readResponses(1, timeout: .seconds(5))
            return (first.responses, second.responses)
        }
        #expect(reply.0.map(\.status) == [503, 200])
        #expect(reply.0.last?.text == "ok GET /api/2")
        #expect(reply.1.map(\.text) == ["ok GET /api/3"])
    }

    @Test func anOversizeBodyEndsThePipelineAfterTheEarlierAnswers() async throws {
        let stack = try await Self.stack()
        defer { stack.stop() }
        let big = String(repeating: "x", count: 5000)
        let requests = [
            "GET /api/1 HTTP/1.1\r\nHost: a\r\n\r\n",
            "POST /api/2 HTTP/1.1\r\nHost: a\r\nContent-Length: 5000\r\n\r\n\(big)",
            "GET /api/3 HTTP/1.1\r\nHost: a\r\n\r\n",
        ]
        let reply = try await Blocking.run {
            let client = try RawClient(port: stack.proxy.port)
            try client.send(requests.joined())
            return client.readUntilClose(timeout: .seconds(5))
        }
        let responses = HTTPResponseParser.parse(reply.bytes)
        #expect(reply.closed, "the body was not read: the connection must close")
        #expect(responses.map(\.status) == [200, 413], "\(String(decoding: reply.bytes, as: UTF8.self).prefix(400))")
        #expect(stack.origin.requests("POST", "/api/2").isEmpty && stack.origin.requests("GET", "/api/3").isEmpty)
    }

    /// A request the proxy refuses itself (no route) whose body arrives in a later read: the
    /// body is read and dropped, and the same connection serves the request behind it, as
    /// nginx and HAProxy do. It used to be answered and closed as soon as a read ended inside
    /// its body, which broke a pipelining client mid-send (`send failed: errno 32`).
    @Test(arguments: [
        "Content-Length: 10\r\n\r\nhello",
        "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n",
    ])
    func aRefusedRequestWhoseBodyArrivesLaterKeepsTheConnection(_ firstPart: String) async throws {
        let stack = try await Self.stack()
        defer { stack.stop() }
        let rest = firstPart.hasPrefix("Content-Length") ? "world" : "5\r\nworld\r\n0\r\n\r\n"
        let reply = try await Blocking.run {
            let client = try RawClient(port: stack.proxy.port)
            try client.send("POST /nowhere/1 HTTP/1.1\r\nHost: a\r\n\(firstPart)")
            // Not a timing assertion: the pause makes the proxy read the head and the first
            // part of the body on their own, which is the case under test.
            Thread.sleep(forTimeInterval: 0.3)
            try client.send(rest + "GET /api/2 HTTP/1.1\r\nHost: a\r\n\r\n")
            return client.readResponses(2, timeout: .seconds(10))
        }
        #expect(reply.responses.map(\.status) == [404, 200])
        #expect(reply.responses.last?.text == "ok GET /api/2")
        #expect(stack.origin.requests("POST", "/nowhere/1").isEmpty)
    }

    /// A client that waits for `100 Continue` before its body gets the refusal without
    /// sending it (RFC 9110 §10.1.1), and the connection closes since the body never came.
    @Test func aRefusedRequestExpectingContinueIsAnsweredWithoutItsBody() async throws {
        let stack = try await Self.stack()
        defer { stack.stop() }
        let reply = try await Blocking.run {
            let client = try RawClient(port: stack.proxy.port)
            try client.send("POST /nowhere/1 HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 10\r\n\r\n")
            return client.readUntilClose(timeout: .seconds(10))
        }
        #expect(HTTPResponseParser.parse(reply.bytes).map(\.status) == [404])
        #expect(reply.closed)
    }

    /// A seeded mix of forwarded, refused-by-route and fault-answered requests, with and
    /// without bodies, written in fragments of random size: each answer is the one its
    /// request asked for, in order.
    @Test func mixedPipelineInFragmentsStaysInStep() async throws {
        let stack = try await Self.stack()
        defer { stack.stop() }
        // FAULTLINE_TEST_SEED replays a reported sequence.
        var generator = SystemRandomNumberGenerator()
        var seed = ProcessInfo.processInfo.environment["FAULTLINE_TEST_SEED"].flatMap { UInt64($0) }
            ?? UInt64.random(in: 1...UInt64.max, using: &generator)
        func next(_ bound: Int) -> Int {
            // xorshift64*: a failure names its seed, so it can be replayed.
            seed ^= seed >> 12; seed ^= seed << 25; seed ^= seed >> 27
            return Int((seed &* 2685821657736338717) % UInt64(bound))
        }
        let startSeed = seed
        var requests: [String] = []
        var expected: [(status: Int, text: String?)] = []
        for index in 0..<40 {
            let body = String(repeating: "b", count: next(50))
            let framing = next(3)
            let bodyPart: String
            switch framing {
            case 0: bodyPart = "\r\n"
            case 1: bodyPart = "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
            default: bodyPart = "Transfer-Encoding: chunked\r\n\r\n" + (body.isEmpty ? "" : String(body.utf8.count, radix: 16) + "\r\n\(body)\r\n") + "0\r\n\r\n"
            }
            let method = framing == 0 ? "GET" : "POST"
            switch next(3) {
            case 0:
                requests.append("\(method) /api/\(index) HTTP/1.1\r\nHost: a\r\n\(bodyPart)")
                expected.append((200, "ok \(method) /api/\(index)"))
            case 1:
                requests.append("\(method) /nowhere/\(index) HTTP/1.1\r\nHost: a\r\n\(bodyPart)")
                expected.append((404, nil))
            default:
                requests.append("\(method) /down/\(index) HTTP/1.1\r\nHost: a\r\n\(bodyPart)")
                expected.append((503, nil))
            }
        }
        var fragments: [[UInt8]] = []
        var bytes = Array(requests.joined().utf8)
        while !bytes.isEmpty {
            let size = min(bytes.count, 1 + next(200))
            fragments.append(Array(bytes.prefix(size)))
            bytes.removeFirst(size)
        }
        let sending = fragments
        let count = expected.count
        let reply: (responses: [ParsedResponse], closed: Bool)
        do {
            reply = try await Blocking.run {
                let client = try RawClient(port: stack.proxy.port)
                for fragment in sending { try client.send(fragment) }
                return client.readResponses(count, timeout: .seconds(10))
            }
        } catch {
            // Every failure path names the seed, so the sequence can be replayed.
            Issue.record("seed \(startSeed): \(error)")
            return
        }
        #expect(reply.responses.map(\.status) == expected.map(\.status), "seed \(startSeed)")
        for (response, want) in zip(reply.responses, expected) {
            if let text = want.text { #expect(response.text == text, "seed \(startSeed)") }
        }
    }
}
