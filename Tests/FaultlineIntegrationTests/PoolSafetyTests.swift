import Foundation
import Testing
import FaultlineTestSupport

/// An upstream connection returns to the pool only after one complete request and its
/// complete response; every other ending closes it, so no client's bytes reach another's
/// exchange. Pool entries die with the configurations that made them.
@Suite(.timeLimit(.minutes(2)))
struct PoolSafetyTests {
    static func stack() async throws -> ProxyStack {
        try await ProxyStack.start(origin: try await OriginProcess.counting()) { port in
            var config = ProxyConfig.single(port: port)
            config.workers = 1
            return config
        }
    }

    static func get(_ client: RawClient, _ path: String) throws -> ParsedResponse? {
        try client.send("GET \(path) HTTP/1.1\r\nHost: a\r\n\r\n")
        return client.readResponses(1).responses.first
    }

    @Test func malformedBodyAfterTheHeadWasForwardedClosesTheUpstreamConnection() async throws {
        let stack = try await Self.stack()
        defer { stack.stop() }
        for (round, bad) in ["0_2e\r\n\r\n", "zz\r\n", "5\r\nhelloXX"].enumerated() {
            let victim = try RawClient(port: stack.port)
            #expect(try await Blocking.run { try Self.get(victim, "/warm") }?.status == 200)
            let attacker = try RawClient(port: stack.port)
            try attacker.send("POST /evil HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n")
            // The head is upstream before the bad chunk size arrives.
            try await stack.origin.output.waitForLine("the head upstream", timeout: .seconds(5)) { _ in
                stack.origin.output.lines.filter { $0.text.contains(" head POST /evil") }.count == round + 1
            }
            let refused = try await Blocking.run { () -> (bytes: [UInt8], closed: Bool) in
                try attacker.send(bad)
                return attacker.readUntilClose()
            }
            #expect(String(decoding: refused.bytes, as: UTF8.self).hasPrefix("HTTP/1.1 400"), "\(bad)")
            #expect(refused.closed)
            let after = try await Blocking.run { try Self.get(victim, "/victim/\(round)") }
            #expect(after?.status == 200 && after?.text == "ok GET /victim/\(round)", "\(bad): \(String(describing: after?.text))")
            #expect(stack.origin.requests("POST", "/evil").isEmpty, "a half request was completed: \(stack.origin.output.text)")
            #expect(stack.origin.requests("GET", "/victim/\(round)").count == 1)
            try await stack.origin.output.waitForLine("the origin to see the half-written connection closed") { _ in
                stack.origin.output.lines.filter { $0.text.hasSuffix("closed-by-peer") }.count >= round + 1
            }
        }
    }

    @Test func earlyResponseBeforeTheBodyIsSentNeverReturnsTheConnectionToThePool() async throws {
        let stack = try await Self.stack()
        defer { stack.stop() }
        let client = try RawClient(port: stack.port)
        #expect(try await Blocking.run { try Self.get(client, "/warm") }?.status == 200)
        // A client that gives up mid-body: the upstream connection holds half a request.
        let aborted = try RawClient(port: stack.port)
        try aborted.send("PUT /half HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\nhello")
        try await stack.origin.output.waitForLine(containing: " head PUT /half")
        aborted.close()
        try await stack.origin.output.waitForLine(containing: "closed-by-peer")
        let after = try await Blocking.run { try Self.get(client, "/next") }
        #expect(after?.text == "ok GET /next", "\(stack.origin.output.text)")
        #expect(stack.origin.requests("PUT", "/half").isEmpty, "\(stack.origin.output.text)")
    }

    /// Each reload makes new TLS settings for an https upstream; the pool entries of the
    /// configurations no exchange uses any more are closed, so neither connections nor TLS
    /// contexts pile up.
    @Test func reloadsDoNotAccumulatePooledConnections() async throws {
        let chain = try await TLSChainFactory.make()
        let origin = try await TLSOriginProcess.python(chain: chain.path("chain.pem"), key: chain.path("leaf.key"))
        defer { origin.kill() }
        let proxy = try await TLSProxy.start(TLSProxyConfig.root(
            listeners: [TLSProxyConfig.plainListener],
            upstreams: ["tls": TLSProxyConfig.upstream(port: origin.port, caFile: chain.path("root.pem"))],
            workers: 1, admin: false))
        defer { proxy.kill() }
        let pid = proxy.process.child.pid
        func openDescriptors() -> Int {
            (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
        }
        var baseline = 0
        for round in 0..<25 {
            let seen = proxy.output.lines.count
            proxy.process.signal(SIGHUP)
            try await proxy.output.waitForLine(containing: "configuration reloaded", after: seen)
            let reply = try await TLSCurl.get(proxy.url("/round/\(round)"))
            #expect(reply.status == 200, "\(reply)")
            if round == 4 { baseline = openDescriptors() }
        }
        // Closes happen on the loop: poll briefly for them to land.
        var final = openDescriptors()
        let end = ContinuousClock.now + .seconds(3)
        while final > baseline + 2 && ContinuousClock.now < end {
            try await Task.sleep(for: .milliseconds(50))
            final = openDescriptors()
        }
        #expect(baseline > 0 && final <= baseline + 2, "descriptors grew from \(baseline) to \(final) over 20 reloads")
    }
}
