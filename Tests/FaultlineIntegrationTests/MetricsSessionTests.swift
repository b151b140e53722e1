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
}
