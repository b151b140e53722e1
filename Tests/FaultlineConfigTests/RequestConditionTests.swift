import Foundation
import Testing
import FaultlineHTTP
@testable import FaultlineConfig

/// The `headers`, `query`, `cookies`, `client` and `not` conditions on a compiled table,
/// at the edges the integration tests do not reach (IPv6 and mapped clients, repeated
/// lines, literal `?`, nesting).
@Suite("Request conditions")
struct RequestConditionTests {
    private func table(_ matches: [RouteMatch]) -> RouteTable {
        RouteTable(config: ProxyConfig(
            listeners: [ListenerConfig(address: SocketAddressSpec(host: "127.0.0.1", port: 0))],
            upstreams: [UpstreamConfig(name: "a", host: "a")],
            routes: matches.enumerated().map { RouteConfig(name: "r\($0.offset)", match: $0.element, upstream: "a") }
                + [RouteConfig(name: "rest", upstream: "a")]))
    }

    private func head(_ target: String, _ fields: [(String, String)] = []) -> HTTPHead {
        var head = HTTPHead()
        head.method = "GET"
        head.target = Array(target.utf8)
        head.headers.add(name: "Host", value: "example.com")
        for (name, value) in fields { head.headers.add(name: name, value: value) }
        return head
    }

    private func name(_ table: RouteTable, _ head: HTTPHead, client: String = "127.0.0.1") -> String? {
        table.match(head, client: client)?.name
    }

    @Test func clientBlocksCoverIPv6AndMappedIPv4() {
        let routes = table([
            RouteMatch(client: [ClientNetwork("2001:db8::/32")].compactMap { $0 }),
            RouteMatch(client: [ClientNetwork("10.0.0.0/8")].compactMap { $0 }),
        ])
        #expect(name(routes, head("/"), client: "2001:db8:1::5") == "r0")
        #expect(name(routes, head("/"), client: "2001:db9::5") == "rest")
        #expect(name(routes, head("/"), client: "10.9.8.7") == "r1")
        #expect(name(routes, head("/"), client: "::ffff:10.9.8.7") == "r1")
        #expect(name(routes, head("/"), client: "11.0.0.1") == "rest")
        #expect(name(routes, head("/"), client: "not an address") == "rest")
        #expect(ClientNetwork("10.0.0.0/33") == nil)
        #expect(ClientNetwork("::/129") == nil)
        #expect(ClientNetwork("0.0.0.0/0")?.contains(high: 0, low: 0xffff_0a00_0001) == true)
    }

    @Test func eachHeaderLineIsOneOccurrenceAndQuestionMarkIsLiteral() {
        let routes = table([
            RouteMatch(headers: [FieldCondition(name: "accept", condition: .equals("text/html"))]),
            RouteMatch(headers: [FieldCondition(name: "x-v", condition: .glob("a?*"))]),
        ])
        #expect(name(routes, head("/", [("Accept", "*/*"), ("ACCEPT", "text/html")])) == "r0")
        #expect(name(routes, head("/", [("Accept", "text/html, */*")])) == "rest")
        #expect(name(routes, head("/", [("X-V", "a?b")])) == "r1")
        #expect(name(routes, head("/", [("X-V", "abb")])) == "rest")
    }

    @Test func queryPairsFlagsAndRepeats() {
        let routes = table([
            RouteMatch(query: [FieldCondition(name: "debug", condition: .present),
                               FieldCondition(name: "id", condition: .equals("7"))]),
            RouteMatch(query: [FieldCondition(name: "empty", condition: .equals(""))]),
        ])
        #expect(name(routes, head("/x?id=1&debug&id=7")) == "r0")
        #expect(name(routes, head("/x?id=7")) == "rest")
        #expect(name(routes, head("/x?empty")) == "r1")
        #expect(name(routes, head("/x?empty=")) == "r1")
        #expect(name(routes, head("/x")) == "rest")
        #expect(name(routes, head("/x?")) == "rest")
    }

    @Test func cookiesAcrossFieldsAndNestedNot() {
        let routes = table([
            RouteMatch(cookies: [FieldCondition(name: "b", condition: .equals("2"))]),
            RouteMatch(path: .prefix("/api"), not: RouteMatch(path: .prefix("/api/public"),
                                                             not: RouteMatch(headers: [FieldCondition(name: "x-private", condition: .present)]))),
        ])
        #expect(name(routes, head("/", [("Cookie", "a=1"), ("Cookie", " b=2 ")])) == "r0")
        #expect(name(routes, head("/", [("Cookie", "a=1; bb=2")])) == "rest")
        #expect(name(routes, head("/api/users")) == "r1")
        #expect(name(routes, head("/api/public/x")) == "rest")
        #expect(name(routes, head("/api/public/x", [("X-Private", "1")])) == "r1")
    }

    @Test func lookupsWithoutAHeadSeeConditionsUnmet() {
        let routes = table([RouteMatch(path: .exact("/x"), headers: [FieldCondition(name: "a", condition: .absent)]),
                            RouteMatch(path: .exact("/x"), headers: [FieldCondition(name: "a", condition: .present)])])
        #expect(routes.match(host: nil, method: "GET", path: "/x")?.name == "r0")
        #expect(routes.linearMatch(host: nil, method: "GET", path: "/x")?.name == "r0")
    }
}
