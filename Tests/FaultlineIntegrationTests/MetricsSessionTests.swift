import Foundation
import Testing
import FaultlineTestSupport

/// `GET /metrics` with sessions: live sessions are a gauge, and faults fired by session
/// rules are counted under `scope="session"` (summed over sessions by rule and fault name),
/// apart from the proxy's own rules.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct MetricsSessionTests {
    @Test func sessionsAndTheirFaultsAreCountedApartFromGlobalRules() async throws {
        let stack = try await SessionStack.start()
        defer { stack.stop() }
        let rule = #"{"name": "flaky", "match": {"path_prefix": "/json"}, "faults": [{"status": 503}]}"#
        let first = try await stack.createSession()
        let second = try await stack.createSession()
        try await stack.addRule(first, rule)
        try await stack.addRule(second, rule)
        #expect(try await stack.request("/json", session: first).status == 503)
        #expect(try await stack.request("/json", session: second).status == 503)
        #expect(try await stack.request("/json", session: second).status == 503)
        #expect(try await stack.request("/json").status == 200)
        #expect(try await stack.request("/users/1").status == 200)

        var scrape = try await MetricsScrape.read(adminPort: stack.adminPort)
        #expect(scrape.value("faultline_sessions_active") == 2)
        #expect(scrape.value("faultline_faults_fired_total", ["scope": "session", "route": "flaky", "fault": "status"]) == 3)
        #expect(scrape.value("faultline_faults_fired_total", ["scope": "global", "route": "users", "fault": "delay"]) == 1)
        #expect(scrape.value("faultline_requests_total", ["route": "flaky", "status": "503"]) == 3)

        let (status, _) = try await stack.admin("DELETE", "/sessions/\(first)")
        #expect(status == 204)
        scrape = try await MetricsScrape.read(adminPort: stack.adminPort)
        #expect(scrape.value("faultline_sessions_active") == 1)
        #expect(scrape.value("faultline_faults_fired_total", ["scope": "session", "route": "flaky", "fault": "status"]) == 2,
                "an ended session's counts leave with it; the live one's remain")
    }

    /// Rule JSON: `count` delay faults on a path nothing requests, added at the end.
    private static func wideRule(_ name: String, faults count: Int) -> String {
        let faults = Array(repeating: #"{"delay": 1}"#, count: count).joined(separator: ", ")
        return #"{"name": "\#(name)", "match": {"path": "/never"}, "position": "end", "faults": [\#(faults)]}"#
    }

    @Test func faultsPerRuleAndSessionFaultSeriesAreBounded() async throws {
        let stack = try await SessionStack.start()
        defer { stack.stop() }
        let first = try await stack.createSession()
        // 65 faults in one rule: refused for a session rule and for a global admin rule.
        let refused = try await stack.admin("POST", "/sessions/\(first)/rules", body: Self.wideRule("wide", faults: 65))
        #expect(refused.status == 400)
        #expect(refused.json["error"] as? String == "rule.faults: expected at most 64 faults per rule, got 65", "\(refused.json)")
        let global = try await stack.admin("POST", "/rules", body: Self.wideRule("wide", faults: 65)
            .replacingOccurrences(of: #""position": "end""#, with: #""upstream": "demo""#))
        #expect(global.status == 400)
        #expect(global.json["field"] as? String == "rule.faults", "\(global.json)")

        // 4 x 64 faults in the first session fill the 256 session series; a rule of the
        // second session comes after them, so its fault counts only as untracked.
        for index in 0..<4 {
            try await stack.addRule(first, Self.wideRule("wide\(index)", faults: 64))
        }
        let second = try await stack.createSession()
        try await stack.addRule(second, #"{"name": "late", "match": {"path_prefix": "/json"}, "faults": [{"status": 503}]}"#)
        #expect(try await stack.request("/json", session: second).status == 503)

        let scrape = try await MetricsScrape.read(adminPort: stack.adminPort)
        let sessionSeries = scrape.all("faultline_faults_fired_total").filter { $0.labels["scope"] == "session" }
        #expect(sessionSeries.count == 256)
        #expect(Set(sessionSeries.compactMap { $0.labels["route"] }) == ["wide0", "wide1", "wide2", "wide3"])
        #expect(scrape.value("faultline_faults_fired_untracked_total") == 1)
        #expect(scrape.value("faultline_faults_fired_total", ["scope": "global", "route": "users", "fault": "delay"]) == 0)

        // Once the first session ends, the second's rule has a series of its own.
        #expect(try await stack.admin("DELETE", "/sessions/\(first)").status == 204)
        let after = try await MetricsScrape.read(adminPort: stack.adminPort)
        #expect(after.value("faultline_faults_fired_total", ["scope": "session", "route": "late", "fault": "status"]) == 1)
        #expect(after.value("faultline_faults_fired_untracked_total") == 0)
    }
}
