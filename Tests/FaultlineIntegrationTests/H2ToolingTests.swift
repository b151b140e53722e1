import Foundation
import Testing
import FaultlineTestSupport

/// The HTTP/2 test tools checked against each other before they check the proxy: h2probe.py
/// against h2origin.py over h2c and over TLS with ALPN h2.
@Suite(.timeLimit(.minutes(2)))
struct H2ToolingTests {
    static func probe(_ scenario: [String: Any]) async throws -> H2ProbeReport {
        let box = ScenarioBox(scenario)
        return try await Blocking.run { try H2Probe.run(box.scenario) }
    }

    @Test func requestsTrailersGRPCAndResetOverH2C() async throws {
        let origin = try await H2Origin.start()
        let grpcMessage = "\u{0}\u{0}\u{0}\u{0}\u{5}hello"
        let report = try await Self.probe([
            "connect": H2Probe.target(port: origin.port),
            "actions": [
                ["do": "request", "label": "echo", "method": "POST", "path": "/echo?x=1",
                 "extra": [["x-test", "1"]], "body": "abc", "trailers": [["x-sum", "3"]]],
                ["do": "request", "label": "trailers", "path": "/trailers"],
                ["do": "request", "label": "grpc", "method": "POST", "path": "/grpc",
                 "extra": [["content-type", "application/grpc"], ["te", "trailers"]], "body": grpcMessage],
                ["do": "request", "label": "rst", "path": "/rst?code=7"],
                ["do": "request", "label": "bytes", "path": "/bytes/100000"],
            ],
        ])
        #expect(report.connected && report.error == nil && report.h2Error == nil && report.alpn == nil)
        let echo = try #require(report.stream(labelled: "echo"))
        #expect(echo.status == 200 && echo.ended)
        let body = try JSONObject.parse(Array((echo.body ?? "").utf8))
        #expect(body["method"] as? String == "POST" && body["path"] as? String == "/echo?x=1")
        #expect(body["body_bytes"] as? Int == 3)
        #expect((body["trailers"] as? [[String]]) == [["x-sum", "3"]])
        #expect((body["headers"] as? [[String]])?.contains(["x-test", "1"]) == true)

        let trailers = try #require(report.stream(labelled: "trailers"))
        #expect(trailers.body == "hello" && trailers.trailer("x-checksum") == "abc123" && trailers.ended)

        let grpc = try #require(report.stream(labelled: "grpc"))
        #expect(grpc.header("content-type") == "application/grpc")
        #expect(grpc.body == grpcMessage && grpc.trailer("grpc-status") == "0" && grpc.trailer("grpc-message") == "OK")

        let reset = try #require(report.stream(labelled: "rst"))
        #expect(reset.reset?.code == 7 && reset.reset?.name == "REFUSED_STREAM" && reset.status == nil)

        let bytes = try #require(report.stream(labelled: "bytes"))
        #expect(bytes.bodyBytes == 100_000 && bytes.header("content-length") == "100000")
        let expected = (0..<100_000).map { UInt8($0 % 251) }
        #expect(bytes.bodySha256 == SHA256.hex(expected))
        #expect(report.goaway == nil && !report.closed && report.timeouts.isEmpty)
        #expect(report.peerSettings["MAX_CONCURRENT_STREAMS"] == 100)
    }

    @Test func tlsWithALPNH2AndForbiddenFieldsSentVerbatim() async throws {
        let chain = try await TLSChainFactory.make()
        let origin = try await H2Origin.start(certificate: chain.path("chain.pem"), key: chain.path("leaf.key"),
                                              maxConcurrentStreams: 7)
        let report = try await Self.probe([
            "connect": H2Probe.target(port: origin.port, caFile: chain.path("root.pem")),
            "actions": [
                ["do": "request", "label": "raw", "headers": [
                    [":method", "GET"], [":scheme", "https"], ["X-Upper", "a\r\nb"], [":path", "/echo"],
                    [":authority", "localhost"], ["connection", "keep-alive"], ["te", "gzip"],
                    ["cookie", "a=1"], ["cookie", "b=2"], [":path", "/again"]]],
                ["do": "ping", "count": 5],
                ["do": "wait", "for": "pings", "count": 5],
            ],
        ])
        #expect(report.alpn == "h2" && report.error == nil)
        #expect(report.peerSettings["MAX_CONCURRENT_STREAMS"] == 7 && report.pingsAcked == 5)
        let raw = try #require(report.stream(labelled: "raw"))
        let headers = try #require(try JSONObject.parse(Array((raw.body ?? "").utf8))["headers"] as? [[String]])
        #expect(headers == [[":method", "GET"], [":scheme", "https"], ["X-Upper", "a\r\nb"], [":path", "/echo"],
                            [":authority", "localhost"], ["connection", "keep-alive"], ["te", "gzip"],
                            ["cookie", "a=1"], ["cookie", "b=2"], [":path", "/again"]])
        #expect(origin.output.lines.contains { $0.text.hasSuffix(" open h2") })
    }

    @Test func aStreamThatNeverReadsStallsAloneWhileAnotherFinishes() async throws {
        let origin = try await H2Origin.start()
        let report = try await Self.probe([
            "connect": H2Probe.target(port: origin.port),
            "settings": ["initial_window_size": 1024],
            "final_wait": false,
            "actions": [
                ["do": "request", "label": "stalled", "path": "/bytes/200000", "read": false],
                ["do": "request", "label": "fast", "path": "/bytes/200000"],
                ["do": "wait", "for": "end", "stream": "fast", "timeout": 10],
                ["do": "sleep", "seconds": 0.3],
            ],
        ])
        let fast = try #require(report.stream(labelled: "fast"))
        let stalled = try #require(report.stream(labelled: "stalled"))
        #expect(fast.ended && fast.bodyBytes == 200_000)
        // The stalled stream got exactly its window and no more; nothing was reset or closed.
        #expect(stalled.status == 200 && !stalled.ended && stalled.bodyBytes == 1024 && stalled.reset == nil)
        #expect(report.timeouts.isEmpty && report.goaway == nil && !report.closed)
    }

    @Test func rapidResetAndContinuationFloodAreSentAndTheirOutcomeReported() async throws {
        let origin = try await H2Origin.start()
        let report = try await Self.probe([
            "connect": H2Probe.target(port: origin.port),
            "final_wait": false,
            "actions": [
                ["do": "rapid_reset", "count": 20, "path": "/slow?chunks=50&ms=100"],
                ["do": "request", "label": "after", "path": "/bytes/10"],
                ["do": "wait", "for": "end", "stream": "after"],
                // The h2 package refuses more than 64 CONTINUATION frames and drops the connection.
                ["do": "continuation_flood", "label": "flood", "count": 5000],
                ["do": "wait", "for": "close"],
            ],
        ])
        #expect(report.streamIds?.count == 22)
        let resets = report.streams.values.filter { $0.resetSent?.name == "CANCEL" }
        #expect(resets.count == 20)
        #expect(report.stream(labelled: "after")?.bodyBytes == 10)
        let flood = try #require(report.stream(labelled: "flood"))
        #expect(report.closed && (flood.continuationFramesSent ?? 0) < 5000 && report.timeouts.isEmpty)
        try await origin.output.waitForLine(containing: "Too many continuation frames")
        #expect(origin.output.lines.filter { $0.text.contains(" reset 8") }.count == 20)
    }

    @Test func aTLSPeerWithoutH2IsReportedNotNegotiated() async throws {
        let chain = try await TLSChainFactory.make()
        let origin = try await TLSOriginProcess.python(chain: chain.path("chain.pem"), key: chain.path("leaf.key"))
        let report = try await Self.probe(["connect": H2Probe.target(port: origin.port, caFile: chain.path("root.pem")),
                                           "actions": [["do": "request", "path": "/"]]])
        #expect(report.connected && report.alpn != "h2")
        #expect(report.error?.hasPrefix("h2 not negotiated") == true && report.streams.isEmpty)
    }
}

/// A scenario handed to the blocking probe run: JSON-compatible values only, never mutated.
private struct ScenarioBox: @unchecked Sendable {
    let scenario: [String: Any]
    init(_ scenario: [String: Any]) { self.scenario = scenario }
}
