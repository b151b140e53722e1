import Foundation
import Testing
@testable import FaultlineConfig

@Suite("Route table")
struct RouteTableTests {
    private func table(_ routes: [RouteConfig]) -> RouteTable {
        RouteTable(config: ProxyConfig(
            listeners: [ListenerConfig(address: SocketAddressSpec(host: "127.0.0.1", port: 0))],
            upstreams: [UpstreamConfig(name: "a", host: "a"), UpstreamConfig(name: "b", host: "b", port: 8080)],
            routes: routes))
    }

    @Test func firstMatchWinsInOrder() throws {
        let routes = table([
            RouteConfig(name: "users", match: RouteMatch(path: .prefix("/users")), upstream: "a"),
            RouteConfig(name: "users-again", match: RouteMatch(path: .prefix("/users")), upstream: "b"),
            RouteConfig(name: "rest", upstream: "b"),
        ])
        let users = try #require(routes.match(host: nil, method: "GET", path: "/users/1"))
        #expect(users.name == "users")
        #expect(users.index == 0)
        #expect(users.upstream.name == "a")
        #expect(users.faults.isEmpty)
        let rest = try #require(routes.match(host: nil, method: "GET", path: "/other"))
        #expect(rest.name == "rest")
        #expect(rest.index == 2)
        #expect(rest.upstream.port == 8080)
        #expect(routes.routes.map(\.name) == ["users", "users-again", "rest"])
    }

    @Test func noMatchIsNil() {
        let routes = table([RouteConfig(name: "x", match: RouteMatch(path: .exact("/x")), upstream: "a")])
        #expect(routes.match(host: "h", method: "GET", path: "/y") == nil)
        #expect(table([]).match(host: nil, method: "GET", path: "/") == nil)
    }

    @Test func exactPath() {
        let routes = table([RouteConfig(name: "x", match: RouteMatch(path: .exact("/health")), upstream: "a")])
        #expect(routes.match(host: nil, method: "GET", path: "/health")?.name == "x")
        #expect(routes.match(host: nil, method: "GET", path: "/health/") == nil)
        #expect(routes.match(host: nil, method: "GET", path: "/healt") == nil)
        #expect(routes.match(host: nil, method: "GET", path: "/HEALTH") == nil)
        #expect(routes.match(host: nil, method: "GET", path: "") == nil)
    }

    @Test func prefixPathIsAPlainBytePrefix() {
        let routes = table([RouteConfig(name: "x", match: RouteMatch(path: .prefix("/users")), upstream: "a")])
        #expect(routes.match(host: nil, method: "GET", path: "/users")?.name == "x")
        #expect(routes.match(host: nil, method: "GET", path: "/users/42")?.name == "x")
        #expect(routes.match(host: nil, method: "GET", path: "/users2")?.name == "x")
        #expect(routes.match(host: nil, method: "GET", path: "/user") == nil)
        #expect(routes.match(host: nil, method: "GET", path: "/Users") == nil)
    }

    @Test func globPath() {
        let routes = table([RouteConfig(name: "x", match: RouteMatch(path: .glob("/api/v?/*.json")), upstream: "a")])
        #expect(routes.match(host: nil, method: "GET", path: "/api/v1/users.json")?.name == "x")
        #expect(routes.match(host: nil, method: "GET", path: "/api/v2/a/b/c.json")?.name == "x")
        #expect(routes.match(host: nil, method: "GET", path: "/api/v10/users.json") == nil)
        #expect(routes.match(host: nil, method: "GET", path: "/api/v1/users.xml") == nil)
    }

    @Test func methodsAreCaseSensitive() {
        let routes = table([RouteConfig(name: "x", match: RouteMatch(methods: ["GET", "HEAD"]), upstream: "a")])
        #expect(routes.match(host: nil, method: "GET", path: "/")?.name == "x")
        #expect(routes.match(host: nil, method: "HEAD", path: "/")?.name == "x")
        #expect(routes.match(host: nil, method: "get", path: "/") == nil)
        #expect(routes.match(host: nil, method: "POST", path: "/") == nil)
        #expect(routes.match(host: nil, method: "GETX", path: "/") == nil)
        #expect(routes.match(host: nil, method: "", path: "/") == nil)
    }

    @Test func exactHostIgnoresCaseAndPort() {
        let routes = table([RouteConfig(name: "x", match: RouteMatch(host: HostPattern("API.example.com")), upstream: "a")])
        #expect(routes.match(host: "api.example.com", method: "GET", path: "/")?.name == "x")
        #expect(routes.match(host: "Api.Example.COM", method: "GET", path: "/")?.name == "x")
        #expect(routes.match(host: "api.example.com:8080", method: "GET", path: "/")?.name == "x")
        #expect(routes.match(host: "api.example.com.", method: "GET", path: "/")?.name == "x")
        #expect(routes.match(host: "api.example.com.:443", method: "GET", path: "/")?.name == "x")
        #expect(routes.match(host: "x.api.example.com", method: "GET", path: "/") == nil)
        #expect(routes.match(host: "pi.example.com", method: "GET", path: "/") == nil)
        #expect(routes.match(host: "api.example.co", method: "GET", path: "/") == nil)
        #expect(routes.match(host: nil, method: "GET", path: "/") == nil)
        #expect(routes.match(host: "", method: "GET", path: "/") == nil)
    }

    @Test func wildcardHostMatchesSubdomainsButNotApex() {
        let routes = table([RouteConfig(name: "x", match: RouteMatch(host: HostPattern("*.Example.com")), upstream: "a")])
        #expect(routes.match(host: "a.example.com", method: "GET", path: "/")?.name == "x")
        #expect(routes.match(host: "A.B.EXAMPLE.COM:80", method: "GET", path: "/")?.name == "x")
        #expect(routes.match(host: "example.com", method: "GET", path: "/") == nil)
        #expect(routes.match(host: ".example.com", method: "GET", path: "/") == nil)
        #expect(routes.match(host: "badexample.com", method: "GET", path: "/") == nil)
        #expect(routes.match(host: "a.example.com.evil", method: "GET", path: "/") == nil)
        #expect(routes.match(host: nil, method: "GET", path: "/") == nil)
    }

    @Test func ipv6HostKeepsBracketsAndDropsPort() {
        let routes = table([RouteConfig(name: "x", match: RouteMatch(host: HostPattern("::1")), upstream: "a")])
        #expect(routes.match(host: "[::1]:8080", method: "GET", path: "/")?.name == "x")
        #expect(routes.match(host: "[::1]", method: "GET", path: "/")?.name == "x")
        #expect(routes.match(host: "[::2]", method: "GET", path: "/") == nil)
    }

    @Test func allConditionsMustHold() {
        let routes = table([
            RouteConfig(
                name: "x",
                match: RouteMatch(host: HostPattern("*.example.com"), methods: ["POST"], path: .exact("/login")),
                upstream: "a"),
            RouteConfig(name: "fallback", upstream: "b"),
        ])
        #expect(routes.match(host: "www.example.com", method: "POST", path: "/login")?.name == "x")
        #expect(routes.match(host: "www.example.com", method: "GET", path: "/login")?.name == "fallback")
        #expect(routes.match(host: "www.example.org", method: "POST", path: "/login")?.name == "fallback")
        #expect(routes.match(host: "www.example.com", method: "POST", path: "/logout")?.name == "fallback")
    }

    @Test func rawBufferFormMatchesTheSame() {
        let routes = table([RouteConfig(name: "x", match: RouteMatch(host: HostPattern("h.test"), path: .prefix("/a")), upstream: "a")])
        let host: [UInt8] = Array("H.TEST:81".utf8)
        let method: [UInt8] = Array("GET".utf8)
        let path: [UInt8] = Array("/abc".utf8)
        let name = host.withUnsafeBytes { h in
            method.withUnsafeBytes { m in
                path.withUnsafeBytes { p in routes.match(host: h, method: m, path: p)?.name }
            }
        }
        #expect(name == "x")
    }

    @Test func routeWithUnknownUpstreamIsSkipped() {
        let routes = table([
            RouteConfig(name: "ghost", upstream: "missing"),
            RouteConfig(name: "real", upstream: "a"),
        ])
        let match = routes.match(host: nil, method: "GET", path: "/")
        #expect(match?.name == "real")
        #expect(match?.index == 1)
    }

    @Test func loadedConfigCompiles() throws {
        let config = try loadConfig(withRoute(#"""
            {"name": "users", "match": {"host": "*.example.com", "methods": ["GET"], "path_glob": "/users/*"}, "upstream": "staging"},
            {"name": "default", "upstream": "demo"}
            """#))
        let routes = RouteTable(config: config)
        #expect(routes.match(host: "m.example.com", method: "GET", path: "/users/7")?.upstream.host == "staging.example.com")
        #expect(routes.match(host: "m.example.com", method: "GET", path: "/users")?.name == "default")
    }
}
