import Foundation
import Testing
import FaultlineTestSupport

/// https upstreams through the real binary: chain verification before pins, `openssl s_server`
/// as the origin, pooled TLS connections.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct TLSUpstreamTests {
    static func pins(_ live: [String]) -> [String: Any] { ["sha256": live, "mode": "enforce"] }

    @Test func wrongHostNameFailsBeforePinsAndForwardsNothing() async throws {
        let chain = try await TLSChainFactory.make()
        let origin = try await TLSOriginProcess.python(chain: chain.path("wronghost-chain.pem"), key: chain.path("wronghost.key"))
        // The pins would pass (the served leaf and its intermediate): the name check must refuse first.
        let proxy = try await TLSProxy.start(TLSProxyConfig.root(
            listeners: [TLSProxyConfig.plainListener],
            upstreams: ["o": TLSProxyConfig.upstream(port: origin.port, caFile: chain.path("root.pem"),
                                                      pins: Self.pins([chain.pin("wronghost"), chain.pin("int")]))]))
        let reply = try await TLSCurl.get(proxy.url("/wrong-host"))
        #expect(reply.status == 502, "\(reply)")
        #expect(reply.body.hasPrefix("upstream TLS handshake failed:"), "\(reply.body)")
        #expect(!reply.body.contains("pin mismatch"), "\(reply.body)")
        let lower = reply.body.lowercased()
        #expect(lower.contains("certificate verify failed") && lower.contains("hostname mismatch") && lower.contains("localhost"),
                "the body should name the verification problem: \(reply.body)")
        #expect(origin.requests.isEmpty, "\(origin.output.text)")
        // Pins are never considered for an unverified chain.
        let status = try? await proxy.pinStatus("o")
        let live = status?["live"] as? [String: Any]
        #expect((live?["passed"] as? Int ?? 0) == 0, "pins were evaluated on an unverified chain: \(String(describing: status))")
    }

    @Test func untrustedCAFailsEvenWhenThePinMatches() async throws {
        let chain = try await TLSChainFactory.make()
        let origin = try await TLSOriginProcess.python(chain: chain.path("untrusted-chain.pem"), key: chain.path("untrusted.key"))
        let proxy = try await TLSProxy.start(TLSProxyConfig.root(
            listeners: [TLSProxyConfig.plainListener],
            upstreams: ["o": TLSProxyConfig.upstream(port: origin.port, caFile: chain.path("root.pem"),
                                                      pins: Self.pins([chain.pin("untrusted"), chain.pin("untrusted-root")]))]))
        let reply = try await TLSCurl.get(proxy.url("/untrusted"))
        #expect(reply.status == 502, "\(reply)")
        #expect(reply.body.hasPrefix("upstream TLS handshake failed:"), "\(reply.body)")
        let lower = reply.body.lowercased()
        #expect(lower.contains("certificate verify failed") && (lower.contains("issuer") || lower.contains("self-signed")),
                "the body should name the verification problem: \(reply.body)")
        #expect(origin.requests.isEmpty, "\(origin.output.text)")
    }

    @Test func expiredUpstreamCertificateFails() async throws {
        let chain = try await TLSChainFactory.make()
        let origin = try await TLSOriginProcess.python(chain: chain.path("expired-chain.pem"), key: chain.path("expired.key"))
        let proxy = try await TLSProxy.start(TLSProxyConfig.root(
            listeners: [TLSProxyConfig.plainListener],
            upstreams: ["o": TLSProxyConfig.upstream(port: origin.port, caFile: chain.path("root.pem"))]))
        let reply = try await TLSCurl.get(proxy.url("/expired"))
        #expect(reply.status == 502 && reply.body.hasPrefix("upstream TLS handshake failed:"), "\(reply)")
        #expect(reply.body.lowercased().contains("expired"), "\(reply.body)")
        #expect(origin.requests.isEmpty, "\(origin.output.text)")
    }

    @Test func opensslSServerAsThePinnedUpstream() async throws {
        let chain = try await TLSChainFactory.make()
        let origin = try await TLSOriginProcess.openSSL(certificate: chain.path("leaf.pem"), key: chain.path("leaf.key"),
                                                        chain: chain.path("int.pem"))
        let proxy = try await TLSProxy.start(TLSProxyConfig.root(
            listeners: [TLSProxyConfig.plainListener],
            upstreams: ["ok": TLSProxyConfig.upstream(port: origin.port, caFile: chain.path("root.pem"),
                                                       pins: Self.pins([chain.pin("int"), chain.pin("backup")])),
                        "bad": TLSProxyConfig.upstream(port: origin.port, caFile: chain.path("root.pem"),
                                                        pins: Self.pins([chain.pin("rotated"), chain.pin("backup")]))],
            routes: [["name": "ok", "match": ["path": "/"], "upstream": "ok"],
                     ["name": "bad", "match": ["path_prefix": "/bad"], "upstream": "bad"]]))
        let reply = try await TLSCurl.get(proxy.url("/"))
        #expect(reply.exitCode == 0 && reply.status == 200, "\(reply)")
        #expect(reply.body.contains("s_server") || reply.body.contains("Ciphers"), "\(reply.body.prefix(400))")
        let refused = try await TLSCurl.get(proxy.url("/bad"))
        #expect(refused.status == 502 && refused.body.contains("pin mismatch"), "\(refused)")
        let status = try await proxy.pinStatus("ok")
        #expect(((status["last_matches"] as? [String]) ?? []).contains { $0.contains("intermediate") }, "\(status)")
    }

    @Test func pooledUpstreamTLSConnectionIsReused() async throws {
        let chain = try await TLSChainFactory.make()
        let origin = try await TLSOriginProcess.python(chain: chain.path("chain.pem"), key: chain.path("leaf.key"))
        let proxy = try await TLSProxy.start(TLSProxyConfig.root(
            listeners: [TLSProxyConfig.plainListener],
            upstreams: ["o": TLSProxyConfig.upstream(port: origin.port, caFile: chain.path("root.pem"),
                                                      pins: Self.pins([chain.pin("leaf"), chain.pin("backup")]))]))
        // Two requests on one curl connection (one event loop): the upstream connection is pooled between them.
        let result = try await Curl.run([proxy.url("/first"), proxy.url("/second")])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.text.contains("/first") && result.text.contains("/second"), "\(result.text)")
        #expect(origin.requests.count == 2, "\(origin.output.text)")
        #expect(origin.connections.count == 1 && origin.handshakes.count == 1,
                "expected one pooled TLS connection to the origin:\n\(origin.output.text)")
        let replies = try JSONSerialization.jsonObject(with: Data("[\(result.text.replacingOccurrences(of: "}{", with: "},{"))]".utf8)) as? [[String: Any]]
        #expect(replies?.compactMap { $0["conn"] as? Int } == [1, 1], "\(result.text)")
        let status = try await proxy.pinStatus("o")
        #expect(status["handshakes"] as? Int == 1, "pins are checked once per handshake: \(status)")
    }

    /// With pooling off every request makes a new handshake, and from the second on OpenSSL
    /// may resume the session: the pins must still be checked on each one, against the chain
    /// verified when the session was made.
    @Test func pinsAreEnforcedOnEveryNewAndResumedHandshake() async throws {
        let chain = try await TLSChainFactory.make()
        let good = try await TLSOriginProcess.python(chain: chain.path("chain.pem"), key: chain.path("leaf.key"))
        let rotated = try await TLSOriginProcess.python(chain: chain.path("rotated-chain.pem"), key: chain.path("rotated.key"))
        let pins = Self.pins([chain.pin("leaf"), chain.pin("backup")])
        let proxy = try await TLSProxy.start(TLSProxyConfig.root(
            listeners: [TLSProxyConfig.plainListener],
            upstreams: ["good": TLSProxyConfig.upstream(port: good.port, caFile: chain.path("root.pem"), pins: pins, maxIdle: 0),
                        "bad": TLSProxyConfig.upstream(port: rotated.port, caFile: chain.path("root.pem"), pins: pins, maxIdle: 0)],
            routes: [["name": "good", "match": ["path_prefix": "/good"], "upstream": "good"],
                     ["name": "bad", "match": ["path_prefix": "/bad"], "upstream": "bad"]], workers: 1))
        for index in 1...3 {
            let reply = try await TLSCurl.get(proxy.url("/good/\(index)"))
            #expect(reply.status == 200 && reply.body.contains("/good/\(index)"), "request \(index): \(reply)")
            let refused = try await TLSCurl.get(proxy.url("/bad/\(index)"))
            #expect(refused.status == 502 && refused.body.contains("pin mismatch"), "request \(index): \(refused)")
        }
        #expect(good.handshakes.count == 3, "pooling is off: \(good.output.text)")
        #expect(rotated.requests.isEmpty, "a request reached the mismatching origin:\n\(rotated.output.text)")
        let goodStatus = try await proxy.pinStatus("good")
        #expect((goodStatus["live"] as? [String: Any])?["passed"] as? Int == 3, "\(goodStatus)")
        #expect(goodStatus["handshakes"] as? Int == 3, "\(goodStatus)")
        let badStatus = try await proxy.pinStatus("bad")
        #expect((badStatus["live"] as? [String: Any])?["failed"] as? Int == 3, "\(badStatus)")
    }

    /// Upstream sessions are resumed: a new connection to the same host:port
    /// offers the cached session. The Python origin resumes sessions (`openssl s_client
    /// -sess_out`/`-sess_in` gets `Reused, TLSv1.3`), and logs `resumed` on such handshakes.
    @Test func newUpstreamConnectionsResumeTheTLSSession() async throws {
        let chain = try await TLSChainFactory.make()
        let origin = try await TLSOriginProcess.python(chain: chain.path("chain.pem"), key: chain.path("leaf.key"))
        let proxy = try await TLSProxy.start(TLSProxyConfig.root(
            listeners: [TLSProxyConfig.plainListener],
            upstreams: ["o": TLSProxyConfig.upstream(port: origin.port, caFile: chain.path("root.pem"),
                                                      pins: Self.pins([chain.pin("leaf"), chain.pin("backup")]), maxIdle: 0)],
            workers: 1))
        for index in 1...3 {
            let reply = try await TLSCurl.get(proxy.url("/resume/\(index)"))
            #expect(reply.status == 200, "request \(index): \(reply)")
        }
        #expect(origin.handshakes.count == 3, "pooling is off: \(origin.output.text)")
        #expect(origin.resumedHandshakes.count == 2, "the 2nd and 3rd handshakes should resume the session:\n\(origin.output.text)")
        let status = try await proxy.pinStatus("o")
        #expect((status["live"] as? [String: Any])?["passed"] as? Int == 3, "pins hold on resumed handshakes: \(status)")
    }
}
