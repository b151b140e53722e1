import Foundation
import Testing
import FaultlineTestSupport

/// The session endpoints of the admin API: limits, refusals naming the field, rule changes.
@Suite("Session admin API", .timeLimit(.minutes(2)))
struct SessionAdminTests {
    @Test func theSessionLimitIsEnforcedWithAMessageNamingIt() async throws {
        let stack = try await SessionStack.start(extra: ["sessions": ["max": 2]])
        defer { stack.stop() }
        let first = try await stack.createSession()
        _ = try await stack.createSession()
        let third = try await stack.admin("POST", "/sessions", body: "{}")
        #expect(third.status == 409)
        #expect((third.json["error"] as? String)?.contains("sessions.max") == true)
        #expect(try await stack.admin("DELETE", "/sessions/\(first)").status == 204)
        _ = try await stack.createSession()
    }

    @Test func aSessionHoldsAtMostAHundredRules() async throws {
        let stack = try await SessionStack.start()
        defer { stack.stop() }
        let id = try await stack.createSession()
        // One curl for the hundred additions (`--next`), so a loaded machine does not start a hundred processes.
        var arguments: [String] = []
        for index in 0..<100 {
            if index > 0 { arguments.append("--next") }
            arguments += ["-s", "-o", "/dev/null", "-w", "%{http_code}\n", "-H", "Content-Type: application/json",
                          "--data-binary", #"{"name": "r\#(index)", "match": {"path": "/r\#(index)"}}"#,
                          "http://127.0.0.1:\(stack.adminPort)/sessions/\(id)/rules"]
        }
        let added = try await Curl.run(arguments, maxTime: 60)
        #expect(added.text.split(separator: "\n") == Array(repeating: "201", count: 100))
        let refused = try await stack.admin("POST", "/sessions/\(id)/rules", body: #"{"name": "r100"}"#)
        #expect(refused.status == 409)
        #expect((refused.json["error"] as? String)?.contains("100") == true)
        let duplicate = try await stack.admin("POST", "/sessions/\(id)/rules", body: #"{"name": "r5"}"#)
        #expect(duplicate.status == 409)
        #expect(duplicate.json["field"] as? String == "rule.name")
        // Replacing stays possible at the limit.
        #expect(try await stack.admin("PUT", "/sessions/\(id)/rules/r5", body: #"{"match": {"path": "/five"}}"#).status == 200)
        let listed = try await stack.admin("GET", "/sessions/\(id)/rules")
        #expect((listed.json["rules"] as? [Any])?.count == 100)
    }

    @Test(arguments: [
        (#"{"ttl_s": 0}"#, "session.ttl_s"),
        (#"{"ttl_s": 86401}"#, "session.ttl_s"),
        (#"{"seed": -1}"#, "session.seed"),
        (#"{"seed": 9007199254740993}"#, "session.seed"),
        (#"{"name": 5}"#, "session.name"),
        (#"{"clients": ["not-an-ip"]}"#, "session.clients[0]"),
        (#"{"clients": "127.0.0.1"}"#, "session.clients"),
        (#"{"colour": "red"}"#, "session.colour"),
    ])
    func badSessionBodiesAreRefusedNamingTheField(body: String, field: String) async throws {
        let stack = try await SessionStack.start()
        defer { stack.stop() }
        let refused = try await stack.admin("POST", "/sessions", body: body)
        #expect(refused.status == 400)
        #expect(refused.json["field"] as? String == field)
        #expect((try await stack.admin("GET", "/sessions").json["sessions"] as? [Any])?.isEmpty == true)
    }

    @Test func badRulesAreRefusedNamingTheField() async throws {
        let stack = try await SessionStack.start()
        defer { stack.stop() }
        let id = try await stack.createSession()
        let cases: [(String, String)] = [
            (#"{"name": "x", "faults": [{"status": {"code": 42}}]}"#, "rule.faults[0].status.code"),
            (#"{"name": "x", "upstream": "nowhere"}"#, "rule.upstream"),
            (#"{"match": {"path": "/x"}}"#, "rule.name"),
            (#"{"name": "x", "mtach": {}}"#, "rule.mtach"),
            (#"{"name": "x", "faults": [{"status": {"code": 503, "body_file": "/etc/passwd"}}]}"#, "rule.faults[0].status.body_file"),
        ]
        for (body, field) in cases {
            let refused = try await stack.admin("POST", "/sessions/\(id)/rules", body: body)
            #expect(refused.status == 400, "\(body)")
            #expect(refused.json["field"] as? String == field, "\(body): \(refused.json)")
        }
        #expect((try await stack.admin("GET", "/sessions/\(id)/rules").json["rules"] as? [Any])?.isEmpty == true)
    }

    @Test func aBodyFileInASessionRuleIsRefusedWithTheTrueReason() async throws {
        let stack = try await SessionStack.start()
        defer { stack.stop() }
        // The configuration came from a file, and this file sits beside it: still refused,
        // because session rules never name files.
        _ = try stack.directory.write("page.html", "<p>down</p>")
        let id = try await stack.createSession()
        let refused = try await stack.admin("POST", "/sessions/\(id)/rules",
                                            body: #"{"name": "x", "faults": [{"status": {"code": 503, "body_file": "page.html"}}]}"#)
        #expect(refused.status == 400)
        #expect(refused.json["error"] as? String == """
            rule.faults[0].status.body_file: cannot use "page.html": session rules take inline bodies only ("body"); \
            body_file is for the config file and the global rules of POST /rules
            """, "\(refused.json)")
        let inline = try await stack.admin("POST", "/sessions/\(id)/rules",
                                           body: #"{"name": "x", "faults": [{"status": {"code": 503, "body": "<p>down</p>"}}]}"#)
        #expect(inline.status == 201, "\(inline.json)")
    }

    @Test func rulesAreAddedShownReplacedAndRemoved() async throws {
        let stack = try await SessionStack.start()
        defer { stack.stop() }
        let id = try await stack.createSession()
        let added = try await stack.admin("POST", "/sessions/\(id)/rules",
                                          body: #"{"name": "slow", "match": {"path_prefix": "/users"}, "faults": [{"delay": 1}]}"#)
        #expect(added.status == 201)
        #expect(added.json["name"] as? String == "slow")
        #expect(added.json["upstream"] == nil)
        #expect((added.json["faults"] as? [[String: Any]])?.first?["kind"] as? String == "delay")
        let shown = try await stack.admin("GET", "/sessions/\(id)/rules/slow")
        #expect(shown.status == 200)
        let created = try await stack.admin("PUT", "/sessions/\(id)/rules/new", body: #"{"upstream": "demo"}"#)
        #expect(created.status == 201)
        #expect(created.json["upstream"] as? String == "demo")
        #expect(try await stack.admin("PUT", "/sessions/\(id)/rules/new", body: #"{"faults": [{"status": 500}]}"#).status == 200)
        let session = try await stack.admin("GET", "/sessions/\(id)")
        #expect((session.json["rules"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["new", "slow"])
        #expect(try await stack.admin("DELETE", "/sessions/\(id)/rules/new").status == 204)
        #expect(try await stack.admin("DELETE", "/sessions/\(id)/rules/new").status == 404)
        #expect(try await stack.admin("GET", "/sessions/\(id)/rules/new").status == 404)
        let listed = try await stack.admin("GET", "/sessions")
        #expect((listed.json["sessions"] as? [[String: Any]])?.first?["id"] as? String == id)
    }
}

/// `clients` is bounded, and a list within the bound is deduplicated (by canonical address) at once.
@Suite("Session clients bound", .timeLimit(.minutes(2)))
struct SessionClientsBoundTests {
    private static func body(_ addresses: [String]) -> String {
        #"{"clients": ["# + addresses.map { "\"\($0)\"" }.joined(separator: ", ") + "]}"
    }

    /// Distinct IPv4 addresses 10.1.x.y, `count` of them.
    private static func addresses(_ count: Int) -> [String] {
        (0..<count).map { "10.1.\($0 / 256).\($0 % 256)" }
    }

    @Test func aListPastTheBoundIsRefusedNamingTheLimit() async throws {
        let stack = try await SessionStack.start()
        defer { stack.stop() }
        let refused = try await stack.admin("POST", "/sessions", body: Self.body(Self.addresses(1025)))
        #expect(refused.status == 400)
        #expect(refused.json["field"] as? String == "session.clients")
        #expect(refused.json["error"] as? String == "session.clients: expected at most 1024 addresses, got 1025", "\(refused.json)")
        #expect((try await stack.admin("GET", "/sessions").json["sessions"] as? [Any])?.isEmpty == true)
    }

    @Test func aFullListWithDuplicatesListsEachClientOnce() async throws {
        let stack = try await SessionStack.start()
        defer { stack.stop() }
        // 1024 entries: 510 distinct IPv4 addresses twice each, then ::1 in four spellings.
        let distinct = Self.addresses(510)
        let loopback = ["::1", "0:0:0:0:0:0:0:1", "0::1", "::0:1"]
        let created = try await stack.admin("POST", "/sessions", body: Self.body(distinct + distinct + loopback))
        #expect(created.status == 201, "\(created.json)")
        let clients = created.json["clients"] as? [String] ?? []
        #expect(clients == distinct + ["::1"], "\(clients.count) clients")
        let id = created.json["id"] as? String ?? ""
        let shown = try await stack.admin("GET", "/sessions/\(id)")
        #expect((shown.json["clients"] as? [String])?.count == 511)
    }
}
