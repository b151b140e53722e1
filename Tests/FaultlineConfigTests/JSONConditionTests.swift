import Foundation
import Testing
import FaultlineHTTP
@testable import FaultlineConfig

/// JSON Pointer parsing and evaluation (RFC 6901 §4, §5 examples) and the `json`
/// condition's value forms on a compiled table.
@Suite("JSON conditions")
struct JSONConditionTests {
    static let rfcDocument = #"{"foo": ["bar", "baz"], "": 0, "a/b": 1, "c%d": 2, "e^f": 3, "g|h": 4, "i\\j": 5, "k\"l": 6, " ": 7, "m~n": 8}"#

    @Test func theRFCExamplesEvaluate() throws {
        let document = try JSONSerialization.jsonObject(with: Data(Self.rfcDocument.utf8))
        let expected: [(String, String)] = [
            ("/foo/0", "bar"), ("/", "0"), ("/a~1b", "1"), ("/c%d", "2"), ("/e^f", "3"), ("/g|h", "4"),
            ("/i\\j", "5"), ("/k\"l", "6"), ("/ ", "7"), ("/m~0n", "8"),
        ]
        for (text, value) in expected {
            let pointer = try #require(JSONPointer(text), "\(text)")
            #expect(pointer.evaluate(document).flatMap(JSONField.scalarText) == value, "\(text)")
        }
        #expect(JSONPointer("")?.evaluate(document) is [String: Any])
        #expect((JSONPointer("/foo")?.evaluate(document) as? [Any])?.count == 2)
    }

    @Test func badPointersAreRefusedAndBadIndexesPointNowhere() throws {
        for text in ["foo", "/a~2", "/a~", "~0"] { #expect(JSONPointer(text) == nil, "\(text)") }
        let document = try JSONSerialization.jsonObject(with: Data(#"{"a": [10, 11]}"#.utf8))
        for text in ["/a/2", "/a/-", "/a/01", "/a/+1", "/a/-1", "/a/99999999999999999999999", "/a/0/x", "/b/0"] {
            #expect(JSONPointer(text)?.evaluate(document) == nil, "\(text)")
        }
        #expect(JSONPointer("/a/1").flatMap { $0.evaluate(document) }.flatMap(JSONField.scalarText) == "11")
    }

    private func matches(_ conditions: [String: ValueCondition], _ body: String?) -> Bool {
        let match = RouteMatch(json: conditions.map { FieldCondition(name: $0.key, condition: $0.value) })
        let table = RouteTable(config: ProxyConfig(
            listeners: [ListenerConfig(address: SocketAddressSpec(host: "127.0.0.1", port: 0))],
            upstreams: [UpstreamConfig(name: "a", host: "a")],
            routes: [RouteConfig(name: "json", match: match, upstream: "a"), RouteConfig(name: "rest", upstream: "a")]))
        var head = HTTPHead()
        head.method = "POST"
        head.target = Array("/".utf8)
        head.headers.add(name: "Host", value: "example.com")
        return table.match(head, client: "127.0.0.1", body: body.map { MatchBody(bytes: Array($0.utf8)) })?.name == "json"
    }

    @Test func valuesCompareByKind() {
        let body = #"{"s": "gold", "n": 42, "f": 1.5, "t": true, "z": null, "o": {"k": []}}"#
        expect(table: true, matches(["/s": .equals("gold")], body))
        expect(table: false, matches(["/s": .equals("Gold")], body))
        expect(table: true, matches(["/s": .glob("g*d")], body))
        expect(table: true, matches(["/n": .equals("42.0")], body))
        expect(table: false, matches(["/n": .equals("4")], body))
        expect(table: true, matches(["/n": .glob("4*")], body))
        expect(table: true, matches(["/f": .equals("1.5")], body))
        expect(table: true, matches(["/t": .equals("true")], body))
        expect(table: false, matches(["/t": .equals("1")], body))
        expect(table: true, matches(["/z": .equals("null")], body))
        expect(table: true, matches(["/o/k": .present], body))
        expect(table: false, matches(["/o/k": .equals("[]")], body))
        expect(table: true, matches(["/missing": .absent], body))
        expect(table: false, matches(["/s": .absent], body))
        expect(table: true, matches(["/s": .equals("gold"), "/n": .present], body))
        expect(table: false, matches(["/s": .equals("gold"), "/x": .present], body))
    }

    @Test func noBodyNotJSONOrOverTheLimitMeetsNothing() {
        for condition: ValueCondition in [.absent, .present, .equals("x"), .glob("*")] {
            expect(table: false, matches(["/a": condition], nil))
            expect(table: false, matches(["/a": condition], "a=x"))
            expect(table: false, matches(["/a": condition], ""))
        }
        let match = RouteMatch(json: [FieldCondition(name: "/a", condition: .absent)])
        let table = RouteTable(config: ProxyConfig(
            listeners: [ListenerConfig(address: SocketAddressSpec(host: "127.0.0.1", port: 0))],
            upstreams: [UpstreamConfig(name: "a", host: "a")],
            routes: [RouteConfig(name: "json", match: match, upstream: "a")]))
        #expect(table.readsBody)
        var head = HTTPHead()
        head.method = "POST"
        head.target = Array("/".utf8)
        #expect(table.match(head, client: "127.0.0.1", body: MatchBody.overLimit()) == nil)
    }

    @Test func aTableWithoutJSONConditionsReadsNoBody() {
        let negated = RouteMatch(not: RouteMatch(json: [FieldCondition(name: "/a", condition: .present)]))
        #expect(negated.readsBody)
        #expect(!RouteMatch(headers: [FieldCondition(name: "x", condition: .present)]).readsBody)
    }
}

private func expect(table expected: Bool, _ actual: Bool, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(actual == expected, sourceLocation: sourceLocation)
}
