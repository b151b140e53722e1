import Foundation
import Testing
import FaultlineTestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Downstream TLS listeners through the real binary: curl, URLSession and `openssl s_client`
/// as clients; versions, ALPN, SNI, drill certificates, and bad clients.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct TLSListenerTests {
    /// A chain, a pinned Python TLS origin, and a proxy whose listeners are `listeners`.
    struct Stack {
        let chain: TLSChain
        let origin: TLSOriginProcess
        let proxy: TLSProxy
    }

    static func start(clientHeaderMs: Int = 2000, workers: Int = 2,
                      listeners: (TLSChain) -> [[String: Any]]) async throws -> Stack {
        let chain = try await TLSChainFactory.make()
        let origin = try await TLSOriginProcess.python(chain: chain.path("chain.pem"), key: chain.path("leaf.key"))
        let proxy = try await TLSProxy.start(TLSProxyConfig.root(
            listeners: listeners(chain),
            upstreams: ["o": TLSProxyConfig.upstream(port: origin.port, caFile: chain.path("root.pem"),
                                                      pins: ["sha256": [chain.pin("leaf"), chain.pin("backup")]])],
            clientHeaderMs: clientHeaderMs, workers: workers))
        return Stack(chain: chain, origin: origin, proxy: proxy)
    }

    /// The normal listener: the localhost leaf and its intermediate.
    static func normal(_ chain: TLSChain, _ extra: [String: Any] = [:]) -> [String: Any] {
        TLSProxyConfig.tlsListener(certificate: chain.path("chain.pem"), key: chain.path("leaf.key"), extra: extra)
    }

    /// `openssl s_client` against the port with `arguments`, stdin closed; exit status and output.
    static func sClient(_ port: Int, _ arguments: String, in chain: TLSChain) async throws -> (status: Int32, output: String) {
        try await TLSChainFactory.shell("openssl s_client -connect 127.0.0.1:\(port) -CAfile root.pem \(arguments) < /dev/null 2>&1",
                                        in: chain.directory, timeout: .seconds(15))
    }

    @Test func curlGetsTheOriginThroughTheTLSListener() async throws {
        let stack = try await Self.start { [Self.normal($0)] }
        let port = stack.proxy.port
        let byIP = try await TLSCurl.get("https://127.0.0.1:\(port)/via-ip", ["--cacert", stack.chain.path("root.pem")])
        #expect(byIP.exitCode == 0 && byIP.status == 200 && byIP.body.contains("/via-ip"), "\(byIP)")
        let byName = try await TLSCurl.get("https://localhost:\(port)/via-name",
                                           ["--cacert", stack.chain.path("root.pem"), "--resolve", "localhost:\(port):127.0.0.1"])
        #expect(byName.exitCode == 0 && byName.status == 200 && byName.body.contains("/via-name"), "\(byName)")
        // Keep-alive over TLS: two requests on one connection.
        let two = try await Curl.run(["--cacert", stack.chain.path("root.pem"),
                                      "https://127.0.0.1:\(port)/one", "https://127.0.0.1:\(port)/two"])
        #expect(two.exitCode == 0 && two.text.contains("/one") && two.text.contains("/two"), "\(two.stderr)")
        // Without the CA, curl refuses the listener's certificate.
        let untrusted = try await TLSCurl.get("https://127.0.0.1:\(port)/", [])
        #expect(untrusted.exitCode == 60, "\(untrusted)")
        #expect(stack.origin.requests.count == 4, "\(stack.origin.output.text)")
    }

    /// URLSession trusting the test CA (a private trust store, see `TrustedURLSession`) gets
    /// the origin's answers through the TLS listener, several requests at once on one session.
    @Test func urlSessionTrustingTheTestCAGetsTheOriginThroughTheTLSListener() async throws {
        let stack = try await Self.start { [Self.normal($0)] }
        let url = "https://127.0.0.1:\(stack.proxy.port)/trusted-urlsession"
        let root = stack.chain.path("root.pem")
        let outcomes = try await Blocking.run { try TrustedURLSession.run(url, trusting: root, count: 3) }
        for outcome in outcomes {
            #expect(outcome.status == 200 && outcome.errorCode == nil && (outcome.bodyBytes ?? 0) > 0, "\(outcome)")
        }
        #expect(stack.origin.requests.count == 3, "\(stack.origin.output.text)")
    }

    /// FoundationNetworking's URLSession on Linux (libcurl underneath) trusts only the system
    /// store: it has no API to add a CA and does not deliver server-trust challenges. Without
    /// a private trust store (above) it refuses the listener's test-CA certificate: fail closed.
    @Test func urlSessionRefusesTheListenerCertificateFromAnUntrustedCA() async throws {
        let stack = try await Self.start { [Self.normal($0)] }
        let client = HTTPClient()
        do {
            let response = try await client.send("https://127.0.0.1:\(stack.proxy.port)/urlsession", timeout: 5)
            Issue.record("URLSession accepted a certificate from a CA outside the system store: \(response.status)")
        } catch {
            // FoundationNetworking reports libcurl's CURLE_PEER_FAILED_VERIFICATION as NSURLErrorUnknown (-1)
            // with curl's message, not as NSURLErrorServerCertificateUntrusted (-1202) as Darwin does.
            let nsError = error as NSError
            #expect(nsError.domain == NSURLErrorDomain, "\(error)")
            #expect(nsError.localizedDescription.contains("SSL certificate problem: unable to get local issuer certificate")
                        || nsError.code == NSURLErrorServerCertificateUntrusted, "\(error)")
        }
        #expect(stack.origin.requests.isEmpty, "\(stack.origin.output.text)")
        // The proxy keeps serving.
        let reply = try await TLSCurl.get("https://127.0.0.1:\(stack.proxy.port)/after", ["--cacert", stack.chain.path("root.pem")])
        #expect(reply.status == 200, "\(reply)")
    }

    @Test func sClientSeesALPNAndOnlyTLS12AndLater() async throws {
        let stack = try await Self.start { chain in
            [Self.normal(chain, ["alpn": ["http/1.1"], "min_version": "1.2"]), Self.normal(chain, ["min_version": "1.3"])]
        }
        let (port, strictPort) = (stack.proxy.ports[0], stack.proxy.ports[1])
        let alpn = try await Self.sClient(port, "-servername localhost -alpn http/1.1", in: stack.chain)
        #expect(alpn.output.contains("ALPN protocol: http/1.1"), "\(alpn.output)")
        #expect(alpn.output.contains("Verify return code: 0 (ok)"), "\(alpn.output)")

        let v12 = try await Self.sClient(port, "-servername localhost -tls1_2", in: stack.chain)
        #expect(v12.status == 0 && v12.output.contains("New, TLSv1.2,"), "\(v12.output)")
        let v13 = try await Self.sClient(port, "-servername localhost -tls1_3", in: stack.chain)
        #expect(v13.status == 0 && v13.output.contains("New, TLSv1.3,"), "\(v13.output)")
        // SECLEVEL=0 lets the client offer TLS 1.1 at all, so the refusal is the listener's.
        let v11 = try await Self.sClient(port, "-servername localhost -tls1_1 -cipher DEFAULT@SECLEVEL=0", in: stack.chain)
        #expect(v11.status != 0 && !v11.output.contains("New, TLSv1.1,"), "\(v11.output)")
        #expect(v11.output.contains("alert protocol version") || v11.output.contains("unsupported protocol")
                    || v11.output.contains("no protocols available"), "\(v11.output)")

        let strict12 = try await Self.sClient(strictPort, "-servername localhost -tls1_2", in: stack.chain)
        #expect(strict12.status != 0 && !strict12.output.contains("New, TLSv1.2,"), "min_version 1.3 accepted TLS 1.2: \(strict12.output)")
        let strict13 = try await Self.sClient(strictPort, "-servername localhost -tls1_3", in: stack.chain)
        #expect(strict13.status == 0 && strict13.output.contains("New, TLSv1.3,"), "\(strict13.output)")

        let reply = try await TLSCurl.get("https://127.0.0.1:\(port)/after", ["--cacert", stack.chain.path("root.pem")])
        #expect(reply.status == 200, "\(reply)")
    }

    /// One TLS 1.3 ticket per full handshake (OpenSSL's default is two; see
    /// docs/architecture.md), and a client that kept it resumes with it.
    @Test func aFullHandshakeGetsOneTicketAndTheClientResumesWithIt() async throws {
        let stack = try await Self.start { [Self.normal($0)] }
        let port = stack.proxy.port
        let request = "printf 'GET /ticket HTTP/1.1\\r\\nHost: localhost\\r\\nConnection: close\\r\\n\\r\\n' | "
        let sClient = "openssl s_client -connect 127.0.0.1:\(port) -CAfile root.pem -servername localhost -tls1_3 -ign_eof"
        let first = try await TLSChainFactory.shell("\(request)\(sClient) -sess_out ticket.pem 2>&1",
                                                    in: stack.chain.directory, timeout: .seconds(15))
        #expect(first.output.contains("New, TLSv1.3,") && first.output.contains("HTTP/1.1 200"), "\(first.output)")
        let tickets = first.output.components(separatedBy: "Post-Handshake New Session Ticket arrived").count - 1
        #expect(tickets == 1, "\(tickets) tickets: \(first.output)")
        let second = try await TLSChainFactory.shell("\(request)\(sClient) -sess_in ticket.pem 2>&1",
                                                     in: stack.chain.directory, timeout: .seconds(15))
        #expect(second.output.contains("Reused, TLSv1.3,") && second.output.contains("HTTP/1.1 200"), "\(second.output)")
    }

    @Test func sniPresentsOneCertificatePerServerName() async throws {
        let stack = try await Self.start { chain in
            [Self.normal(chain, ["sni": [["server_name": "api.test", "certificate": chain.path("api-chain.pem"),
                                          "key": chain.path("api.key")]]])]
        }
        let port = stack.proxy.port
        let api = try await Self.sClient(port, "-servername api.test", in: stack.chain)
        #expect(api.output.contains("subject=CN = api.test"), "\(api.output)")
        let upper = try await Self.sClient(port, "-servername API.TEST", in: stack.chain)
        #expect(upper.output.contains("subject=CN = api.test"), "server names are case-insensitive: \(upper.output)")
        let local = try await Self.sClient(port, "-servername localhost", in: stack.chain)
        #expect(local.output.contains("subject=CN = localhost"), "\(local.output)")
        let none = try await Self.sClient(port, "-noservername", in: stack.chain)
        #expect(none.output.contains("subject=CN = localhost"), "\(none.output)")
        let reply = try await TLSCurl.get("https://api.test:\(port)/sni",
                                          ["--cacert", stack.chain.path("root.pem"), "--resolve", "api.test:\(port):127.0.0.1"])
        #expect(reply.exitCode == 0 && reply.status == 200 && reply.body.contains("/sni"), "\(reply)")
    }

    @Test func eachDrillCertificateIsRefusedByCurlWithTheExpectedError() async throws {
        let drills: [(label: String, certificate: String, key: String)] = [
            ("expired", "expired-chain.pem", "expired.key"),
            ("wrong-host", "wronghost-chain.pem", "wronghost.key"),
            ("untrusted-ca", "untrusted.pem", "untrusted.key"),
            ("other-key", "rotated-chain.pem", "rotated.key"),
        ]
        let stack = try await Self.start { chain in
            drills.map { drill in
                Self.normal(chain, ["drill": ["certificate": chain.path(drill.certificate), "key": chain.path(drill.key),
                                              "label": drill.label]])
            }
        }
        #expect(stack.proxy.ports.count == 4)
        let ca = stack.chain.path("root.pem")
        func curl(_ index: Int, _ extra: [String] = []) async throws -> TLSCurl.Reply {
            let port = stack.proxy.ports[index]
            return try await TLSCurl.get("https://localhost:\(port)/drill",
                                         ["--cacert", ca, "--resolve", "localhost:\(port):127.0.0.1"] + extra)
        }
        let expired = try await curl(0)
        #expect(expired.exitCode == 60 && expired.stderr.contains("SSL certificate problem: certificate has expired"), "\(expired)")
        let wrongHost = try await curl(1)
        #expect(wrongHost.exitCode == 60 && wrongHost.stderr.contains("no alternative certificate subject name matches"), "\(wrongHost)")
        let untrusted = try await curl(2)
        #expect(untrusted.exitCode == 60 && untrusted.stderr.contains("unable to get local issuer certificate"), "\(untrusted)")
        // The other-key drill is a valid certificate: only a pinning client notices it.
        let otherKey = try await curl(3, ["--pinnedpubkey", "sha256//" + stack.chain.pin("leaf")])
        #expect(otherKey.exitCode == 90, "\(otherKey)")
        let unpinned = try await curl(3)
        #expect(unpinned.exitCode == 0 && unpinned.status == 200, "\(unpinned)")
        let pinnedToDrill = try await curl(3, ["--pinnedpubkey", "sha256//" + stack.chain.pin("rotated")])
        #expect(pinnedToDrill.exitCode == 0, "\(pinnedToDrill)")
        #expect(stack.origin.requests.count == 2, "only the two accepted requests reach the origin:\n\(stack.origin.output.text)")
    }

    @Test func plainHTTPToTheTLSPortGetsA400AndTheProxyKeepsServing() async throws {
        let stack = try await Self.start { [Self.normal($0)] }
        let port = stack.proxy.port
        let outcome = try await Blocking.run {
            let client = try RawClient(port: port)
            try client.send("GET /plain HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            return client.readUntilClose(timeout: .seconds(5))
        }
        #expect(outcome.closed, "the proxy left a plain-HTTP client on its TLS port open")
        let answer = String(decoding: outcome.bytes, as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 400 "), "a plain-HTTP client is told, in plain HTTP: \(answer)")
        #expect(answer.contains("This port speaks HTTPS"), "\(answer)")
        let line = try await stack.proxy.output.waitForLine(containing: "faultline: client 127.0.0.1")
        #expect(line.text.contains("TLS with"), "\(line.text)")
        let reply = try await TLSCurl.get("https://127.0.0.1:\(port)/after", ["--cacert", stack.chain.path("root.pem")])
        #expect(reply.status == 200 && reply.body.contains("/after"), "\(reply)")
        #expect(stack.origin.requests.count == 1, "\(stack.origin.output.text)")
    }

    @Test func aHandshakeThatNeverCompletesIsClosedByTheHeaderTimeout() async throws {
        let stack = try await Self.start(clientHeaderMs: 500, workers: 1) { [Self.normal($0)] }
        let port = stack.proxy.port
        let ca = stack.chain.path("root.pem")
        async let stalled: (closed: Bool, elapsed: Duration) = Blocking.run {
            let client = try RawClient(port: port, readTimeout: .milliseconds(200))
            let start = ContinuousClock.now
            let result = client.readUntilClose(timeout: .seconds(10))
            return (result.closed, ContinuousClock.now - start)
        }
        // Served while the silent connection waits (same single event loop).
        let during = try await TLSCurl.get("https://127.0.0.1:\(port)/during", ["--cacert", ca])
        #expect(during.status == 200, "\(during)")
        let (closed, elapsed) = try await stalled
        #expect(closed, "a connection that never sent a ClientHello was left open")
        #expect(elapsed >= .milliseconds(400) && elapsed < .seconds(8), "closed after \(elapsed), expected about 500 ms")
        // A handshake that stops half-way (a few bytes of a record header) is closed too.
        let partial = try await Blocking.run {
            let client = try RawClient(port: port, readTimeout: .milliseconds(200))
            try client.send([0x16, 0x03, 0x01, 0x01])
            let start = ContinuousClock.now
            let result = client.readUntilClose(timeout: .seconds(10))
            return (result.closed, ContinuousClock.now - start)
        }
        #expect(partial.0 && partial.1 < .seconds(8), "partial ClientHello: closed \(partial.0) after \(partial.1)")
        let after = try await TLSCurl.get("https://127.0.0.1:\(port)/after", ["--cacert", ca])
        #expect(after.status == 200, "\(after)")
    }
}
