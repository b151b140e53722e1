import Foundation
import Testing
import FaultlineTestSupport

/// The request journals: entries, filters, the bounded ring and its `dropped` count.
@Suite("Session journal", .timeLimit(.minutes(2)))
struct SessionJournalTests {
    @Test func entriesCarryTheExchangeWithTheQueryRedacted() async throws {
        let stack = try await SessionStack.start()
        defer { stack.stop() }
        let id = try await stack.createSession()
        try await stack.addRule(id, #"{"name": "down", "match": {"path": "/json"}, "faults": [{"status": 503, "when": {"first_n": 2}}]}"#)
        let statuses = try await stack.statusesOnOneConnection(["/json?q=ann&token=s3cr3t", "/json", "/json"], session: id)
        #expect(statuses == [503, 503, 200])
        let entries = try await stack.journal("/sessions/\(id)/requests").entries
        #expect(entries.count == 3)
        let first = try #require(entries.first)
        #expect(first["method"] as? String == "GET")
        #expect(first["path"] as? String == "/json")
        let query = try #require(first["query"] as? String)
        #expect(query.contains("q=ann"))
        #expect(!query.contains("s3cr3t"))
        #expect(query.contains("[REDACTED]"))
        #expect(entries[1]["query"] is NSNull)
        #expect(first["route"] as? String == "down")
        #expect(first["upstream"] as? String == "demo")
        #expect(first["protocol"] as? String == "1.1")
        #expect((first["faults"] as? [String])?.count == 1)
        #expect((entries[2]["faults"] as? [String])?.isEmpty == true)
        #expect(first["error"] is NSNull)
        #expect((first["time"] as? String)?.hasSuffix("Z") == true)
        // One keep-alive connection: requests count up on the same connection number.
        #expect(entries.map { $0["connection_request"] as? Int } == [1, 2, 3])
        #expect(Set(entries.compactMap { $0["connection"] as? Int }).count == 1)
        let starts = entries.compactMap { $0["start_ms"] as? Double }
        #expect(starts.count == 3 && starts == starts.sorted() && starts[0] >= 0)
        #expect(entries.allSatisfy { ($0["duration_ms"] as? Double ?? -1) >= 0 })
    }

    @Test func aRequestThatGotNoResponseHasANullStatusAndAnError() async throws {
        let stack = try await SessionStack.start()
        defer { stack.stop() }
        let id = try await stack.createSession()
        try await stack.addRule(id, #"{"name": "cut", "match": {"path": "/json"}, "faults": [{"reset": {}}]}"#)
        _ = try? await stack.request("/json", session: id)
        let entries = try await stack.journal("/sessions/\(id)/requests").entries
        #expect(entries.count == 1)
        #expect(entries.first?["status"] is NSNull)
        #expect(entries.first?["error"] is String)
        #expect(entries.first?["faults"] as? [String] == ["cut/reset"])
    }

    @Test func filtersSelectByRoutePathMethodStatusAndLimit() async throws {
        let stack = try await SessionStack.start()
        defer { stack.stop() }
        let id = try await stack.createSession()
        try await stack.addRule(id, #"{"name": "teapot", "match": {"path": "/users/2"}, "faults": [{"status": 418}]}"#)
        for path in ["/users/1", "/users/2", "/json", "/users/1"] { _ = try await stack.request(path, session: id) }
        _ = try await stack.request("/users/3", session: id, headers: ["Content-Type: text/plain"])
        let base = "/sessions/\(id)/requests"
        #expect(try await stack.journal(base).entries.count == 5)
        #expect(try await stack.journal(base + "?path=/users/1").entries.count == 2)
        #expect(try await stack.journal(base + "?path=/users/*").entries.count == 4)
        #expect(try await stack.journal(base + "?route=teapot").entries.count == 1)
        #expect(try await stack.journal(base + "?route=users").entries.count == 3)
        #expect(try await stack.journal(base + "?status=418").entries.first?["path"] as? String == "/users/2")
        #expect(try await stack.journal(base + "?method=GET&status=200").entries.count == 4)
        #expect(try await stack.journal(base + "?method=POST").entries.isEmpty)
        let newest = try await stack.journal(base + "?limit=2").entries
        #expect(newest.map { $0["path"] as? String } == ["/users/1", "/users/3"])
        #expect(newest.map { $0["seq"] as? Int } == [4, 5])
        let refused = try await stack.admin("GET", base + "?status=abc")
        #expect(refused.status == 400)
        #expect(refused.json["field"] as? String == "status")
        #expect(try await stack.admin("GET", base + "?colour=red").json["field"] as? String == "colour")
        #expect(try await stack.admin("GET", base + "?limit=0").status == 400)
    }

    @Test func boundedJournalsCountWhatTheyDrop() async throws {
        let stack = try await SessionStack.start(extra: ["sessions": ["journal_capacity": 3], "journal": ["capacity": 4]])
        defer { stack.stop() }
        let id = try await stack.createSession()
        for index in 1...5 { _ = try await stack.request("/json?n=\(index)", session: id) }
        _ = try await stack.request("/json?n=6")
        let session = try await stack.journal("/sessions/\(id)/requests")
        #expect(session.dropped == 2)
        #expect(session.entries.map { $0["seq"] as? Int } == [3, 4, 5])
        #expect(session.entries.map { $0["query"] as? String } == ["n=3", "n=4", "n=5"])
        let global = try await stack.journal("/requests")
        #expect(global.dropped == 2)
        #expect(global.entries.map { $0["query"] as? String } == ["n=3", "n=4", "n=5", "n=6"])
    }

    @Test func theLogRecordNamesTheSession() async throws {
        let stack = try await SessionStack.start(extra: ["log": ["format": "json", "destination": "file", "path": "traffic.log"]])
        defer { stack.stop() }
        let id = try await stack.createSession()
        _ = try await stack.request("/json?in=session", session: id)
        _ = try await stack.request("/json?in=unknown", session: "unknownunknown00")
        _ = try await stack.request("/json?in=none")
        let path = stack.directory.path("traffic.log")
        let deadline = ContinuousClock.now + .seconds(10)
        var lines: [[String: Any]] = []
        while lines.count < 3 {
            guard ContinuousClock.now < deadline else { throw TestFailure("3 exchange lines in \(path), got \(lines.count)") }
            try await Task.sleep(for: .milliseconds(50))
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            lines = try text.split(separator: "\n").map { try JSONObject.parse(Array($0.utf8)) }.filter { $0["kind"] as? String == "exchange" }
        }
        func line(_ query: String) -> [String: Any]? { lines.first { $0["url.query"] as? String == query } }
        #expect(line("in=session")?["faultline.session"] as? String == id)
        #expect(line("in=session")?["faultline.session_unknown"] == nil)
        #expect(line("in=unknown")?["faultline.session"] == nil)
        #expect(line("in=unknown")?["faultline.session_unknown"] as? Bool == true)
        #expect(line("in=none")?["faultline.session"] == nil && line("in=none")?["faultline.session_unknown"] == nil)
    }

    @Test func aGlobalJournalOfCapacityZeroIsOff() async throws {
        let stack = try await SessionStack.start(extra: ["journal": ["capacity": 0]])
        defer { stack.stop() }
        _ = try await stack.request("/json")
        let id = try await stack.createSession()
        _ = try await stack.request("/json", session: id)
        #expect(try await stack.journal("/requests").entries.isEmpty)
        #expect(try await stack.journal("/sessions/\(id)/requests").entries.count == 1)
    }
}
