import Foundation
import Testing
import FaultlineTestSupport

@Suite("Admin API", .timeLimit(.minutes(2)))
struct AdminAPITests {
    private static let outage = #"""
    {"name": "search-down", "match": {"path_prefix": "/users"}, "upstream": "demo",
     "faults": [{"status": {"code": 503, "headers": {"Retry-After": "5"}}, "when": {"sequence": [503, 503, "pass"]}}]}
    """#

    @Test func healthPinsAndUnknownEndpoints() async throws {
        let stack = try await AdminStack.start()
        defer { stack.stop() }
        let health = try await stack.admin("GET", "/health")
        #expect(health.status == 200)
        #expect(health.json["status"] as? String == "ok")
        #expect(try await stack.admin("GET", "/pins").status == 200)
        let unknown = try await stack.admin("GET", "/nope")
        #expect(unknown.status == 404)
        #expect((unknown.json["endpoints"] as? [String])?.contains("POST /rules") == true)
        let wrongMethod = try await stack.admin("DELETE", "/rules")
        #expect(wrongMethod.status == 405)
    }

    @Test func tokenIsRequiredWhenConfigured() async throws {
        let stack = try await AdminStack.start(token: "s3cret")
        defer { stack.stop() }
        #expect(try await stack.admin("GET", "/rules", token: .some(nil)).status == 401)
        #expect(try await stack.admin("GET", "/rules", token: "wrong").status == 401)
        #expect(try await stack.admin("POST", "/rules", body: Self.outage, token: .some(nil)).status == 401)
        #expect(try await stack.admin("GET", "/rules").status == 200)
        #expect(try await stack.ruleNames() == ["users", "all"])
    }

    @Test func listsFileRulesWithSourceFaultsAndCounters() async throws {
        let stack = try await AdminStack.start()
        defer { stack.stop() }
        #expect(try await stack.status(of: "/users") == 200)
        let rules = try await stack.rules()
        #expect(rules.map { $0["source"] as? String } == ["file", "file"])
        let users = try #require(rules.first)
        #expect((users["match"] as? [String: Any])?["path_prefix"] as? String == "/users")
        #expect(users["upstream"] as? String == "demo")
        #expect(users["enabled"] as? Bool == true)
        let fault = try #require((users["faults"] as? [[String: Any]])?.first)
        #expect(fault["kind"] as? String == "delay")
        #expect((fault["delay"] as? [String: Any])?["ms"] as? Int == 5)
        let stats = try #require(fault["stats"] as? [String: Any])
        #expect(stats["matched"] as? Int == 1)
        #expect(stats["fired"] as? Int == 1)
        let listed = try await stack.admin("GET", "/rules")
        #expect((listed.json["stale"] as? [String])?.isEmpty == true)
    }

    @Test func aRuleAddedAtRuntimeTakesEffectForNewRequests() async throws {
        let stack = try await AdminStack.start()
        defer { stack.stop() }
        let added = try await stack.admin("POST", "/rules", body: Self.outage)
        #expect(added.status == 201)
        #expect(added.json["name"] as? String == "search-down")
        #expect(added.json["source"] as? String == "runtime")
        #expect(try await stack.ruleNames() == ["search-down", "users", "all"])
        var statuses: [Int] = []
        for _ in 0..<3 { statuses.append(try await stack.status(of: "/users")) }
        #expect(statuses == [503, 503, 200])
        #expect(try await stack.status(of: "/") == 200)
        let rule = try await stack.admin("GET", "/rules/search-down")
        let stats = (rule.json["faults"] as? [[String: Any]])?.first?["stats"] as? [String: Any]
        #expect(stats?["fired"] as? Int == 2)
        #expect(stats?["matched"] as? Int == 3)
    }

    @Test func positionEndPutsTheRuleAfterTheFileRoutes() async throws {
        let stack = try await AdminStack.start()
        defer { stack.stop() }
        let body = #"{"name": "late", "match": {"path": "/"}, "upstream": "demo", "position": "end", "faults": [{"status": 418}]}"#
        #expect(try await stack.admin("POST", "/rules", body: body).status == 201)
        #expect(try await stack.ruleNames() == ["users", "all", "late"])
        // "all" matches first, so the rule at the end never fires.
        #expect(try await stack.status(of: "/") == 200)
    }

    @Test func invalidRulesAreRefusedNamingTheFieldAndChangeNothing() async throws {
        let stack = try await AdminStack.start()
        defer { stack.stop() }
        let before = try await stack.admin("GET", "/health").json["config_generation"] as? Int
        let cases: [(String, Int, String)] = [
            (#"{"name": "x", "upstream": "demo", "faults": [{"explode": {}}]}"#, 400, "rule.faults[0]"),
            (#"{"name": "x", "upstream": "demo", "faults": [{"status": 503, "when": {"probability": 1.5}}]}"#, 400, "rule.faults[0].when.probability"),
            (#"{"name": "x", "upstream": "demo", "faults": [{"status": {"code": 99}}]}"#, 400, "rule.faults[0].status.code"),
            (#"{"name": "x", "upstream": "nowhere"}"#, 400, "rule.upstream"),
            (#"{"upstream": "demo"}"#, 400, "rule.name"),
            (#"{"name": "users", "upstream": "demo"}"#, 409, "rule.name"),
        ]
        for (body, status, field) in cases {
            let answer = try await stack.admin("POST", "/rules", body: body)
            #expect(answer.status == status, "\(body)")
            #expect((answer.json["field"] as? String)?.hasPrefix(field) == true, "\(body): \(answer.json)")
            #expect(answer.json["error"] is String)
        }
        let malformed = try await stack.admin("POST", "/rules", body: "{\"name\": ")
        #expect(malformed.status == 400)
        #expect((malformed.json["error"] as? String)?.hasPrefix("invalid JSON") == true)
        #expect(try await stack.admin("GET", "/health").json["config_generation"] as? Int == before)
        #expect(try await stack.ruleNames() == ["users", "all"])
        #expect(try await stack.status(of: "/users") == 200)
    }

    @Test func replaceRemoveEnableDisable() async throws {
        let stack = try await AdminStack.start()
        defer { stack.stop() }
        // Replace a file route whole; create with PUT.
        let replaced = try await stack.admin("PUT", "/rules/users", body: #"{"match": {"path_prefix": "/users"}, "upstream": "demo", "faults": [{"name": "teapot", "status": 418}]}"#)
        #expect(replaced.status == 200)
        #expect(replaced.json["source"] as? String == "runtime")
        #expect(try await stack.status(of: "/users") == 418)
        let created = try await stack.admin("PUT", "/rules/new", body: #"{"match": {"path": "/status/200"}, "upstream": "demo", "faults": [{"status": 410}]}"#)
        #expect(created.status == 201)
        #expect(try await stack.status(of: "/status/200") == 410)
        #expect(try await stack.admin("PUT", "/rules/new", body: #"{"name": "other", "upstream": "demo"}"#).status == 400)

        // Disable keeps the route proxying without faults; enable brings them back.
        #expect(try await stack.admin("POST", "/rules/users/disable").json["enabled"] as? Bool == false)
        #expect(try await stack.status(of: "/users") == 200)
        #expect(try await stack.admin("POST", "/rules/users/enable").status == 200)
        #expect(try await stack.status(of: "/users") == 418)
        let faultOff = try await stack.admin("POST", "/rules/users/faults/teapot/disable")
        #expect(faultOff.status == 200)
        #expect((faultOff.json["faults"] as? [[String: Any]])?.first?["enabled"] as? Bool == false)
        #expect(try await stack.status(of: "/users") == 200)
        #expect(try await stack.admin("POST", "/rules/users/faults/teapot/enable").status == 200)
        #expect(try await stack.status(of: "/users") == 418)
        #expect(try await stack.admin("POST", "/rules/users/faults/nope/enable").status == 404)
        #expect(try await stack.admin("POST", "/rules/nope/disable").status == 404)

        // Remove runtime and file rules.
        #expect(try await stack.admin("DELETE", "/rules/new").status == 204)
        #expect(try await stack.admin("DELETE", "/rules/users").status == 204)
        #expect(try await stack.admin("DELETE", "/rules/users").status == 404)
        #expect(try await stack.ruleNames() == ["all"])
        #expect(try await stack.status(of: "/status/200") == 200)
        #expect(try await stack.admin("GET", "/rules/users").status == 404)
    }

    @Test func statsAndReset() async throws {
        let stack = try await AdminStack.start()
        defer { stack.stop() }
        #expect(try await stack.admin("POST", "/rules", body: Self.outage).status == 201)
        #expect(try await stack.status(of: "/users") == 503)
        var stats = try await stack.admin("GET", "/stats")
        #expect(stats.status == 200)
        #expect(stats.json["seed"] as? String == "42")
        var rule = (stats.json["rules"] as? [[String: Any]])?.first
        #expect(rule?["name"] as? String == "search-down")
        #expect(rule?["fired"] as? Int == 1)
        #expect((rule?["faults"] as? [[String: Any]])?.first?["matched"] as? Int == 1)

        #expect(try await stack.admin("POST", "/rules/reset").status == 200)
        stats = try await stack.admin("GET", "/stats")
        rule = (stats.json["rules"] as? [[String: Any]])?.first
        #expect(rule?["fired"] as? Int == 0)
        // The sequence restarts too: 503, 503 again.
        #expect(try await stack.status(of: "/users") == 503)
        #expect(try await stack.status(of: "/users") == 503)
        #expect(try await stack.status(of: "/users") == 200)
    }

    /// The HTTP/2 counters are in `GET /stats` whatever the listeners speak: all zero after
    /// HTTP/1 traffic, so a dashboard can read them before any client negotiates h2.
    @Test func statsCarryZeroHTTP2CountersOnAnHTTP1Run() async throws {
        let stack = try await AdminStack.start()
        defer { stack.stop() }
        for _ in 0..<3 { #expect(try await stack.status(of: "/users") == 200) }
        let stats = try await stack.admin("GET", "/stats")
        #expect(stats.status == 200)
        let http2 = try #require(stats.json["http2"] as? [String: Any], "\(stats.json)")
        #expect(http2 as? [String: Int] == ["connections_accepted": 0, "streams_opened": 0, "streams_reset_by_faultline": 0,
                                           "streams_reset_by_client": 0, "goaways_sent": 0], "\(http2)")
    }

    @Test func sighupReloadKeepsRuntimeRules() async throws {
        let stack = try await AdminStack.start()
        defer { stack.stop() }
        #expect(try await stack.admin("POST", "/rules", body: Self.outage).status == 201)
        #expect(try await stack.admin("DELETE", "/rules/all").status == 204)
        // The file changes: "users" goes away, "fresh" arrives.
        let routes: [[String: Any]] = [["name": "fresh", "upstream": "demo"], ["name": "all", "upstream": "demo"]]
        try stack.directory.write("faultline.json", AdminStack.config(originPort: stack.origin.port, token: nil, routes: routes))
        let generation = try await stack.admin("GET", "/health").json["config_generation"] as? Int ?? 0
        stack.proxy.signal(SIGHUP)
        try await Deadline.poll("the reload", timeout: .seconds(10)) {
            stack.proxy.output.text.contains("configuration reloaded (generation \(generation + 1))") ? () : nil
        }
        #expect(try await stack.ruleNames() == ["search-down", "fresh"])
        #expect(try await stack.status(of: "/users") == 503)
        let listed = try await stack.admin("GET", "/rules")
        #expect(listed.json["stale"] as? [String] == [])
    }
}
