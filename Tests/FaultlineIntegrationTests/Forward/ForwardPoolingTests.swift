import Foundation
import Testing
import FaultlineTestSupport

/// Forwarded exchanges reuse upstream connections as a configured upstream's do: one
/// keep-alive origin connection serves every absolute-form request of a client, the next
/// client too (the pool is the loop's, not the client connection's), and every request
/// of an intercepted HTTPS connection. One worker, so every client lands on the same loop.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct ForwardPoolingTests {
    /// Each transfer's status, from `eachStatus` (bodies here are never a bare number).
    static func statuses(_ result: CurlResult) -> [Int] {
        result.text.split(separator: "\n").compactMap { Int($0) }
    }

    /// curl's `-w` after each transfer: the status on a line of its own.
    static let eachStatus = ["-w", "\n%{http_code}\n"]

    @Test func absoluteFormRequestsShareOneUpstreamConnectionWithinAndAcrossClients() async throws {
        let origin = try await OriginProcess.counting()
        defer { origin.kill() }
        let stack = try await ForwardStack.start(["--workers", "1"])
        defer { stack.stop() }
        let urls = (1...10).map { "http://127.0.0.1:\(origin.port)/first/\($0)" }
        // One curl, ten URLs: curl keeps its connection to the proxy for all of them.
        let first = try await stack.curl(Self.eachStatus + urls)
        #expect(Self.statuses(first.result) == Array(repeating: 200, count: 10), "\(first.result.text) \(first.result.stderr)")
        #expect(first.result.stderr.isEmpty, "\(first.result.stderr)")
        #expect(origin.requests("GET", "/first/10").count == 1, "\(origin.output.text)")
        #expect(Self.accepted(origin) == 1, "ten requests of one client: \(origin.output.text)")
        // Two more clients, one after the other: the idle connection waits in the loop's pool.
        for round in 1...2 {
            let next = try await stack.curl(["http://127.0.0.1:\(origin.port)/next/\(round)"])
            #expect(next.status == 200, "\(next.result.text) \(next.result.stderr)")
        }
        #expect(origin.requests("GET", "/next/2").count == 1, "\(origin.output.text)")
        #expect(Self.accepted(origin) == 1, "three clients in a row: \(origin.output.text)")
    }

    @Test func interceptedRequestsShareOneUpstreamConnection() async throws {
        let chain = try await TLSChainFactory.make()
        let origin = try await TLSOriginProcess.python(chain: chain.path("chain.pem"), key: chain.path("leaf.key"))
        defer { origin.kill() }
        let stack = try await ForwardStack.start(["--workers", "1", "--upstream-ca", chain.path("root.pem")])
        defer { stack.stop() }
        let urls = (1...10).map { "https://localhost:\(origin.port)/tls/\($0)" }
        // HTTP/1.1 inside the tunnel, then a second client speaking HTTP/2 to the proxy.
        let first = try await stack.curl(["--cacert", stack.caPath, "--http1.1"] + Self.eachStatus + urls)
        #expect(Self.statuses(first.result) == Array(repeating: 200, count: 10), "\(first.result.text) \(first.result.stderr)")
        #expect(origin.requests.count == 10, "\(origin.output.text)")
        #expect(origin.connections.count == 1, "ten intercepted requests of one client: \(origin.output.text)")
        let second = try await stack.curl(["--cacert", stack.caPath, "--http2"] + Self.eachStatus + urls.prefix(3))
        #expect(Self.statuses(second.result) == Array(repeating: 200, count: 3), "\(second.result.text) \(second.result.stderr)")
        #expect(origin.requests.count == 13, "\(origin.output.text)")
        #expect(origin.connections.count == 1, "a second intercepted client: \(origin.output.text)")
    }

    /// A forwarded exchange cut by a fault, or left by its client mid-body, closes its upstream
    /// connection; the next request gets a new one, which is pooled again.
    @Test func aCutForwardedExchangeIsNeverPooled() async throws {
        let origin = try await OriginProcess.counting()
        defer { origin.kill() }
        let stack = try await ForwardStack.start(["--workers", "1"])
        defer { stack.stop() }
        let base = "http://127.0.0.1:\(origin.port)"
        try await stack.addRule(#"{"name": "cut", "match": {"path_prefix": "/cut/"}, "faults": [{"truncate": {"keep_bytes": 100}}]}"#)
        #expect(try await stack.curl([base + "/warm"]).status == 200)
        // The origin echoes the path: a 5,000-byte answer, cut after 100 bytes.
        let cut = try await stack.curl([base + "/cut/" + String(repeating: "x", count: 5000)])
        #expect(cut.result.exitCode != 0, "\(cut.result.exitCode) \(cut.result.stderr)")
        try await origin.output.waitForLine(containing: "conn 1 closed-by-peer")
        #expect(try await stack.curl([base + "/after-cut"]).status == 200)
        #expect(Self.accepted(origin) == 2, "\(origin.output.text)")
        // A client that leaves mid-body: the upstream connection holds half a request.
        let aborted = try RawClient(port: stack.proxy.port)
        try aborted.send("PUT \(base)/half HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10\r\n\r\nhello")
        try await origin.output.waitForLine(containing: " head PUT /half")
        aborted.close()
        try await origin.output.waitForLine(containing: "conn 2 closed-by-peer")
        #expect(try await stack.curl([base + "/after-half"]).status == 200)
        #expect(try await stack.curl([base + "/again"]).status == 200)
        #expect(origin.requests("PUT", "/half").isEmpty, "\(origin.output.text)")
        #expect(Self.accepted(origin) == 3, "\(origin.output.text)")
    }

    /// Connections the counting origin accepted (`conn N open`).
    static func accepted(_ origin: OriginProcess) -> Int {
        origin.output.lines.filter { $0.text.hasPrefix("conn ") && $0.text.hasSuffix(" open") }.count
    }
}

extension ForwardPoolingTests {
    /// `GET /metrics` counts what happens towards the hosts clients name under one upstream
    /// label, `forward`: refused connects to two hosts, and the idle connection a keep-alive
    /// host leaves in the pool.
    @Test func metricsCountForwardHostsUnderOneUpstreamLabel() async throws {
        let stack = try await ForwardStack.start(["--workers", "1"])
        defer { stack.stop() }
        let closed = try FreePort.closed()
        let down = try await stack.curl(["http://127.0.0.1:\(closed)/"])
        #expect(down.status == 502, "\(down.result.text)")
        let other = try await stack.curl(["http://localhost:\(closed)/"])
        #expect(other.status == 502, "\(other.result.text)")
        let ok = try await stack.curl(["http://127.0.0.1:\(stack.origin.port)/json"])
        #expect(ok.status == 200, "\(ok.result.text)")
        // The idle gauge is published by the loop's sweep (every 100 ms): wait for it.
        var text = ""
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(20)
        while clock.now < deadline {
            text = try await Curl.run([stack.adminURL + "/metrics"]).text
            if text.contains("faultline_upstream_pool_idle_connections{upstream=\"forward\"} 1") { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(text.contains("faultline_upstream_connect_errors_total{upstream=\"forward\"} 2"), "\(text)")
        #expect(text.contains("faultline_upstream_tls_errors_total{upstream=\"forward\"} 0"), "\(text)")
        #expect(text.contains("faultline_upstream_pool_idle_connections{upstream=\"forward\"} 1"), "\(text)")
    }
}
