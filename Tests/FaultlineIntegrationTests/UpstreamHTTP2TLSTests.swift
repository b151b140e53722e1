import Foundation
import Testing
import FaultlineTestSupport

/// `protocol: h2` upstreams over TLS: ALPN offers h2 alone and must get it, and the chain
/// and pins are checked before the HTTP/2 preface, as for HTTP/1.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct UpstreamHTTP2TLSTests {
    @Test func pinnedH2OriginServesGetAndPostOnOneConnection() async throws {
        let chain = try await TLSChainFactory.make()
        let origin = try await H2Origin.start(certificate: chain.path("chain.pem"), key: chain.path("leaf.key"))
        defer { origin.kill() }
        let proxy = try await H2UpstreamStack.proxy(upstream: H2UpstreamStack.h2Upstream(
            port: origin.port, caFile: chain.path("root.pem"), pins: [chain.pin("int"), chain.pin("backup")]))
        defer { proxy.kill() }
        let get = try await Curl.run(["-sS", proxy.url("/echo")])
        let echo = try JSONObject.parse(get.stdout)
        #expect(echo["scheme"] as? String == "https" && echo["authority"] as? String == "127.0.0.1:\(proxy.port)", "\(get.text)")
        let post = try await Curl.run(["-sS", "-X", "POST", "--data-binary", "abc", proxy.url("/echo")])
        #expect(try JSONObject.parse(post.stdout)["body_bytes"] as? Int == 3, "\(post.text)")
        #expect(H2UpstreamStack.connections(origin) == ["conn 1 open h2"], "\(origin.output.text)")
    }

    @Test func originThatDoesNotSelectH2IsA502WithTheReason() async throws {
        let chain = try await TLSChainFactory.make()
        // An HTTP/1.1-only TLS origin: it selects no protocol from an offer of h2 alone.
        let origin = try await TLSOriginProcess.python(chain: chain.path("chain.pem"), key: chain.path("leaf.key"))
        defer { origin.kill() }
        let proxy = try await H2UpstreamStack.proxy(upstream: H2UpstreamStack.h2Upstream(
            port: origin.port, caFile: chain.path("root.pem")))
        defer { proxy.kill() }
        let reply = try await TLSCurl.get(proxy.url("/no-h2"), ["-H", "X-Request-ID: no-alpn"])
        #expect(reply.status == 502, "\(reply)")
        #expect(reply.body.hasPrefix("upstream did not select HTTP/2 by ALPN (it selected no protocol)"), "\(reply.body)")
        #expect(origin.requests.isEmpty, "\(origin.output.text)")
        let records = try await LogFile.waitForExchanges(["no-alpn"], in: proxy.directory.path("traffic.log"))
        #expect(records.contains { $0["error.type"] as? String == "upstream_protocol" }, "\(records)")
    }

    @Test func pinMismatchSendsNothingToTheH2Origin() async throws {
        let chain = try await TLSChainFactory.make()
        let origin = try await ByteCountingTLSOrigin.start(chain: chain.path("chain.pem"), key: chain.path("leaf.key"))
        defer { origin.kill() }
        let proxy = try await H2UpstreamStack.proxy(upstream: H2UpstreamStack.h2Upstream(
            port: origin.port, caFile: chain.path("root.pem"), pins: [chain.pin("rotated"), chain.pin("backup")]))
        defer { proxy.kill() }
        let reply = try await TLSCurl.get(proxy.url("/pinned"))
        #expect(reply.status == 502 && reply.body.contains("pin mismatch"), "\(reply)")
        // The handshake completed (ALPN h2, the chain verified), then the connection closed
        // before the preface: not one application byte reached the origin.
        _ = try await origin.output.waitForLine(containing: "conn 1 received", timeout: .seconds(5))
        let lines = origin.output.lines.map(\.text).filter { $0.hasPrefix("conn ") }
        #expect(lines == ["conn 1 open h2", "conn 1 received 0"], "\(origin.output.text)")
    }
}
