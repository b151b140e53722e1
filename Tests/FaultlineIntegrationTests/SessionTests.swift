import Foundation
import Testing
import FaultlineTestSupport

/// Per-test sessions through the real binary: isolation, the header, client addresses,
/// expiry, ending, reloads and HTTP/2.
@Suite("Sessions", .timeLimit(.minutes(2)))
struct SessionTests {
    /// Session A: 503 for the first 3 requests to /users/1 (upstream of the global route).
    static let ruleA = #"{"name": "conflict", "match": {"path": "/users/1"}, "faults": [{"status": 503, "when": {"first_n": 3}}]}"#
    /// Session B, the same path and rule name: 429, pass, 429, then pass.
    static let ruleB = #"""
    {"name": "conflict", "match": {"path": "/users/1"}, "upstream": "demo",
     "faults": [{"status": {"code": 429}, "when": {"sequence": [429, "pass", 429]}}]}
    """#

    @Test func twoSessionsInParallelSeeOnlyTheirOwnFaultsCountersAndJournals() async throws {
        let stack = try await SessionStack.start()
        defer { stack.stop() }
        let a = try await stack.createSession(#"{"name": "a"}"#)
        let b = try await stack.createSession(#"{"name": "b"}"#)
        #expect(a != b)
        try await stack.addRule(a, Self.ruleA)
        try await stack.addRule(b, Self.ruleB)
        // Each client sends its requests one after the other on a keep-alive connection, the
        // three clients at once (two event loops), so session and plain requests interleave.
        let count = 40
        let paths = Array(repeating: "/users/1", count: count)
        async let statusesA = stack.statusesOnOneConnection(paths, session: a)
        async let statusesB = stack.statusesOnOneConnection(paths, session: b)
        async let statusesPlain = stack.statusesOnOneConnection(paths, session: nil)
        let (seenA, seenB, seenPlain) = try await (statusesA, statusesB, statusesPlain)
        #expect(seenA == [503, 503, 503] + Array(repeating: 200, count: count - 3))
        #expect(seenB == [429, 200, 429] + Array(repeating: 200, count: count - 3))
        #expect(seenPlain == Array(repeating: 200, count: count))

        let journalA = try await stack.journal("/sessions/\(a)/requests").entries
        #expect(journalA.count == count)
        #expect(journalA.allSatisfy { $0["session"] as? String == a && $0["route"] as? String == "conflict" })
        #expect(journalA.map { $0["status"] as? Int } == seenA.map { $0 })
        #expect(journalA.map { $0["seq"] as? Int } == (1...count).map { $0 })
        #expect(journalA.filter { !(($0["faults"] as? [String]) ?? []).isEmpty }.count == 3)
        #expect(journalA.map { $0["connection_request"] as? Int } == (1...count).map { $0 })
        let journalB = try await stack.journal("/sessions/\(b)/requests").entries
        #expect(journalB.count == count)
        #expect(journalB.allSatisfy { $0["session"] as? String == b })
        #expect(journalB.map { $0["status"] as? Int } == seenB.map { $0 })
        let global = try await stack.journal("/requests").entries
        #expect(global.count == 3 * count)
        let plain = global.filter { $0["session"] is NSNull }
        #expect(plain.count == count)
        #expect(plain.allSatisfy { $0["route"] as? String == "users" && $0["status"] as? Int == 200 })
        // Counters are per session: each session's rule shows only its own requests.
        let shownA = try await stack.admin("GET", "/sessions/\(a)")
        let stats = ((shownA.json["rules"] as? [[String: Any]])?.first?["faults"] as? [[String: Any]])?.first?["stats"] as? [String: Any]
        #expect(stats?["matched"] as? Int == count)
        #expect(stats?["fired"] as? Int == 3)
        #expect(shownA.json["requests"] as? Int == count)
    }

    @Test func theSessionHeaderNeverReachesTheOrigin() async throws {
        let stack = try await SessionStack.start()
        defer { stack.stop() }
        let id = try await stack.createSession()
        let known = try await stack.request("/headers", session: id)
        #expect(known.status == 200)
        #expect(!known.body.lowercased().contains("x-faultline-session"))
        #expect(!known.body.contains(id))
        let unknown = try await stack.request("/headers", session: "nosuchsession0000")
        #expect(unknown.status == 200)
        #expect(!unknown.body.lowercased().contains("x-faultline-session"))
        let http2 = try await stack.request("/headers", session: "nosuchsession0000", http2: true)
        #expect(http2.status == 200)
        #expect(!http2.body.lowercased().contains("x-faultline-session"))
    }

    @Test func anUnknownIdRunsAsAPlainRequestAndTheJournalSaysSo() async throws {
        let stack = try await SessionStack.start()
        defer { stack.stop() }
        let id = try await stack.createSession()
        try await stack.addRule(id, #"{"name": "down", "match": {"path": "/json"}, "faults": [{"status": 503}]}"#)
        #expect(try await stack.request("/json", session: "zzzzzzzzzzzzzzzzzzzz").status == 200)
        #expect(try await stack.request("/json", session: id).status == 503)
        let global = try await stack.journal("/requests").entries
        #expect(global.count == 2)
        #expect(global.first?["session_unknown"] as? Bool == true)
        #expect(global.first?["session"] is NSNull)
        #expect(global.last?["session_unknown"] as? Bool == false)
        #expect(global.last?["session"] as? String == id)
        #expect(try await stack.journal("/sessions/\(id)/requests").entries.count == 1)
    }

    @Test func sessionRulesComeFirstAndGlobalFaultsApplyOtherwise() async throws {
        let stack = try await SessionStack.start(routes: [
            ["name": "users", "match": ["path_prefix": "/users"], "upstream": "demo", "faults": [["status": 418]]],
            ["name": "all", "upstream": "demo"],
        ])
        defer { stack.stop() }
        let id = try await stack.createSession()
        try await stack.addRule(id, #"{"name": "mine", "match": {"path": "/users/1"}}"#)
        // The session's rule (no faults, the global route's upstream) wins over the global 418.
        #expect(try await stack.request("/users/1", session: id).status == 200)
        // No session rule matches: the global route applies, with its faults.
        #expect(try await stack.request("/users/2", session: id).status == 418)
        #expect(try await stack.request("/users/1").status == 418)
        let journal = try await stack.journal("/sessions/\(id)/requests").entries
        #expect(journal.map { $0["route"] as? String } == ["mine", "users"])
        #expect(journal.map { $0["upstream"] as? String } == ["demo", "demo"])
    }

    @Test func aClientAddressPutsRequestsWithoutTheHeaderInTheSession() async throws {
        let stack = try await SessionStack.start()
        defer { stack.stop() }
        let id = try await stack.createSession(#"{"name": "device", "clients": ["127.0.0.2"]}"#)
        try await stack.addRule(id, #"{"name": "down", "match": {"path": "/json"}, "faults": [{"status": 502}]}"#)
        #expect(try await stack.request("/json", interface: "127.0.0.2").status == 502)
        #expect(try await stack.request("/json").status == 200)
        // The header wins over the address: an unknown id is a plain request.
        #expect(try await stack.request("/json", session: "unknownunknown00", interface: "127.0.0.2").status == 200)
        let other = try await stack.admin("POST", "/sessions", body: #"{"clients": ["127.0.0.2"]}"#)
        #expect(other.status == 409)
        #expect((other.json["error"] as? String)?.contains("127.0.0.2") == true)
        let journal = try await stack.journal("/sessions/\(id)/requests").entries
        #expect(journal.count == 1)
        #expect(journal.first?["status"] as? Int == 502)
        #expect(try await stack.admin("DELETE", "/sessions/\(id)").status == 204)
        #expect(try await stack.request("/json", interface: "127.0.0.2").status == 200)
        #expect(try await stack.admin("POST", "/sessions", body: #"{"clients": ["127.0.0.2"]}"#).status == 201)
    }

    @Test func anIdleSessionExpires() async throws {
        let stack = try await SessionStack.start()
        defer { stack.stop() }
        let started = ContinuousClock.now
        let id = try await stack.createSession(#"{"ttl_s": 1}"#)
        // Listing does not renew a session (a request in it or a call on it does).
        let deadline = ContinuousClock.now + .seconds(15)
        while (try await stack.admin("GET", "/sessions").json["sessions"] as? [Any])?.isEmpty != true {
            guard ContinuousClock.now < deadline else { throw TestFailure("session \(id) did not expire within 15 s") }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(ContinuousClock.now - started >= .seconds(1))
        #expect(try await stack.request("/json", session: id).status == 200)
        #expect(try await stack.admin("GET", "/sessions/\(id)").status == 404)
        #expect(try await stack.journal("/requests").entries.last?["session_unknown"] as? Bool == true)
    }

    @Test func anEndedSessionIsGone() async throws {
        let stack = try await SessionStack.start()
        defer { stack.stop() }
        let id = try await stack.createSession(#"{"name": "checkout tests", "ttl_s": 30, "seed": 42}"#)
        let shown = try await stack.admin("GET", "/sessions/\(id)")
        #expect(shown.status == 200)
        #expect(shown.json["name"] as? String == "checkout tests")
        #expect(shown.json["ttl_s"] as? Int == 30)
        #expect(shown.json["seed"] as? Int == 42)
        #expect(shown.json["header"] as? String == "X-Faultline-Session")
        #expect(id.range(of: "^[a-z0-9]{16,32}$", options: .regularExpression) != nil)
        #expect(try await stack.admin("DELETE", "/sessions/\(id)").status == 204)
        let again = try await stack.admin("DELETE", "/sessions/\(id)")
        #expect(again.status == 404)
        #expect((again.json["error"] as? String)?.contains(id) == true)
        #expect(try await stack.admin("GET", "/sessions/\(id)").status == 404)
        #expect(try await stack.admin("POST", "/sessions/\(id)/rules", body: #"{"name": "x"}"#).status == 404)
        #expect(try await stack.admin("GET", "/sessions/\(id)/requests").status == 404)
    }

    @Test func aReloadKeepsSessionsAndTheirCounters() async throws {
        let stack = try await SessionStack.start()
        defer { stack.stop() }
        let id = try await stack.createSession()
        try await stack.addRule(id, #"""
        {"name": "flaky", "match": {"path": "/json"}, "upstream": "demo", "faults": [{"status": {"code": 503}, "when": {"sequence": [503, "pass", 503]}}]}
        """#)
        #expect(try await stack.request("/json", session: id).status == 503)
        let generation = try await stack.admin("GET", "/health").json["config_generation"] as? Int ?? 0
        stack.proxy.signal(SIGHUP)
        try await Deadline.poll("the reload", timeout: .seconds(10)) {
            stack.proxy.output.text.contains("configuration reloaded (generation \(generation + 1))") ? () : nil
        }
        #expect(try await stack.request("/json", session: id).status == 200)
        #expect(try await stack.request("/json", session: id).status == 503)
        #expect(try await stack.request("/json", session: id).status == 200)
        let shown = try await stack.admin("GET", "/sessions/\(id)")
        #expect((shown.json["rules"] as? [[String: Any]])?.count == 1)
        #expect((shown.json["stale"] as? [String]) == [])
    }

    @Test func aRuleWhoseUpstreamVanishesOnReloadIsStale() async throws {
        let stack = try await SessionStack.start(extra: ["upstreams": [
            "demo": ["url": "http://127.0.0.1:1"], "other": ["url": "http://127.0.0.1:1"],
        ]])
        defer { stack.stop() }
        // Both upstreams point at a closed port until the reload gives "demo" the real origin.
        let id = try await stack.createSession()
        try await stack.addRule(id, #"{"name": "elsewhere", "match": {"path": "/json"}, "upstream": "other", "faults": [{"status": 418}]}"#)
        #expect(try await stack.request("/json", session: id).status == 418)
        try stack.directory.write("faultline.json", SessionStack.config(originPort: stack.origin.port))
        let generation = try await stack.admin("GET", "/health").json["config_generation"] as? Int ?? 0
        stack.proxy.signal(SIGHUP)
        try await Deadline.poll("the reload", timeout: .seconds(10)) {
            stack.proxy.output.text.contains("configuration reloaded (generation \(generation + 1))") ? () : nil
        }
        let shown = try await stack.admin("GET", "/sessions/\(id)")
        #expect(shown.json["stale"] as? [String] == ["elsewhere"])
        #expect((shown.json["rules"] as? [[String: Any]])?.count == 1)
        // Skipped: the global routes take the request.
        #expect(try await stack.request("/json", session: id).status == 200)
    }

    @Test func resetRestartsCountersAndClearsTheJournal() async throws {
        let stack = try await SessionStack.start()
        defer { stack.stop() }
        let id = try await stack.createSession()
        try await stack.addRule(id, #"{"name": "once", "match": {"path": "/json"}, "faults": [{"status": 503, "when": {"first_n": 1}}]}"#)
        #expect(try await stack.request("/json", session: id).status == 503)
        #expect(try await stack.request("/json", session: id).status == 200)
        #expect(try await stack.admin("POST", "/sessions/\(id)/reset").status == 204)
        #expect(try await stack.journal("/sessions/\(id)/requests").entries.isEmpty)
        #expect(try await stack.request("/json", session: id).status == 503)
    }

    @Test func anHTTP2RequestRunsInItsSession() async throws {
        let stack = try await SessionStack.start()
        defer { stack.stop() }
        let id = try await stack.createSession()
        try await stack.addRule(id, #"{"name": "down", "match": {"path": "/json"}, "faults": [{"status": 503, "when": {"first_n": 1}}]}"#)
        #expect(try await stack.request("/json", session: id, http2: true).status == 503)
        #expect(try await stack.request("/json", session: id, http2: true).status == 200)
        #expect(try await stack.request("/json", http2: true).status == 200)
        let journal = try await stack.journal("/sessions/\(id)/requests").entries
        #expect(journal.map { $0["status"] as? Int } == [503, 200])
        #expect(journal.allSatisfy { $0["protocol"] as? String == "2" && $0["connection_request"] as? Int == 1 })
        // Streams of one connection (nghttp sends both on one) count up in stream order.
        let base = "http://127.0.0.1:\(stack.proxy.ports[1])"
        _ = try await Blocking.run {
            try Command.run(["nghttp", "-n", "--timeout=10", "-H", "x-faultline-session: \(id)", base + "/json?n=1", base + "/json?n=2"],
                            timeout: .seconds(20))
        }
        let both = try await stack.journal("/sessions/\(id)/requests?limit=2").entries
        #expect(both.map { $0["connection_request"] as? Int }.sorted { ($0 ?? 0) < ($1 ?? 0) } == [1, 2])
        #expect(Set(both.map { $0["query"] as? String }) == ["n=1", "n=2"])
        #expect(Set(both.compactMap { $0["connection"] as? Int }).count == 1)
    }
}
