import Foundation
import Testing
import FaultlineTestSupport

/// Faults on HTTP/2 streams: each acts on its stream only, and the clients report the HTTP/2
/// error it means (docs/config.md, "Faults on HTTP/2 streams").
@Suite(.timeLimit(.minutes(2)))
struct HTTP2StreamFaultTests {
    static let routes = [
        #"{"name": "reset", "match": {"path": "/status/201"}, "upstream": "o", "faults": [{"reset": {}}]}"#,
        #"{"name": "close", "match": {"path": "/status/202"}, "upstream": "o", "faults": [{"close": {}}]}"#,
        #"{"name": "hang", "match": {"path": "/status/203"}, "upstream": "o", "faults": [{"hang": {}}]}"#,
        #"{"name": "truncate", "match": {"path": "/bytes/5000"}, "upstream": "o", "faults": [{"truncate": {"keep_bytes": 100}}]}"#,
        #"{"name": "cut", "match": {"path": "/bytes/6000"}, "upstream": "o", "faults": [{"reset": {"after_bytes": 1000}}]}"#,
        #"{"name": "down", "match": {"path": "/status/205"}, "upstream": "o", "faults": [{"status": 503}]}"#,
        #"{"name": "garbage", "match": {"path": "/status/206"}, "upstream": "o", "faults": [{"corrupt": {"mode": "garbage_then_close"}}]}"#,
        #"{"name": "slow", "match": {"path": "/bytes/200000"}, "upstream": "o", "faults": [{"throttle": {"down_bytes_per_second": 400000}}]}"#,
        #"{"name": "late", "match": {"path": "/status/208"}, "upstream": "o", "faults": [{"delay": 300}]}"#,
    ]

    /// curl with prior knowledge against `path`: exit status, `%{http_code} %{size_download}`, stderr.
    private func curl(_ stack: HTTP2Stack, _ path: String, maxTime: Int = 5) async throws -> CurlResult {
        try await Curl.run(["--http2-prior-knowledge", "-o", "/dev/null", "-w", "%{http_code} %{size_download}", stack.h2c(path)],
                           maxTime: maxTime)
    }

    @Test func resetIsAStreamErrorWhileAnotherStreamOnTheConnectionSucceeds() async throws {
        let stack = try await HTTP2Stack.start(routes: Self.routes)
        let alone = try await curl(stack, "/status/201")
        #expect(alone.exitCode == 92 && alone.stderr.contains("INTERNAL_ERROR"), "\(alone.stderr)")
        let both = try await stack.tool(["nghttp", "-nv", stack.h2c("/status/201"), stack.h2c("/json")])
        #expect(both.output.contains("recv RST_STREAM frame <length=4, flags=0x00, stream_id=13>"), "\(both.output)")
        #expect(both.output.contains("error_code=INTERNAL_ERROR"), "\(both.output)")
        #expect(both.output.contains("recv (stream_id=15) :status: 200"), "\(both.output)")
        // Over TLS, curl's message is the same.
        let tls = try await Curl.run(["--http2"] + stack.trust + ["-o", "/dev/null", stack.tls("/status/201")])
        #expect(tls.exitCode == 92 && tls.stderr.contains("INTERNAL_ERROR"), "\(tls.stderr)")
    }

    @Test func resetAfterBytesDeliversThemThenResets() async throws {
        let stack = try await HTTP2Stack.start(routes: Self.routes)
        let result = try await curl(stack, "/bytes/6000")
        #expect(result.exitCode == 92 && result.stderr.contains("INTERNAL_ERROR"), "\(result.stderr)")
        #expect(result.text == "200 1000", "\(result.text)")
    }

    @Test func closeCancelsTheStream() async throws {
        let stack = try await HTTP2Stack.start(routes: Self.routes)
        let result = try await curl(stack, "/status/202")
        #expect(result.exitCode == 92 && result.stderr.contains("CANCEL"), "\(result.stderr)")
    }

    @Test func truncateEndsTheStreamShortOfItsLength() async throws {
        let stack = try await HTTP2Stack.start(routes: Self.routes)
        let result = try await curl(stack, "/bytes/5000")
        // curl's nghttp2 checks END_STREAM against content-length and calls the stream malformed.
        #expect(result.exitCode == 92 && result.stderr.contains("PROTOCOL_ERROR"), "\(result.stderr)")
        let nghttp = try await stack.tool(["nghttp", "-nv", stack.h2c("/bytes/5000")])
        #expect(nghttp.output.contains("content-length: 5000") && nghttp.output.contains("END_STREAM"), "\(nghttp.output)")
    }

    @Test func hangStallsOnlyItsStream() async throws {
        let stack = try await HTTP2Stack.start(routes: Self.routes)
        let both = try await stack.tool(["nghttp", "-nv", "--timeout=2", stack.h2c("/status/203"), stack.h2c("/json")])
        #expect(both.output.contains("recv (stream_id=15) :status: 200"), "\(both.output)")
        #expect(!both.output.contains("recv (stream_id=13) :status"), "\(both.output)")
    }

    @Test func statusDelayAndThrottleWorkPerStream() async throws {
        let stack = try await HTTP2Stack.start(routes: Self.routes)
        let down = try await curl(stack, "/status/205")
        #expect(down.exitCode == 0 && down.text.hasPrefix("503 "), "\(down.text) \(down.stderr)")
        let start = ContinuousClock.now
        let late = try await curl(stack, "/status/208")
        #expect(late.exitCode == 0 && late.text.hasPrefix("208 "), "\(late.text)")
        #expect(ContinuousClock.now - start >= .milliseconds(300))
        let slowStart = ContinuousClock.now
        let slow = try await curl(stack, "/bytes/200000")
        #expect(slow.exitCode == 0 && slow.text == "200 200000", "\(slow.text)")
        #expect(ContinuousClock.now - slowStart >= .milliseconds(350))
    }

    @Test func corruptReplyIsAMalformedResponseOnItsStream() async throws {
        let stack = try await HTTP2Stack.start(routes: Self.routes)
        let result = try await curl(stack, "/status/206")
        #expect(result.exitCode == 92 && result.stderr.contains("PROTOCOL_ERROR"), "\(result.stderr)")
    }
}
