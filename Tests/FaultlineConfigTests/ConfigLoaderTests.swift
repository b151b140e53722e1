import Foundation
import Testing
@testable import FaultlineConfig

@Suite("Config loading")
struct ConfigLoaderTests {
    @Test func fullExampleLoads() throws {
        let json = #"""
        {
          "workers": 4,
          "listeners": [{"address": "127.0.0.1:8080"}, {"address": "[::1]:8080"}],
          "admin": {"address": "localhost:9901", "token": "s3cret"},
          "demo_origin": {"address": "127.0.0.1:8081"},
          "upstreams": {
            "staging": {"url": "http://Staging.Example.com:8000/", "host_header": "upstream"},
            "demo": {"url": "http://127.0.0.1:8081", "host_header": "preserve",
                     "timeouts_ms": {"connect": 1000, "response": 2000, "idle": 3000},
                     "max_idle_connections": 8}
          },
          "routes": [
            {"name": "users", "match": {"host": "*.example.com", "methods": ["GET", "HEAD"], "path_prefix": "/users"},
             "upstream": "demo", "faults": []},
            {"upstream": "staging"}
          ],
          "timeouts_ms": {"client_header": 1, "client_idle": 2, "drain": 3},
          "limits": {"max_request_line_bytes": 64, "max_header_bytes": 256, "max_header_count": 10000,
                     "max_request_body_bytes": 1048576, "max_connections": 1},
          "seed": 18446744073709551615,
          "log": {"format": "json"}
        }
        """#
        let config = try loadConfig(json)
        #expect(config.workers == 4)
        #expect(config.listeners.map(\.address.description) == ["127.0.0.1:8080", "[::1]:8080"])
        #expect(config.listeners[1].address.host == "::1")
        #expect(config.admin == AdminConfig(address: SocketAddressSpec(host: "127.0.0.1", port: 9901), token: "s3cret"))
        #expect(config.demoOrigin?.address.description == "127.0.0.1:8081")
        #expect(config.upstreams.map(\.name) == ["demo", "staging"])
        let staging = try #require(config.upstream(named: "staging"))
        #expect(staging.scheme == "http")
        #expect(staging.host == "staging.example.com")
        #expect(staging.port == 8000)
        #expect(staging.hostHeader == .upstream)
        #expect(staging.hostHeaderValue == "staging.example.com:8000")
        #expect(staging.timeouts == UpstreamTimeouts(connectMs: 5000, responseMs: 30000, idleMs: 60000))
        let demo = try #require(config.upstream(named: "demo"))
        #expect(demo.timeouts == UpstreamTimeouts(connectMs: 1000, responseMs: 2000, idleMs: 3000))
        #expect(demo.maxIdleConnections == 8)
        #expect(demo.hostHeader == .preserve)
        #expect(config.routes == [
            RouteConfig(
                name: "users",
                match: RouteMatch(host: .wildcard(suffix: "example.com"), methods: ["GET", "HEAD"], path: .prefix("/users")),
                upstream: "demo"),
            RouteConfig(name: "routes[1]", upstream: "staging"),
        ])
        #expect(config.clientTimeouts == ClientTimeouts(headerMs: 1, idleMs: 2, drainMs: 3))
        #expect(config.limits == Limits(
            maxRequestLineBytes: 64, maxHeaderBytes: 256, maxHeaderCount: 10000,
            maxRequestBodyBytes: 1_048_576, maxConnections: 1, maxConnectionsIsExplicit: true))
        #expect(config.seed == UInt64.max)
        #expect(config.upstream(named: "nope") == nil)
    }

    @Test func defaultsApplied() throws {
        let config = try loadConfig(minimal())
        #expect(config.workers == 0)
        #expect(config.admin == nil)
        #expect(config.demoOrigin == nil)
        #expect(config.seed == nil)
        #expect(config.clientTimeouts == ClientTimeouts(headerMs: 10000, idleMs: 60000, drainMs: 10000))
        #expect(config.limits == Limits(
            maxRequestLineBytes: 8192, maxHeaderBytes: 65536, maxHeaderCount: 100,
            maxRequestBodyBytes: 0, maxConnections: 10000))
        let demo = try #require(config.upstream(named: "demo"))
        #expect(demo.port == 8081)
        #expect(demo.hostHeader == .preserve)
        #expect(demo.hostHeaderValue == "127.0.0.1:8081")
        #expect(demo.timeouts == UpstreamTimeouts(connectMs: 5000, responseMs: 30000, idleMs: 60000))
        #expect(demo.maxIdleConnections == 256)
        // No routes and one upstream: an implicit catch-all named "default".
        #expect(config.routes == [RouteConfig(name: "default", match: RouteMatch(), upstream: "demo", faults: [])])
    }

    @Test func emptyRoutesArrayAlsoImpliesDefault() throws {
        let config = try loadConfig(minimal(#""routes": []"#))
        #expect(config.routes.map(\.name) == ["default"])
    }

    @Test func upstreamURLForms() throws {
        let cases: [(String, String, UInt16, String)] = [
            ("http://example.com", "example.com", 80, "example.com"),
            ("http://example.com/", "example.com", 80, "example.com"),
            ("HTTP://EXAMPLE.com:80", "example.com", 80, "example.com"),
            ("http://10.0.0.1:8080", "10.0.0.1", 8080, "10.0.0.1:8080"),
            ("http://[::1]:9000", "::1", 9000, "[::1]:9000"),
            ("http://[::1]", "::1", 80, "[::1]"),
            ("http://my_service.internal", "my_service.internal", 80, "my_service.internal"),
        ]
        for (url, host, port, hostHeader) in cases {
            let config = try loadConfig(minimal(upstream: #"{"url": "\#(url)"}"#))
            let demo = try #require(config.upstream(named: "demo"))
            #expect(demo.host == host, "\(url)")
            #expect(demo.port == port, "\(url)")
            #expect(demo.hostHeaderValue == hostHeader, "\(url)")
        }
    }

    @Test func pathPatternsAndHostForms() throws {
        let config = try loadConfig(#"""
        {"listeners": [{"address": "0.0.0.0:80"}], "upstreams": {"a": {"url": "http://a"}},
         "routes": [
           {"match": {"path": "/exact", "host": "API.Example.com."}, "upstream": "a"},
           {"match": {"path_glob": "/v?/*.json", "host": "[::1]"}, "upstream": "a"},
           {"match": {"path_prefix": "/", "host": "::1"}, "upstream": "a"}
         ]}
        """#)
        #expect(config.routes.map(\.match.path) == [.exact("/exact"), .glob("/v?/*.json"), .prefix("/")])
        #expect(config.routes.map(\.match.host) == [.exact("api.example.com"), .exact("[::1]"), .exact("[::1]")])
        #expect(config.routes.map(\.name) == ["routes[0]", "routes[1]", "routes[2]"])
    }

    @Test func loadFromFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-\(UUID().uuidString).json")
        try Data(minimal().utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let config = try ConfigLoader.load(path: url.path)
        #expect(config.upstreams.map(\.name) == ["demo"])
    }

    @Test func missingFileNamesThePath() {
        do {
            _ = try ConfigLoader.load(path: "/nonexistent/faultline.json")
            Issue.record("expected an error")
        } catch {
            #expect(error.file == "/nonexistent/faultline.json")
            #expect(error.description == "/nonexistent/faultline.json: no such file")
        }
    }
}
