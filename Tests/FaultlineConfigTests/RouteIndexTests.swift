import Testing
@testable import FaultlineConfig

/// The index in front of `RouteTable.match` must give exactly the linear scan's answer.
@Suite("Route index")
struct RouteIndexTests {
    private static let upstreams = [UpstreamConfig(name: "a", host: "a")]

    private func table(_ matches: [RouteMatch]) -> RouteTable {
        RouteTable(config: ProxyConfig(
            listeners: [ListenerConfig(address: SocketAddressSpec(host: "127.0.0.1", port: 0))],
            upstreams: RouteIndexTests.upstreams,
            routes: matches.enumerated().map { RouteConfig(name: "r\($0.offset)", match: $0.element, upstream: "a") }))
    }

    /// A random string over `alphabet`, up to `maxLength` long.
    private func text(_ alphabet: [String], maxLength: Int, _ random: inout SeededRandom) -> String {
        let length = Int(random.next() % UInt64(maxLength + 1))
        return (0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }.joined()
    }

    private func pick<T>(_ values: [T], _ random: inout SeededRandom) -> T {
        values[Int(random.next() % UInt64(values.count))]
    }

    /// Paths built from the bytes that matter to segment keys and globs.
    private func path(_ random: inout SeededRandom) -> String {
        let pieces = ["/", "/", "a", "b", "ab", "*", "?", "A", "x"]
        let body = text(pieces, maxLength: 5, &random)
        return random.next() % 8 == 0 ? body : "/" + body
    }

    private func routeMatch(_ random: inout SeededRandom) -> RouteMatch {
        let paths: [PathPattern?] = [nil, .exact(path(&random)), .prefix(path(&random)), .glob(path(&random))]
        let hosts: [HostPattern?] = [nil, nil, HostPattern("a.com"), HostPattern("B.com"), HostPattern("*.a.com"), HostPattern("::1")]
        let methods: [[String]?] = [nil, nil, ["GET"], ["POST", "GET"], ["PUT"]]
        return RouteMatch(host: pick(hosts, &random), methods: pick(methods, &random), path: pick(paths, &random))
    }

    @Test func randomRouteSetsAgreeWithTheLinearScan() {
        var random = SeededRandom(seed: 0x5EED)
        let hosts: [String?] = [nil, "a.com", "A.COM:80", "x.a.com", "b.com.", "B.COM", "[::1]:8", "c", ""]
        let methods = ["GET", "POST", "get", "PUT"]
        var indexed = 0
        for _ in 0..<400 {
            let routes = table((0..<Int(random.next() % 40)).map { _ in routeMatch(&random) })
            for _ in 0..<200 {
                let host = pick(hosts, &random)
                let method = pick(methods, &random)
                let path = path(&random)
                let got = routes.match(host: host, method: method, path: path)?.index
                let want = routes.linearMatch(host: host, method: method, path: path)?.index
                #expect(got == want, "host \(host ?? "nil") \(method) \(path)")
                if want != nil { indexed += 1 }
            }
        }
        #expect(indexed > 10_000)
    }

    @Test func trickyLiteralsAreFiledSafely() {
        let routes = table([
            RouteMatch(path: .prefix("/us")),
            RouteMatch(path: .exact("/")),
            RouteMatch(path: .prefix("/")),
            RouteMatch(path: .glob("/api/v?/*")),
            RouteMatch(path: .glob("/a*")),
            RouteMatch(path: .glob("/exact")),
            RouteMatch(path: .exact("//x")),
            RouteMatch(path: .exact("*")),
        ])
        let cases: [(String, Int?)] = [
            ("/users", 0), ("/us", 0), ("/u", 1 + 1), ("/", 1), ("/api/v1/x", 2), ("/apix", 2),
            ("//x", 2), ("*", 7), ("", nil), ("x", nil),
        ]
        for (path, want) in cases {
            #expect(routes.match(host: nil, method: "GET", path: path)?.index == want, "\(path)")
            #expect(routes.linearMatch(host: nil, method: "GET", path: path)?.index == want, "\(path)")
        }
    }

    @Test func laterBucketedRouteLosesToEarlierCatchAll() {
        let routes = table([
            RouteMatch(path: .prefix("/never/1")),
            RouteMatch(host: HostPattern("h.test")),
            RouteMatch(),
            RouteMatch(path: .exact("/64")),
        ])
        #expect(routes.match(host: "H.test:1", method: "GET", path: "/64")?.index == 1)
        #expect(routes.match(host: "other", method: "GET", path: "/64")?.index == 2)
        #expect(routes.match(host: nil, method: "GET", path: "/never/12")?.index == 0)
    }

    @Test func thousandNonMatchingRoutesFallThroughToTheCatchAll() {
        let routes = table((0..<1000).map { RouteMatch(path: .prefix("/never/\($0)")) } + [RouteMatch()])
        #expect(routes.match(host: "127.0.0.1:8080", method: "GET", path: "/64")?.index == 1000)
        #expect(routes.match(host: nil, method: "GET", path: "/never/999")?.index == 9)
        #expect(routes.match(host: nil, method: "GET", path: "/never/50")?.index == 5)
    }
}
