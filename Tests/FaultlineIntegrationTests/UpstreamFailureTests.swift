import Foundation
import Testing
import FaultlineTestSupport

/// What a client sees when the upstream is down, slow, broken or dies mid-response.
@Suite(.timeLimit(.minutes(1)))
struct UpstreamFailureTests {
    @Test func upstreamDownGets502NamingTheCause() async throws {
        let port = try FreePort.closed()
        let directory = try TemporaryDirectory()
        let config = try directory.write("faultline.json", ProxyConfig.single(port: port).json)
        let proxy = try await FaultlineProcess.run(config: config)
        defer { proxy.kill() }
        let result = try await Curl.run(["-w", "\n%{http_code}", proxy.url("/anything")])
        #expect(result.exitCode == 0)
        #expect(result.text.hasSuffix("\n502"), "\(result.text)")
        let body = result.text.lowercased()
        #expect(body.contains("upstream") && (body.contains("unreachable") || body.contains("refused")), "\(result.text)")
        let session = try await HTTPClient().send(proxy.url("/again"))
        #expect(session.status == 502)
        #expect(session.header("Content-Type")?.hasPrefix("text/plain") == true, "\(session.headers)")
    }

    @Test func slowUpstreamGets504() async throws {
        let stack = try await ProxyStack.demo { port in .single(port: port, responseMs: 500) }
        defer { stack.stop() }
        // curl measures the time itself, so a busy test runner cannot inflate it.
        let result = try await Curl.run(["-w", "\n%{http_code} %{time_total}", stack.url("/delay/10000")])
        let lines = result.text.split(separator: "\n")
        let summary = lines.last?.split(separator: " ") ?? []
        #expect(summary.first == "504", "\(result.text)")
        let body = lines.dropLast().joined(separator: "\n").lowercased()
        #expect(body.contains("did not answer") || body.contains("time"), "504 body should say the upstream was too slow: \(result.text)")
        let seconds = summary.count == 2 ? Double(summary[1]) ?? 99 : 99
        #expect(seconds < 3, "504 came after \(seconds) s; the response timeout is 0.5 s and the origin answers after 10 s")
        // Fast requests still pass.
        let fast = try await Curl.run([stack.url("/64")])
        #expect(fast.text.contains("sixty-four bytes"))
    }

    @Test func upstreamGarbageGets502AndNothingPassesThrough() async throws {
        let stack = try await ProxyStack.scripted()
        defer { stack.stop() }
        let result = try await Curl.run(["-w", "\n%{http_code}", stack.url("/garbage")])
        #expect(result.text.hasSuffix("\n502"), "\(result.text)")
        #expect(!result.text.contains("SSH-2.0"), "garbage passed through: \(result.text)")
        #expect(result.text.lowercased().contains("invalid"), "\(result.text)")
        // Ambiguous framing from the origin is never passed on.
        for path in ["/both-lengths", "/bad-length"] {
            let framing = try await Curl.run(["-w", "\n%{http_code}", stack.url(path)])
            #expect(framing.text.hasSuffix("\n502"), "\(path): \(framing.text)")
            #expect(!framing.text.hasPrefix("hello"), "\(path): \(framing.text)")
        }
    }

    @Test func upstreamClosingMidBodyIsAnErrorForTheClient() async throws {
        let stack = try await ProxyStack.scripted()
        defer { stack.stop() }
        for path in ["/midbody", "/midchunk"] {
            let result = try await Curl.run(["-o", "/dev/null", stack.url(path)])
            #expect([18, 56].contains(result.exitCode),
                    "\(path): curl exit \(result.exitCode) (\(result.stderr)); a silently short body is not allowed")
        }
        let session = HTTPClient()
        await #expect(throws: (any Error).self, "URLSession must see an error, not a short body") {
            _ = try await session.send(stack.url("/midbody"))
        }
    }

    @Test func failuresDoNotDisturbOtherConnections() async throws {
        let stack = try await ProxyStack.scripted { port in .single(port: port, responseMs: 1000) }
        defer { stack.stop() }
        // A keep-alive connection established before the failures...
        let client = try RawClient(port: stack.port)
        defer { client.close() }
        let first = try await Blocking.run {
            try client.send("GET /headers HTTP/1.1\r\nHost: a\r\n\r\n")
            return client.readResponses(1)
        }
        #expect(first.responses.first?.status == 200)
        async let garbage = Curl.run(["-o", "/dev/null", "-w", "%{http_code}", stack.url("/garbage")])
        async let midbody = Curl.run(["-o", "/dev/null", stack.url("/midbody")])
        async let hang = Curl.run(["-o", "/dev/null", "-w", "%{http_code}", stack.url("/hang")])
        let results = try await (garbage, midbody, hang)
        #expect(results.0.text == "502")
        #expect(results.1.exitCode != 0)
        #expect(results.2.text == "504")
        // ...is still served.
        let second = try await Blocking.run {
            try client.send("GET /headers HTTP/1.1\r\nHost: a\r\n\r\n")
            return client.readResponses(1)
        }
        #expect(second.responses.first?.status == 200)
        #expect(!second.closed)
    }
}
