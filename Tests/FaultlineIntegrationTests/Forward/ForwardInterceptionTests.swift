import Foundation
import Testing
import FaultlineTestSupport

/// HTTPS through a forward proxy that intercepts: curl `-x … --cacert certs/ca.pem` (HTTP/1.1
/// and HTTP/2) reaches a TLS origin through a leaf minted for the name asked for; routes and
/// faults apply to the decrypted requests; the real host is verified (the test chain's root
/// only through `--upstream-ca`); a client that sends nothing after CONNECT is let go.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct ForwardInterceptionTests {
    struct Stack {
        let chain: TLSChain
        let origin: TLSOriginProcess
        let forward: ForwardStack

        func stop() {
            forward.stop()
            origin.kill()
        }

        /// curl to the TLS origin through the proxy, trusting the proxy's CA only.
        func get(_ path: String, host: String = "localhost", _ extra: [String] = []) async throws -> (result: CurlResult, status: Int?) {
            try await forward.curl(["--cacert", forward.caPath, "https://\(host):\(origin.port)\(path)"] + extra)
        }
    }

    static func start(upstreamCA: Bool = true) async throws -> Stack {
        let chain = try await TLSChainFactory.make()
        let origin = try await TLSOriginProcess.python(chain: chain.path("chain.pem"), key: chain.path("leaf.key"))
        let extra: [String] = upstreamCA ? ["--upstream-ca", chain.path("root.pem")] : []
        let forward = try await ForwardStack.start(extra)
        return Stack(chain: chain, origin: origin, forward: forward)
    }

    @Test func curlGetsTheOriginThroughInterceptionOverHTTP1AndHTTP2() async throws {
        let stack = try await Self.start()
        defer { stack.stop() }
        // The CA was minted on start-up, and said so.
        #expect(stack.forward.proxy.output.text.contains("minted a development CA"), "\(stack.forward.proxy.output.text)")
        let one = try await stack.get("/over-http1", ["--http1.1", "-v"])
        #expect(one.status == 200 && one.result.text.contains("/over-http1"), "\(one.result.text) \(one.result.stderr)")
        // The client saw Faultline's leaf for the name it asked for, not the origin's.
        #expect(one.result.stderr.contains("CN=localhost") && one.result.stderr.contains("Faultline development CA"), "\(one.result.stderr)")
        let two = try await stack.get("/over-h2", ["--http2", "-w", " %{http_version}"])
        #expect(two.result.exitCode == 0 && two.result.text.contains("/over-h2") && two.result.text.hasSuffix(" 2"),
                "\(two.result.text) \(two.result.stderr)")
        // 127.0.0.1 gets a leaf with an IP name.
        let byIP = try await stack.get("/by-ip", host: "127.0.0.1")
        #expect(byIP.status == 200, "\(byIP.result.stderr)")
        #expect(stack.origin.requests.count == 3, "\(stack.origin.output.text)")
        let records = try await stack.forward.journal()
        #expect(records.contains { $0["path"] as? String == "/over-h2" && $0["upstream"] as? String == "localhost:\(stack.origin.port)" },
                "\(records)")
    }

    @Test func faultsApplyToInterceptedRoutes() async throws {
        let stack = try await Self.start()
        defer { stack.stop() }
        try await stack.forward.addRule(#"{"name": "pay", "match": {"host": "localhost", "path_prefix": "/v1/pay"}, "faults": [{"status": 503}]}"#)
        let paid = try await stack.get("/v1/pay/now")
        #expect(paid.status == 503, "\(paid.result.text)")
        let http2 = try await stack.get("/v1/pay/again", ["--http2"])
        #expect(http2.status == 503, "\(http2.result.text)")
        let other = try await stack.get("/v1/users")
        #expect(other.status == 200, "\(other.result.text)")
        try await stack.forward.replaceRule("pay", #"{"match": {"host": "localhost", "path_prefix": "/v1/pay"}, "faults": [{"reset": {}}]}"#)
        let reset = try await stack.get("/v1/pay/reset", ["--http1.1"])
        #expect(reset.result.exitCode == 56 || reset.result.exitCode == 35, "\(reset.result.exitCode) \(reset.result.stderr)")
        try await stack.forward.replaceRule("pay", #"{"match": {"host": "localhost", "path_prefix": "/v1/pay"}, "faults": [{"delay": 200}]}"#)
        let delayed = try await stack.get("/v1/pay/slow")
        #expect(delayed.status == 200, "\(delayed.result.text)")
        // Only the matching requests reached the origin.
        #expect(stack.origin.requests.count == 2, "\(stack.origin.output.text)")
    }

    @Test func theRealHostIsVerified() async throws {
        let stack = try await Self.start(upstreamCA: false)
        defer { stack.stop() }
        let refused = try await stack.get("/unverified")
        #expect(refused.status == 502, "\(refused.result.text)")
        #expect(stack.origin.requests.isEmpty)
    }

    @Test func aClientThatSendsNothingAfterConnectIsLetGoAndOthersAreServed() async throws {
        let stack = try await Self.start()
        defer { stack.stop() }
        let silent = try RawClient(port: stack.forward.proxy.port, readTimeout: .seconds(30))
        try silent.send("CONNECT localhost:\(stack.origin.port) HTTP/1.1\r\n\r\n")
        let reply = String(decoding: silent.read(until: "\r\n\r\n"), as: UTF8.self)
        #expect(reply.hasPrefix("HTTP/1.1 200"), "\(reply)")
        // Meanwhile others are served.
        let served = try await stack.get("/while-one-is-silent")
        #expect(served.status == 200, "\(served.result.stderr)")
        // The silent one is closed by the client header deadline (10 s by default).
        let end = silent.readUntilClose(timeout: .seconds(25))
        #expect(end.closed)
    }
}

extension ForwardInterceptionTests {
    /// An upstream configured for the exact host, port and scheme a client asks for lends its
    /// settings to the intercepted requests: its trust (no --upstream-ca here) and its pins.
    @Test func aConfiguredUpstreamForTheHostLendsItsTrustAndPins() async throws {
        let chain = try await TLSChainFactory.make()
        let origin = try await TLSOriginProcess.python(chain: chain.path("chain.pem"), key: chain.path("leaf.key"))
        defer { origin.kill() }
        for (pins, expected) in [([chain.pin("leaf"), chain.pin("backup")], 200), ([chain.pin("rotated"), chain.pin("backup")], 502)] {
            let forward = try await ForwardStack.start(forward: [:], extra: ["upstreams": [
                "staging": ["url": "https://localhost:\(origin.port)", "trust": ["ca_file": chain.path("root.pem")],
                            "pins": ["sha256": pins]],
            ]])
            defer { forward.stop() }
            let reply = try await forward.curl(["--cacert", forward.caPath, "https://localhost:\(origin.port)/pinned"])
            #expect(reply.status == expected, "pins \(pins): \(reply.result.text)")
            let records = try await forward.journal()
            #expect(records.contains { $0["upstream"] as? String == "staging" }, "\(records)")
        }
    }
}

extension ForwardInterceptionTests {
    /// A client that trusts only the origin's CA (as a pinning app would) refuses the minted
    /// certificate: each refusal is a `tls` record and counted in `GET /intercept`; after
    /// `pass_through_after_refusals` the host is tunnelled and the same client succeeds.
    @Test func aRefusingClientIsCountedAndItsHostPassesThroughAfterTwoRefusals() async throws {
        let chain = try await TLSChainFactory.make()
        let origin = try await TLSOriginProcess.python(chain: chain.path("chain.pem"), key: chain.path("leaf.key"))
        defer { origin.kill() }
        let forward = try await ForwardStack.start(forward: ["pass_through_after_refusals": 2],
                                                   extra: ["log": ["destination": "stdout"]])
        defer { forward.stop() }
        let pinned = ["--cacert", chain.path("root.pem"), "https://localhost:\(origin.port)/pinned-app"]
        for attempt in 1...2 {
            let refused = try await forward.curl(pinned)
            #expect(refused.result.exitCode == 60, "attempt \(attempt): \(refused.result.exitCode) \(refused.result.stderr)")
        }
        let record = try await forward.proxy.output.waitForLine(containing: "\"error.type\":\"intercept_refused\"")
        #expect(record.text.contains("refused the intercepted certificate for localhost"), "\(record.text)")
        // The second refusal reaches the proxy after curl has exited: wait for its count.
        var host: [String: Any] = [:]
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(20)
        while clock.now < deadline {
            let listing = try await Curl.run([forward.adminURL + "/intercept"])
            let object = try JSONSerialization.jsonObject(with: Data(listing.stdout)) as? [String: Any]
            host = (object?["hosts"] as? [[String: Any]])?.first ?? [:]
            if host["refusals"] as? Int == 2 { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(host["host"] as? String == "localhost" && host["refusals"] as? Int == 2 && host["pass_through"] as? Bool == true,
                "\(host)")
        // Now tunnelled: the client sees the origin's own certificate and succeeds.
        let through = try await forward.curl(pinned)
        #expect(through.status == 200 && through.result.text.contains("/pinned-app"), "\(through.result.text) \(through.result.stderr)")
    }
}

extension ForwardInterceptionTests {
    /// A second client stack: Python `requests` with `proxies` (its CONNECT and absolute-form
    /// come from urllib3), trusting the minted CA, over HTTPS and plain HTTP.
    @Test func pythonRequestsUsesTheProxyForHTTPSAndHTTP() async throws {
        let stack = try await Self.start()
        defer { stack.stop() }
        let script = """
            import requests, sys
            proxies = {"http": "\(stack.forward.proxyURL)", "https": "\(stack.forward.proxyURL)"}
            secure = requests.get("https://localhost:\(stack.origin.port)/from-requests", proxies=proxies,
                                  verify="\(stack.forward.caPath)", timeout=10)
            plain = requests.get("http://127.0.0.1:\(stack.forward.origin.port)/headers", proxies=proxies, timeout=10)
            print(secure.status_code, "/from-requests" in secure.text, plain.status_code, '"host": "127.0.0.1:\(stack.forward.origin.port)"' in plain.text)
            """
        let directory = try TemporaryDirectory()
        let path = try directory.write("client.py", script)
        let result = try await Blocking.run { try Command.shellResult("\(TestPaths.python3) \(path)", in: nil, timeout: .seconds(30)) }
        #expect(result.status == 0 && result.output.contains("200 True 200 True"), "\(result.output) \(result.error)")
    }
}

extension ForwardInterceptionTests {
    /// A device that cannot add a header gets its own session by its address: a session
    /// claiming 127.0.0.1 puts intercepted requests in it, its rule fires, its journal has them.
    @Test func aSessionClaimingTheClientAddressTakesInterceptedRequests() async throws {
        let stack = try await Self.start()
        defer { stack.stop() }
        let created = try await Curl.run(["-X", "POST", "-H", "Content-Type: application/json", "--data-binary",
                                          #"{"name": "device", "clients": ["127.0.0.1"]}"#, stack.forward.adminURL + "/sessions"])
        let session = try #require(try JSONSerialization.jsonObject(with: Data(created.stdout)) as? [String: Any], "\(created.text)")
        let id = try #require(session["id"] as? String, "\(created.text)")
        let rule = try await Curl.run(["-X", "POST", "-H", "Content-Type: application/json", "--data-binary",
                                       #"{"name": "teapot", "match": {"host": "localhost", "path": "/in-session"}, "faults": [{"status": 418}]}"#,
                                       "-w", "\n%{http_code}", stack.forward.adminURL + "/sessions/\(id)/rules"])
        #expect(rule.text.hasSuffix("\n201"), "\(rule.text)")
        let inSession = try await stack.get("/in-session", ["--http2"])
        #expect(inSession.status == 418, "\(inSession.result.text)")
        let other = try await stack.get("/not-in-rule")
        #expect(other.status == 200, "\(other.result.text)")
        let journal = try await Curl.run([stack.forward.adminURL + "/sessions/\(id)/requests"])
        #expect(journal.text.contains("/in-session") && journal.text.contains("/not-in-rule"), "\(journal.text)")
    }
}

extension ForwardInterceptionTests {
    /// A ClientHello without SNI gets the leaf of the CONNECT host (openssl `-noservername`
    /// verifying `localhost` against the minted CA); one with SNI gets its own name's.
    @Test func aClientHelloWithoutSNIGetsTheConnectHostsLeaf() async throws {
        let stack = try await Self.start()
        defer { stack.stop() }
        let directory = try TemporaryDirectory()
        let proxy = "127.0.0.1:\(stack.forward.proxy.port)"
        let noSNI = try await Blocking.run {
            try Command.shellResult("openssl s_client -proxy \(proxy) -connect localhost:\(stack.origin.port) -noservername "
                                        + "-CAfile \(stack.forward.caPath) -verify_hostname localhost -verify_return_error < /dev/null",
                                    in: directory.url, timeout: .seconds(20))
        }
        #expect(noSNI.output.contains("CN = localhost") && noSNI.output.contains("Verify return code: 0 (ok)"), "\(noSNI.output)")
        let withSNI = try await Blocking.run {
            try Command.shellResult("openssl s_client -proxy \(proxy) -connect localhost:\(stack.origin.port) -servername api.test "
                                        + "-CAfile \(stack.forward.caPath) -verify_hostname api.test -verify_return_error < /dev/null",
                                    in: directory.url, timeout: .seconds(20))
        }
        #expect(withSNI.output.contains("CN = api.test") && withSNI.output.contains("Verify return code: 0 (ok)"), "\(withSNI.output)")
    }
}
