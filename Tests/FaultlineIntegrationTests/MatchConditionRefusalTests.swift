import Foundation
import Testing
import FaultlineTestSupport

/// Malformed `headers`, `query`, `cookies`, `client` and `not` conditions: `check-config`
/// exits 3 with a line naming the field, and the admin API answers 400 with the same path
/// under `rule.`.
@Suite(.timeLimit(.minutes(2)))
struct MatchConditionRefusalTests {
    struct BadMatch: Sendable, CustomTestStringConvertible {
        let what: String
        /// The `match` object, JSON text.
        let match: String
        /// The field path under the match object, and a fragment of the message.
        let field: String
        let fragment: String
        var testDescription: String { what }
    }

    static let cases: [BadMatch] = [
        BadMatch(what: "header name with a space", match: #"{"headers": {"x test": "1"}}"#,
                 field: "headers.x test", fragment: "HTTP token"),
        BadMatch(what: "header value a number", match: #"{"headers": {"x-test": 1}}"#,
                 field: "headers.x-test", fragment: "true (present) or false (absent), got 1"),
        BadMatch(what: "empty headers", match: #"{"headers": {}}"#,
                 field: "headers", fragment: "non-empty object"),
        BadMatch(what: "query name with =", match: #"{"query": {"a=b": "1"}}"#,
                 field: "query.a=b", fragment: "query parameter"),
        BadMatch(what: "cookies as an array", match: #"{"cookies": ["session"]}"#,
                 field: "cookies", fragment: "cookie name"),
        BadMatch(what: "client prefix too long", match: #"{"client": ["10.0.0.0/33"]}"#,
                 field: "client[0]", fragment: "10.0.0.0/33"),
        BadMatch(what: "client not an address", match: #"{"client": ["::1/128", "localhost"]}"#,
                 field: "client[1]", fragment: "localhost"),
        BadMatch(what: "not with an unknown key", match: #"{"not": {"header": {"x": true}}}"#,
                 field: "not.header", fragment: "did you mean \"headers\""),
        BadMatch(what: "not a string", match: #"{"not": "x"}"#,
                 field: "not", fragment: "expected an object"),
    ]

    @Test(arguments: MatchConditionRefusalTests.cases)
    func checkConfigNamesTheField(_ bad: BadMatch) async throws {
        let directory = try TemporaryDirectory()
        let port = try FreePort.closed()
        let text = """
        {"listeners": [{"address": "127.0.0.1:0"}],
         "upstreams": {"o": {"url": "http://127.0.0.1:\(port)"}},
         "routes": [{"name": "r", "match": \(bad.match), "upstream": "o"}]}
        """
        let path = try directory.write("faultline.json", text)
        let (status, output) = try await FaultlineProcess.command(["check-config", path])
        #expect(status == 3, "exit \(status): \(output)")
        let field = "routes[0].match.\(bad.field):"
        let line = output.split(separator: "\n").first { $0.contains(field) }
        #expect(line != nil, "no line naming \(field): \(output)")
        if let line { #expect(line.contains(bad.fragment), "\(line)") }
    }

    @Test func theAdminAPIRefusesWithTheRulePath() async throws {
        let stack = try await AdminStack.start()
        defer { stack.stop() }
        for bad in Self.cases {
            let body = #"{"name": "bad", "match": \#(bad.match)}"#
            let (status, json) = try await stack.admin("POST", "/rules", body: body)
            #expect(status == 400, "\(bad.what): \(status) \(json)")
            let error = json["error"] as? String ?? ""
            let field = json["field"] as? String ?? ""
            #expect(field == "rule.match.\(bad.field)" || error.contains("rule.match.\(bad.field)"), "\(bad.what): \(json)")
            #expect(error.contains(bad.fragment), "\(bad.what): \(json)")
        }
    }
}
