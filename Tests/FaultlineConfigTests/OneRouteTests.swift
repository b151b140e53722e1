import Testing
@testable import FaultlineConfig

@Suite("One-route setup")
struct OneRouteTests {
    @Test func buildsACatchAllRoute() throws {
        let config = try ConfigLoader.oneRoute(listen: "127.0.0.1:8080", upstreamURL: "http://staging.example.com:8000")
        #expect(config.listeners.map(\.address.description) == ["127.0.0.1:8080"])
        #expect(config.upstreams.count == 1)
        let upstream = try #require(config.upstreams.first)
        #expect(upstream.name == "default")
        #expect(upstream.host == "staging.example.com")
        #expect(upstream.port == 8000)
        #expect(upstream.hostHeader == .upstream)
        #expect(upstream.hostHeaderValue == "staging.example.com:8000")
        #expect(config.routes == [RouteConfig(name: "default", upstream: "default")])
        #expect(config.admin == nil)
        #expect(config.demoOrigin == nil)
        #expect(config.limits == Limits())
        #expect(config.clientTimeouts == ClientTimeouts())
        let table = RouteTable(config: config)
        #expect(table.match(host: "anything", method: "DELETE", path: "/x")?.upstream == upstream)
    }

    @Test func httpsUpstreamGetsDefaultTLS() throws {
        let config = try ConfigLoader.oneRoute(listen: "127.0.0.1:8443", upstreamURL: "https://Staging.Example.com")
        let upstream = try #require(config.upstreams.first)
        #expect(upstream.isTLS)
        #expect(upstream.port == 443)
        #expect(upstream.hostHeaderValue == "staging.example.com")
        #expect(upstream.tls == UpstreamTLSConfig(serverName: "staging.example.com"))
        #expect(upstream.tls?.trust == UpstreamTrustConfig(caFile: nil, system: true))
        #expect(upstream.tls?.verifyHostname == true)
        #expect(upstream.tls?.minVersion == .tls12)
        #expect(upstream.pins == nil)
    }

    @Test func reportsBothFlags() {
        do {
            _ = try ConfigLoader.oneRoute(listen: "8080", upstreamURL: "ftp://staging.example.com")
            Issue.record("expected an error")
        } catch {
            #expect(error.file == nil)
            #expect(error.description == """
                --listen: expected host:port, got "8080"
                --upstream: expected an http:// or https:// URL, got "ftp://staging.example.com"
                """)
        }
    }
}
