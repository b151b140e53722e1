import Foundation
import Testing
import FaultlineTestSupport

/// Protocols beyond one request and one response through a forward proxy, with real clients:
/// a WebSocket through an intercepted CONNECT and through a pass-through tunnel, Server-Sent
/// Events arriving one by one through interception, and a gRPC-style HTTP/2 call whose
/// trailers reach the client. The demo origin serves the WebSocket echo and the events
/// behind a TLS front (`Tests/Scripts/tls_front.py`) for the test chain's `localhost` leaf.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct ForwardProtocolTests {
    /// A forward proxy (with its demo origin) and a TLS front for that demo origin.
    struct Stack {
        let chain: TLSChain
        let forward: ForwardStack
        let front: ChildProcess
        let frontPort: Int

        func stop() {
            front.kill()
            forward.stop()
        }
    }

    /// `intercept`: the one-line mode trusting the test chain's root upstream; else a config
    /// passing `localhost` through.
    static func start(intercept: Bool) async throws -> Stack {
        let chain = try await TLSChainFactory.make()
        let forward = intercept
            ? try await ForwardStack.start(["--upstream-ca", chain.path("root.pem")])
            : try await ForwardStack.start(forward: ["pass_through": ["localhost"]])
        let front = try ChildProcess(executable: TestPaths.python3,
                                     arguments: ["-u", script("tls_front.py"), chain.path("chain.pem"), chain.path("leaf.key"),
                                                 String(forward.origin.port)])
        let line = try await front.output.waitForLine(containing: "tls front listening on ", timeout: .seconds(15))
        guard let port = Int(line.text.split(separator: ":").last ?? "") else { throw TestFailure("no port in \(line.text)") }
        return Stack(chain: chain, forward: forward, front: front, frontPort: port)
    }

    static func script(_ name: String) -> String { TestPaths.scripts.appendingPathComponent(name).path }

    /// Runs a client script of Tests/Scripts with python3, bounded.
    static func runScript(_ name: String, _ arguments: [String]) async throws -> CommandResult {
        try await Blocking.run {
            try Command.launch([TestPaths.python3, "-u", script(name)] + arguments, timeout: .seconds(60))
        }
    }

    @Test func aWebSocketUpgradesThroughInterceptionExchangesFramesAndCloses() async throws {
        let stack = try await Self.start(intercept: true)
        defer { stack.stop() }
        let result = try await Self.runScript("ws_client.py", [String(stack.forward.proxy.port), "localhost",
                                                                String(stack.frontPort), stack.forward.caPath])
        #expect(result.status == 0, "\(result.output) \(result.error)")
        for step in ["connect 200", "upgrade 101 accept-ok", "echo 0 ok", "echo 1 ok", "echo 2 ok", "close 1000", "eof"] {
            #expect(result.output.contains(step), "\(step): \(result.output) \(result.error)")
        }
        // The proxy terminated the client's TLS and opened its own to the origin: one TLS
        // connection at the front, and the journal has the upgrade.
        #expect(stack.front.output.text.contains("conn 1 open"), "\(stack.front.output.text)")
        let records = try await stack.forward.journal()
        #expect(records.contains { $0["path"] as? String == "/ws" }, "\(records)")
    }

    @Test func aWebSocketRunsThroughAPassThroughTunnel() async throws {
        let stack = try await Self.start(intercept: false)
        defer { stack.stop() }
        // The client trusts only the test chain's root: it sees the origin's own certificate.
        let result = try await Self.runScript("ws_client.py", [String(stack.forward.proxy.port), "localhost",
                                                                String(stack.frontPort), stack.chain.path("root.pem")])
        #expect(result.status == 0, "\(result.output) \(result.error)")
        for step in ["connect 200", "upgrade 101 accept-ok", "echo 2 ok", "close 1000", "eof"] {
            #expect(result.output.contains(step), "\(step): \(result.output) \(result.error)")
        }
    }

    @Test func serverSentEventsArriveOneByOneThroughInterception() async throws {
        let stack = try await Self.start(intercept: true)
        defer { stack.stop() }
        // Three events 3 s apart: each is waited for as it comes, none asserted on time.
        let curl = try ChildProcess(executable: "/usr/bin/curl",
                                    arguments: ["-sS", "-N", "--max-time", "60", "-x", stack.forward.proxyURL,
                                                "--cacert", stack.forward.caPath,
                                                "https://localhost:\(stack.frontPort)/sse/3?interval_ms=3000"])
        defer { curl.kill() }
        try await curl.output.waitForLine(containing: #"data: {"n": 0}"#, timeout: .seconds(30))
        // The first event came before the stream ended: it was not held back with the rest.
        #expect(!curl.output.text.contains(#"data: {"n": 2}"#) && curl.isRunning, "\(curl.output.text)")
        try await curl.output.waitForLine(containing: #"data: {"n": 1}"#, timeout: .seconds(30))
        try await curl.output.waitForLine(containing: #"data: {"n": 2}"#, timeout: .seconds(30))
        let status = try await curl.waitForExit(timeout: .seconds(30))
        #expect(status == 0, "\(curl.output.text)")
        #expect(curl.output.text.contains("id: 0") && curl.output.text.contains("id: 2"), "\(curl.output.text)")
    }

    @Test func aGRPCCallOverHTTP2GetsItsTrailersThroughInterception() async throws {
        let chain = try await TLSChainFactory.make()
        let origin = try await H2Origin.start(certificate: chain.path("chain.pem"), key: chain.path("leaf.key"))
        defer { origin.kill() }
        // gRPC needs HTTP/2 end to end: the upstream for that host says "protocol": "h2".
        let forward = try await ForwardStack.start(forward: [:], extra: ["upstreams": [
            "grpc": ["url": "https://localhost:\(origin.port)", "trust": ["ca_file": chain.path("root.pem")], "protocol": "h2"],
        ]])
        defer { forward.stop() }
        for (status, message) in [("0", "OK"), ("14", "OK")] {
            let result = try await Self.runScript("grpc_client.py", [String(forward.proxy.port), "localhost", String(origin.port),
                                                                     forward.caPath, status])
            #expect(result.status == 0, "\(result.output) \(result.error)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any],
                                      "\(result.output) \(result.error)")
            #expect(object["alpn"] as? String == "h2", "\(object)")
            #expect(object["status"] as? Int == 200 && object["content_type"] as? String == "application/grpc", "\(object)")
            #expect(object["messages"] as? [String] == ["ping through the proxy"], "\(object)")
            let trailers = object["trailers"] as? [String: String] ?? [:]
            #expect(trailers["grpc-status"] == status && trailers["grpc-message"] == message, "\(object)")
            #expect(object["ended"] as? Bool == true && object["reset"] == nil, "\(object)")
        }
        // The origin saw HTTP/2 from the proxy.
        #expect(origin.output.text.contains("open h2"), "\(origin.output.text)")
        #expect(try await origin.waitForRequests(2).count == 2, "\(origin.output.text)")
    }

    /// Without that upstream, the proxy speaks HTTP/1.1 to the host (docs/forward-proxy.md,
    /// "Limits"): an h2-only gRPC server refuses it and the client gets a 502, not a gRPC status.
    @Test func withoutAnH2UpstreamAGRPCCallGetsA502() async throws {
        let chain = try await TLSChainFactory.make()
        let origin = try await H2Origin.start(certificate: chain.path("chain.pem"), key: chain.path("leaf.key"))
        defer { origin.kill() }
        let forward = try await ForwardStack.start(["--upstream-ca", chain.path("root.pem")])
        defer { forward.stop() }
        let result = try await Self.runScript("grpc_client.py", [String(forward.proxy.port), "localhost", String(origin.port),
                                                                 forward.caPath])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any],
                                  "\(result.output) \(result.error)")
        #expect(object["status"] as? Int == 502 && (object["trailers"] as? [String: String])?["grpc-status"] == nil, "\(object)")
        #expect(origin.requests.isEmpty, "\(origin.output.text)")
    }
}
