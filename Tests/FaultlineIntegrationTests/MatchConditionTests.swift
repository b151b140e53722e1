import Foundation
import Testing
import FaultlineTestSupport

/// Routes matching on the request head beyond host, method and path (`headers`, `query`,
/// `cookies`, `client`, `not`) through the binary: from the config file and added through
/// the admin API, over HTTP/1.1 and HTTP/2 (h2c prior knowledge). Each rule answers its own
/// status so the response names the rule that matched; a miss falls through to the origin.
@Suite(.timeLimit(.minutes(3)))
struct MatchConditionTests {
    /// One request and the status it must get.
    struct Probe: Sendable {
        let what: String
        let path: String
        let curl: [String]
        let status: Int
    }

    static var rules: [[String: Any]] { [
        rule("header-exact", ["path": "/h", "headers": ["X-Test": "1"]], 501),
        rule("header-glob", ["path": "/g", "headers": ["user-agent": "probe/*"]], 502),
        rule("header-absent", ["path": "/a", "headers": ["authorization": false]], 503),
        rule("header-present", ["path": "/p", "headers": ["x-flag": true]], 520),
        rule("query", ["path": "/q", "query": ["mode": "fail", "v": "2*"]], 504),
        rule("cookie", ["path": "/c", "cookies": ["session": "abc*"]], 505),
        rule("client-v6-only", ["path": "/ip", "client": ["10.0.0.0/8", "::2/128"]], 507),
        rule("client-loopback", ["path": "/ip", "client": ["127.0.0.0/8"]], 506),
        rule("not-canary", ["path": "/n", "not": ["headers": ["x-canary": true]]], 508),
    ] }

    static func rule(_ name: String, _ match: [String: Any], _ status: Int) -> [String: Any] {
        ["name": name, "match": match, "upstream": "demo", "faults": [["status": ["code": status]]]]
    }

    /// The origin answers anything else (its own status, never one of the rules').
    static let probes: [Probe] = [
        Probe(what: "header equal", path: "/h", curl: ["-H", "x-test: 1"], status: 501),
        Probe(what: "header differs", path: "/h", curl: ["-H", "x-test: 12"], status: 0),
        Probe(what: "header missing", path: "/h", curl: [], status: 0),
        Probe(what: "header glob", path: "/g", curl: ["-A", "probe/1.0"], status: 502),
        Probe(what: "header glob misses", path: "/g", curl: ["-A", "curl/8"], status: 0),
        Probe(what: "header absent", path: "/a", curl: [], status: 503),
        Probe(what: "header absent but sent", path: "/a", curl: ["-H", "Authorization: Bearer x"], status: 0),
        Probe(what: "header present", path: "/p", curl: ["-H", "X-Flag: anything"], status: 520),
        Probe(what: "query both", path: "/q?x=1&mode=fail&v=20", curl: [], status: 504),
        Probe(what: "query one missing", path: "/q?mode=fail", curl: [], status: 0),
        Probe(what: "query value differs", path: "/q?mode=ok&v=2", curl: [], status: 0),
        Probe(what: "cookie glob", path: "/c", curl: ["-b", "theme=dark; session=abc123"], status: 505),
        Probe(what: "cookie differs", path: "/c", curl: ["-b", "session=xyz"], status: 0),
        Probe(what: "client CIDR", path: "/ip", curl: [], status: 506),
        Probe(what: "not holds", path: "/n", curl: [], status: 508),
        Probe(what: "not fails", path: "/n", curl: ["-H", "X-Canary: 1"], status: 0),
    ]

    /// Runs every probe over HTTP/1.1 and h2c; a status of 0 means "not a rule's status".
    static func check(_ url: (String) -> String) async throws {
        let ruleStatuses = Set(rules.compactMap { (($0["faults"] as? [[String: Any]])?.first?["status"] as? [String: Any])?["code"] as? Int })
        for http2 in [false, true] {
            for probe in probes {
                let version = http2 ? ["--http2-prior-knowledge"] : ["--http1.1"]
                let result = try await Curl.run(version + probe.curl + ["-s", "-o", "/dev/null", "-w", "%{http_code} %{http_version}", url(probe.path)])
                let parts = result.text.split(separator: " ")
                let status = parts.first.flatMap { Int($0) } ?? -1
                let label = "\(probe.what) over \(http2 ? "HTTP/2" : "HTTP/1.1"): \(result.text) \(result.stderr)"
                #expect(parts.last == (http2 ? "2" : "1.1"), "\(label)")
                if probe.status == 0 {
                    #expect(status > 0 && !ruleStatuses.contains(status), "\(label)")
                } else {
                    #expect(status == probe.status, "\(label)")
                }
            }
        }
    }

    static var h2cListener: [String: Any] { ["listeners": [["address": "127.0.0.1:0", "h2c": true]]] }

    @Test func configFileRulesMatchOnHeadersQueryCookiesClientAndNot() async throws {
        let stack = try await AdminStack.start(routes: Self.rules + [["name": "all", "upstream": "demo"]], extra: Self.h2cListener)
        defer { stack.stop() }
        try await Self.check { stack.proxy.url($0) }
    }

    @Test func adminAPIRulesMatchTheSameAndListTheirConditions() async throws {
        let stack = try await AdminStack.start(routes: [["name": "all", "upstream": "demo"]], extra: Self.h2cListener)
        defer { stack.stop() }
        for rule in Self.rules.reversed() {
            var body = rule
            body["position"] = "start"
            let text = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
            let (status, json) = try await stack.admin("POST", "/rules", body: text)
            #expect(status == 201, "\(rule["name"] ?? ""): \(status) \(json)")
        }
        try await Self.check { stack.proxy.url($0) }
        let listed = try await stack.rules()
        let query = listed.first { $0["name"] as? String == "query" }?["match"] as? [String: Any]
        #expect(query?["query"] as? [String: String] == ["mode": "fail", "v": "2*"], "\(listed)")
        let negated = listed.first { $0["name"] as? String == "not-canary" }?["match"] as? [String: Any]
        #expect((negated?["not"] as? [String: Any])?["headers"] as? [String: Bool] == ["x-canary": true], "\(listed)")
        let header = listed.first { $0["name"] as? String == "header-exact" }?["match"] as? [String: Any]
        #expect(header?["headers"] as? [String: String] == ["x-test": "1"], "\(listed)")

        // `faultline rules list` names the conditions beside the path.
        let (exit, output) = try await FaultlineProcess.command(["rules", "list", "--admin", stack.adminURL])
        #expect(exit == 0, "\(output)")
        let lines = output.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("query ") && $0.contains("/q +query") }, "\(output)")
        #expect(lines.contains { $0.hasPrefix("not-canary ") && $0.contains("/n +not") }, "\(output)")
    }

    @Test func sessionRulesMatchOnHeaders() async throws {
        let stack = try await AdminStack.start(routes: [["name": "all", "upstream": "demo"]], extra: Self.h2cListener)
        defer { stack.stop() }
        let (created, session) = try await stack.admin("POST", "/sessions", body: "{}")
        guard created == 201, let id = session["id"] as? String else { throw TestFailure("POST /sessions: \(created) \(session)") }
        let rule = #"{"name": "flag", "match": {"headers": {"x-flag": "on"}}, "faults": [{"status": {"code": 509}}]}"#
        let (added, json) = try await stack.admin("POST", "/sessions/\(id)/rules", body: rule)
        #expect(added == 201, "\(json)")
        for (headers, expected) in [(["-H", "x-flag: on"], 509), (["-H", "x-flag: off"], 200)] {
            for version in ["--http1.1", "--http2-prior-knowledge"] {
                let result = try await Curl.run([version, "-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "x-faultline-session: \(id)"]
                                                + headers + [stack.proxy.url("/json")])
                #expect(Int(result.text) == expected, "\(headers) \(version): \(result.text) \(result.stderr)")
            }
        }
    }
}
