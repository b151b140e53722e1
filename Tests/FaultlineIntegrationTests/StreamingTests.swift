import Foundation
import Testing
import FaultlineTestSupport

/// Streams that must not be buffered, tunnels, and clients that go away.
@Suite(.timeLimit(.minutes(1)))
struct StreamingTests {
    @Test func serverSentEventsArriveAsTheyAreWritten() async throws {
        let stack = try await ProxyStack.demo()
        defer { stack.stop() }
        let curl = try ChildProcess(executable: TestPaths.curl,
                                    arguments: ["-sS", "-N", "--max-time", "10", stack.url("/sse/5?interval_ms=200")])
        let status = try await curl.waitForExit(timeout: .seconds(15))
        #expect(status == 0, "\(curl.output.text)")
        try await Deadline.poll("curl output to end", timeout: .seconds(5)) { curl.output.isFinished ? () : nil }
        let events = curl.output.lines.filter { $0.text.hasPrefix("data:") }
        #expect(events.count == 5, "\(curl.output.text)")
        guard let first = events.first, let last = events.last else { return }
        // Four 200 ms intervals separate the first and last event at the origin; buffered
        // they would arrive together.
        #expect(last.time - first.time >= .milliseconds(500), "events arrived bunched: \(last.time - first.time)")
    }

    @Test func chunkedStreamIsNotBuffered() async throws {
        let stack = try await ProxyStack.scripted()
        defer { stack.stop() }
        // /drip sends a line every 100 ms forever: a buffering proxy shows nothing within 3 s.
        let curl = try ChildProcess(executable: TestPaths.curl,
                                    arguments: ["-sS", "-N", "--max-time", "5", stack.url("/drip")])
        defer { curl.kill() }
        try await curl.output.waitForLine("three drip lines", timeout: .seconds(3)) { _ in
            curl.output.lines.filter { $0.text == "drip" }.count >= 3
        }
    }

    @Test func webSocketEchoThroughTheProxy() async throws {
        let stack = try await ProxyStack.demo()
        defer { stack.stop() }
        let payload = Array("hello through faultline".utf8)
        let reply = try await Blocking.run {
            let client = try RawClient(port: stack.port)
            try client.send("GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
            let head = client.read(until: "\r\n\r\n")
            // One masked text frame, as a browser sends it.
            let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
            var frame: [UInt8] = [0x81, 0x80 | UInt8(payload.count)] + mask
            frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
            try client.send(frame)
            var echoed: [UInt8] = []
            let end = ContinuousClock.now + .seconds(5)
            while echoed.count < 2 + payload.count && ContinuousClock.now < end {
                if case .bytes(let bytes) = client.readSome() { echoed += bytes } else { break }
            }
            return (head, echoed)
        }
        let head = String(decoding: reply.0, as: UTF8.self)
        #expect(head.hasPrefix("HTTP/1.1 101"), "\(head)")
        #expect(head.contains("s3pPLMBiTxaQ9kYGzzhZRbK+xOo="), "\(head)")
        #expect(reply.1.first == 0x81, "not a final text frame: \(reply.1.prefix(4))")
        #expect(reply.1.count >= 2 && reply.1[1] == UInt8(payload.count), "server frames are unmasked with the same length")
        #expect(Array(reply.1.dropFirst(2)) == payload)
    }

    /// The client gives up while the origin has not answered yet: the proxy must close the
    /// upstream connection (cancel the exchange) rather than wait out the response timeout.
    @Test func clientDisconnectBeforeTheResponseClosesTheUpstreamConnection() async throws {
        let stack = try await ProxyStack.scripted { port in .single(port: port, responseMs: 20_000) }
        defer { stack.stop() }
        let origin = stack.origin.output
        let client = try RawClient(port: stack.port)
        try client.send("GET /hang HTTP/1.1\r\nHost: a\r\n\r\n")
        let request = try await origin.waitForLine(containing: "request GET /hang")
        let connection = request.text.split(separator: " ")[1]
        client.close()
        try await origin.waitForLine("the origin to see its connection \(connection) closed", timeout: .seconds(5)) {
            $0 == "conn \(connection) closed-by-peer"
        }
        let after = try await Curl.run(["-w", "\n%{http_code}", stack.url("/headers")])
        #expect(after.text.hasSuffix("\n200"), "\(after.text)")
    }

    /// The client gives up in the middle of a streamed response.
    @Test func clientDisconnectMidResponseClosesTheUpstreamConnection() async throws {
        let stack = try await ProxyStack.scripted { port in .single(port: port, responseMs: 20_000) }
        defer { stack.stop() }
        let origin = stack.origin.output
        let drip = try await Curl.run([stack.url("/drip")], maxTime: 1)
        #expect(drip.exitCode == 28, "\(drip.stderr)")
        #expect(drip.text.hasPrefix("drip\n"), "the stream had started: \(drip.text.prefix(40))")
        let request = try await origin.waitForLine(containing: "request GET /drip")
        let connection = request.text.split(separator: " ")[1]
        try await origin.waitForLine("the origin to see its connection \(connection) closed", timeout: .seconds(5)) {
            $0 == "conn \(connection) closed-by-peer"
        }
        let after = try await Curl.run(["-w", "\n%{http_code}", stack.url("/headers")])
        #expect(after.text.hasSuffix("\n200"), "\(after.text)")
    }

    @Test func clientDisconnectDuringSlowDemoResponseLeavesTheProxyServing() async throws {
        let stack = try await ProxyStack.demo()
        defer { stack.stop() }
        for path in ["/delay/3000", "/sse/100?interval_ms=100", "/bytes/4294967296"] {
            let aborted = try await Curl.run(["-o", "/dev/null", stack.url(path)], maxTime: 1)
            #expect(aborted.exitCode == 28, "\(path): \(aborted.stderr)")
        }
        let result = try await Curl.run([stack.url("/64")])
        #expect(result.exitCode == 0)
        #expect(result.text.contains("sixty-four bytes"))
    }
}
