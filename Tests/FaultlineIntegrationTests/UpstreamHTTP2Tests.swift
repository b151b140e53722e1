import Foundation
import Testing
import FaultlineTestSupport

/// HTTP/1 clients through the real binary to HTTP/2 origins (`protocol: h2c` and `h2`):
/// requests become streams on one shared connection per loop, within the origin's
/// concurrency limit; trailers, resets and refusals reach the client as HTTP/1 can say them.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct UpstreamHTTP2Tests {
    @Test func getAndPostBecomeStreamsWithTheUpstreamHead() async throws {
        let origin = try await H2Origin.start()
        defer { origin.kill() }
        let proxy = try await H2UpstreamStack.proxy(upstream: H2UpstreamStack.h2cUpstream(port: origin.port))
        defer { proxy.kill() }

        let get = try await Curl.run(["-sS", "-H", "Connection: keep-alive, x-hop", "-H", "X-Hop: 1",
                                      "-H", "TE: trailers", proxy.url("/echo?a=1")])
        let echo = try JSONObject.parse(get.stdout)
        #expect(echo["method"] as? String == "GET" && echo["path"] as? String == "/echo?a=1", "\(get.text)")
        #expect(echo["scheme"] as? String == "http" && echo["authority"] as? String == "127.0.0.1:\(proxy.port)")
        let headers = try #require(echo["headers"] as? [[String]])
        let names = headers.map { $0[0] }
        #expect(Array(names.prefix(4)) == [":method", ":scheme", ":authority", ":path"], "\(headers)")
        #expect(!names.contains("connection") && !names.contains("x-hop") && !names.contains("host"), "\(headers)")
        #expect(names.allSatisfy { $0 == $0.lowercased() }, "\(headers)")
        #expect(headers.contains(["te", "trailers"]) && headers.contains(["via", "1.1 faultline"]), "\(headers)")

        let body = String(repeating: "payload-", count: 20_000)
        let file = try proxy.directory.write("body.txt", body)
        let post = try await Curl.run(["-sS", "-X", "POST", "--data-binary", "@\(file)", proxy.url("/echo")])
        let posted = try JSONObject.parse(post.stdout)
        #expect(posted["body_bytes"] as? Int == body.utf8.count, "\(post.text)")
        #expect(posted["body_sha256"] as? String == SHA256.hex(Array(body.utf8)))

        let big = try await Curl.run(["-sS", proxy.url("/bytes/3000000")])
        #expect(big.stdout.count == 3_000_000 && SHA256.hex(big.stdout) == SHA256.hex((0..<3_000_000).map { UInt8($0 % 251) }))
        #expect(H2UpstreamStack.connections(origin).count == 1, "\(origin.output.text)")
    }

    @Test func chunkedRequestTrailersBecomeHTTP2Trailers() async throws {
        let origin = try await H2Origin.start()
        defer { origin.kill() }
        let proxy = try await H2UpstreamStack.proxy(upstream: H2UpstreamStack.h2cUpstream(port: origin.port))
        defer { proxy.kill() }
        let client = try RawClient(port: proxy.port)
        defer { client.close() }
        try client.send("POST /echo HTTP/1.1\r\nHost: h2\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "3\r\nabc\r\n4\r\ndefg\r\n0\r\nX-Sum: 7\r\nContent-Type: text/plain\r\n\r\n")
        let (responses, _) = try await Blocking.run { client.readResponses(1) }
        let response = try #require(responses.first)
        #expect(response.status == 200)
        let echo = try JSONObject.parse(response.body)
        #expect(echo["body_bytes"] as? Int == 7, "\(echo)")
        // A field a trailer section may not carry is dropped, as towards an HTTP/1 upstream.
        #expect((echo["trailers"] as? [[String]]) == [["x-sum", "7"]], "\(echo)")
        let names = (echo["headers"] as? [[String]] ?? []).map { $0[0] }
        #expect(!names.contains("transfer-encoding") && !names.contains("content-length"), "\(echo)")
    }

    @Test func concurrentRequestsShareOneConnectionWithinThePeerLimit() async throws {
        let origin = try await H2Origin.start(maxConcurrentStreams: 3)
        defer { origin.kill() }
        let proxy = try await H2UpstreamStack.proxy(upstream: H2UpstreamStack.h2cUpstream(port: origin.port))
        defer { proxy.kill() }
        // Warm up: the connection and the origin's SETTINGS are in place before the burst.
        _ = try await Curl.run(["-sS", proxy.url("/echo")])
        let started = ContinuousClock.now
        let statuses = try await withThrowingTaskGroup(of: Int32.self) { group in
            for _ in 0..<6 {
                group.addTask {
                    let result = try await Curl.run(["-sS", "-o", "/dev/null", "-w", "%{http_code}",
                                                     proxy.url("/slow?chunks=1&ms=1000&size=10")])
                    return Int32(result.text) ?? 0
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let elapsed = ContinuousClock.now - started
        #expect(statuses == Array(repeating: 200, count: 6), "\(statuses)")
        // Six streams on one connection that allows three: two waves.
        #expect(H2UpstreamStack.connections(origin).count == 1, "\(origin.output.text)")
        #expect(H2UpstreamStack.mostInFlight(origin, holdMs: 1000) <= 3, "\(origin.output.text)")
        #expect(elapsed >= .milliseconds(1900), "the limit of 3 was not honoured: \(elapsed)")
        #expect(!origin.output.text.contains(" error "), "\(origin.output.text)")
    }

    @Test func grpcUnaryTrailersReachAnHTTP1Client() async throws {
        let origin = try await H2Origin.start()
        defer { origin.kill() }
        let proxy = try await H2UpstreamStack.proxy(upstream: H2UpstreamStack.h2cUpstream(port: origin.port))
        defer { proxy.kill() }
        let message: [UInt8] = [0, 0, 0, 0, 5] + Array("hello".utf8)
        let file = try proxy.directory.write("message.bin", Data(message))
        for (query, status, text) in [("", "0", "OK"), ("?status=5&message=missing", "5", "missing")] {
            let result = try await Curl.run(["-sS", "--http1.1", "--raw", "-i", "-X", "POST",
                                             "-H", "Content-Type: application/grpc", "-H", "TE: trailers",
                                             "--data-binary", "@\(file)", proxy.url("/grpc\(query)")])
            let raw = String(decoding: result.stdout, as: UTF8.self)
            #expect(raw.hasPrefix("HTTP/1.1 200"), "\(raw)")
            #expect(raw.lowercased().contains("transfer-encoding: chunked"), "\(raw)")
            #expect(raw.contains("\r\n\u{0}\u{0}\u{0}\u{0}\u{5}hello\r\n"), "the message passes: \(raw)")
            #expect(raw.hasSuffix("\r\n0\r\ngrpc-status: \(status)\r\ngrpc-message: \(text)\r\n\r\n"), "trailers: \(raw)")
        }
        // Waited for: the client can have its answer before the origin's line is read.
        _ = try await origin.output.waitForLine(containing: "/grpc", timeout: .seconds(15))
    }

    @Test func upstreamResetIs502AndARefusedStreamIsRetriedOnce() async throws {
        let origin = try await H2Origin.start()
        defer { origin.kill() }
        let proxy = try await H2UpstreamStack.proxy(upstream: H2UpstreamStack.h2cUpstream(port: origin.port))
        defer { proxy.kill() }
        let reset = try await TLSCurl.get(proxy.url("/rst?code=2"), ["-H", "X-Request-ID: h2-reset"])
        #expect(reset.status == 502 && reset.body.hasPrefix("upstream reset the HTTP/2 stream (INTERNAL_ERROR)"), "\(reset)")
        let refused = try await TLSCurl.get(proxy.url("/rst?code=7"), ["-X", "POST", "-d", "x", "-H", "X-Request-ID: h2-refused"])
        #expect(refused.status == 502 && refused.body.contains("did not process the HTTP/2 stream (RST_STREAM REFUSED_STREAM)"),
                "\(refused)")
        // REFUSED_STREAM means unprocessed: even a POST goes once more, and only once. The
        // origin's log lines reach the test after the responses may have: wait for them.
        let refusedTries = try await Deadline.poll("the origin's log of the refused stream's two tries", timeout: .seconds(10)) {
            let count = origin.requests.filter { $0.hasSuffix("/rst?code=7") }.count
            return count >= 2 ? count : nil
        }
        #expect(refusedTries == 2, "\(origin.output.text)")
        #expect(origin.requests.filter { $0.hasSuffix("/rst?code=2") }.count == 1, "\(origin.output.text)")
        let records = try await LogFile.waitForExchanges(["h2-reset", "h2-refused"], in: proxy.directory.path("traffic.log"))
        let byID = Dictionary(records.compactMap { record in record.requestID.map { ($0, record) } },
                              uniquingKeysWith: { first, _ in first })
        #expect(byID["h2-reset"]?["http2.error_code"] as? String == "INTERNAL_ERROR", "\(records)")
        #expect(byID["h2-reset"]?["error.type"] as? String == "upstream_reset", "\(records)")
        #expect(byID["h2-refused"]?["http2.error_code"] as? String == "REFUSED_STREAM", "\(records)")
        // The connection survives its streams' resets.
        let after = try await TLSCurl.get(proxy.url("/echo"))
        #expect(after.status == 200 && H2UpstreamStack.connections(origin).count == 1, "\(origin.output.text)")
    }

    @Test func idleConnectionClosesAfterTheIdleTimeout() async throws {
        let origin = try await H2Origin.start()
        defer { origin.kill() }
        let upstream = H2UpstreamStack.h2cUpstream(port: origin.port,
                                                   extra: ["timeouts_ms": ["connect": 2000, "response": 5000, "idle": 300]])
        let proxy = try await H2UpstreamStack.proxy(upstream: upstream)
        defer { proxy.kill() }
        #expect(try await TLSCurl.get(proxy.url("/echo")).status == 200)
        _ = try await origin.output.waitForLine(containing: "conn 1 closed", timeout: .seconds(5))
        #expect(try await TLSCurl.get(proxy.url("/echo")).status == 200)
        #expect(H2UpstreamStack.connections(origin).count == 2, "\(origin.output.text)")
    }
}
