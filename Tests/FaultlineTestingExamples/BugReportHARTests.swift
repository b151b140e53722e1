import FaultlineTesting
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// A bug report came with a HAR from Charles: "the profile screen shows an error after the
/// API had a hiccup". The HAR has two 503s on `GET /users/7`, then a 200 two seconds later.
/// The test turns the HAR into a scenario with `faultline scenario from-har`, plays it in a
/// session, and checks that the app's retrying client now rides out the same hiccup.
@Suite(.timeLimit(.minutes(3)))
struct BugReportHARTests {
    /// The HAR attached to the report (trimmed to the four entries that matter; Charles
    /// wrote `[REDACTED]` for the token when it was exported).
    static let har = #"""
    {"log": {"version": "1.2", "creator": {"name": "Charles Proxy", "version": "4.6.6"}, "entries": [
      {"startedDateTime": "2026-11-30T09:12:01.000Z", "time": 41,
       "request": {"method": "GET", "url": "https://api.example.com/json", "httpVersion": "HTTP/1.1",
                   "headers": [], "queryString": [], "headersSize": -1, "bodySize": 0},
       "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1",
                    "headers": [{"name": "Content-Type", "value": "application/json"}],
                    "content": {"size": 2, "mimeType": "application/json", "text": "{}"},
                    "redirectURL": "", "headersSize": -1, "bodySize": 2},
       "cache": {}, "timings": {"send": 1, "wait": 39, "receive": 1}},
      {"startedDateTime": "2026-11-30T09:12:01.100Z", "time": 35,
       "request": {"method": "GET", "url": "https://api.example.com/users/7", "httpVersion": "HTTP/1.1",
                   "headers": [{"name": "Authorization", "value": "[REDACTED]"}], "queryString": [],
                   "headersSize": -1, "bodySize": 0},
       "response": {"status": 503, "statusText": "Service Unavailable", "httpVersion": "HTTP/1.1",
                    "headers": [{"name": "Content-Type", "value": "text/html"}, {"name": "Retry-After", "value": "1"}],
                    "content": {"size": 44, "mimeType": "text/html", "text": "<html><body>upstream overloaded</body></html>"},
                    "redirectURL": "", "headersSize": -1, "bodySize": 44},
       "cache": {}, "timings": {"send": 1, "wait": 33, "receive": 1}},
      {"startedDateTime": "2026-11-30T09:12:01.300Z", "time": 30,
       "request": {"method": "GET", "url": "https://api.example.com/users/7", "httpVersion": "HTTP/1.1",
                   "headers": [], "queryString": [], "headersSize": -1, "bodySize": 0},
       "response": {"status": 503, "statusText": "Service Unavailable", "httpVersion": "HTTP/1.1",
                    "headers": [{"name": "Content-Type", "value": "text/html"}, {"name": "Retry-After", "value": "1"}],
                    "content": {"size": 44, "mimeType": "text/html", "text": "<html><body>upstream overloaded</body></html>"},
                    "redirectURL": "", "headersSize": -1, "bodySize": 44},
       "cache": {}, "timings": {"send": 1, "wait": 28, "receive": 1}},
      {"startedDateTime": "2026-11-30T09:12:03.000Z", "time": 45,
       "request": {"method": "GET", "url": "https://api.example.com/users/7", "httpVersion": "HTTP/1.1",
                   "headers": [], "queryString": [], "headersSize": -1, "bodySize": 0},
       "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1",
                    "headers": [{"name": "Content-Type", "value": "application/json"}],
                    "content": {"size": 9, "mimeType": "application/json", "text": "{\"id\": 7}"},
                    "redirectURL": "", "headersSize": -1, "bodySize": 9},
       "cache": {}, "timings": {"send": 1, "wait": 43, "receive": 1}}
    ]}}
    """#

    @Test func theAppRidesOutTheOutageTheHARRecorded() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bug-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let harFile = directory.appendingPathComponent("profile-error.har")
        let scenarioFile = directory.appendingPathComponent("profile-error.json")
        try Data(Self.har.utf8).write(to: harFile)

        // What a developer runs once and commits beside the test.
        try await Faultline.runCommand(["scenario", "from-har", harFile.path, "--name", "profile-error", "-o", scenarioFile.path])
        // The HAR's outage lasted a second; on a busy test machine the app may take longer
        // to get there, so the outage phase is edited to end after the two failures it
        // recorded instead (the generated file is meant to be edited).
        try Self.endOutagePhasesByCount(scenarioFile)

        let faultline = try await SharedFaultline.launched.value
        try await faultline.session("the bug report's HAR") { session in
            try await session.scenario(contentsOf: scenarioFile)
            let outage = try await session.waitForPhase(1, of: "profile-error")
            #expect(outage.current?.requestsLeft == 2)

            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = 10
            session.configure(configuration)
            let client = RetryingClient(baseURL: faultline.proxyURL, session: URLSession(configuration: configuration))
            let profile = try await client.get("/users/7")

            #expect((try JSONSerialization.jsonObject(with: profile) as? [String: Any])?["id"] as? Int == 7)
            let attempts = try await session.waitForRequests(3, path: "/users/7")
            #expect(attempts.map(\.status) == [503, 503, 200])
            #expect(attempts.prefix(2).allSatisfy { $0.scenario?.phase == 1 })
            #expect(attempts.last?.scenario?.phase == 2)
        }
    }

    /// Replaces `for_ms` with `requests` on each phase named for its failures
    /// ("503 GET /users/7 (+1)": two requests).
    static func endOutagePhasesByCount(_ file: URL) throws {
        var scenario = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        var phases = try #require(scenario["phases"] as? [[String: Any]])
        for index in phases.indices where !(phases[index]["rules"] as? [Any] ?? []).isEmpty {
            let name = phases[index]["name"] as? String ?? ""
            let extra = name.range(of: #"\(\+(\d+)\)$"#, options: .regularExpression)
                .flatMap { Int(name[$0].dropFirst(2).dropLast()) } ?? 0
            phases[index]["for_ms"] = nil
            phases[index]["requests"] = 1 + extra
        }
        scenario["phases"] = phases
        try JSONSerialization.data(withJSONObject: scenario, options: [.prettyPrinted, .sortedKeys]).write(to: file)
    }
}
