import Foundation
import Testing
import FaultlineTestSupport

/// Scenarios through the real binary: timed and counted phases, loop, stop, sessions running
/// their own timelines, the config file and SIGHUP, /metrics, and refusals. No assertion is
/// on wall time: phase changes are waited for through `GET /scenarios`, and requests are
/// judged by the phase the journal says they met.
@Suite("Scenarios", .timeLimit(.minutes(3)))
struct ScenarioTests {
    /// 503, then 429 (each for `ms`), then nothing, on /users….
    static func outage(ms: Int) -> String {
        #"""
        {"name": "outage", "phases": [
          {"name": "down", "for_ms": \#(ms), "rules": [{"name": "down", "match": {"path_prefix": "/users"}, "faults": [{"status": 503}]}]},
          {"name": "throttled", "for_ms": \#(ms), "rules": [{"name": "slow", "match": {"path_prefix": "/users"}, "faults": [{"status": 429}]}]},
          {"name": "recovered", "rules": []}]}
        """#
    }

    @Test func aTimedSequenceGivesEachRequestItsPhasesOutcome() async throws {
        let stack = try await SessionStack.start()
        defer { stack.stop() }
        let started = try await stack.startScenario(Self.outage(ms: 800))
        #expect(started["state"] as? String == "running")
        // Requests at a steady pace until the timeline reaches its last phase.
        var seen: [Int] = []
        let clock = ContinuousClock()
        let end = clock.now + .seconds(30)
        while clock.now < end {
            seen.append(try await stack.request("/users/1").status)
            if currentPhase(try await stack.admin("GET", "/scenarios/outage").json) == 2 { break }
            try await Task.sleep(for: .milliseconds(30))
        }
        _ = try await stack.waitForScenario("outage", "phase 3") { currentPhase($0) == 2 }
        seen.append(try await stack.request("/users/1").status)
        #expect(seen.last == 200)
        // Each request got what its phase gives; phases only move forward.
        let entries = try await stack.journal("/requests").entries
        #expect(entries.count == seen.count)
        let expected = [0: 503, 1: 429, 2: 200]
        var previous = 0
        for entry in entries {
            let mark = try #require(scenarioMark(entry), "entry without a scenario mark: \(entry)")
            #expect(mark.name == "outage")
            #expect(entry["status"] as? Int == expected[mark.phase], "\(entry)")
            #expect(mark.phase >= previous)
            previous = mark.phase
        }
        // The phase changes are logged as lines of their own, in order.
        let text = stack.proxy.output.text
        let first = try #require(text.range(of: "scenario outage: phase 1/3 \"down\" began"))
        let second = try #require(text.range(of: "scenario outage: phase 2/3 \"throttled\" began"))
        let third = try #require(text.range(of: "scenario outage: phase 3/3 \"recovered\" began"))
        #expect(first.lowerBound < second.lowerBound && second.lowerBound < third.lowerBound)
    }

    @Test func aTimedPhaseEndsByItsTimerWithoutTraffic() async throws {
        let stack = try await SessionStack.start()
        defer { stack.stop() }
        _ = try await stack.startScenario(Self.outage(ms: 100))
        let view = try await stack.waitForScenario("outage", "the timers to reach phase 3") { currentPhase($0) == 2 }
        #expect((view["current"] as? [String: Any])?["ends_by"] as? String == "stopped")
        #expect(view["transitions"] as? Int == 3)
        #expect(try await stack.request("/users/1").status == 200)
    }

    @Test func aCountedPhaseEndsAfterTheRequestsItsRulesTook() async throws {
        let stack = try await SessionStack.start()
        defer { stack.stop() }
        let started = try await stack.startScenario(#"""
        {"name": "three", "phases": [
          {"requests": 3, "rules": [{"name": "users", "match": {"path_prefix": "/users"}, "faults": [{"status": 503}]}]},
          {"rules": []}]}
        """#)
        #expect((started["current"] as? [String: Any])?["requests_left"] as? Int == 3)
        #expect(try await stack.request("/users/1").status == 503)
        // A request the phase's rules do not take does not count.
        #expect(try await stack.request("/json").status == 200)
        let middle = try await stack.admin("GET", "/scenarios/three").json
        #expect((middle["current"] as? [String: Any])?["requests_left"] as? Int == 2)
        let rule = ((middle["current"] as? [String: Any])?["rules"] as? [[String: Any]])?.first
        #expect(rule?["name"] as? String == "users")
        #expect(((rule?["faults"] as? [[String: Any]])?.first?["stats"] as? [String: Any])?["fired"] as? Int == 1)
        // HTTP/2 requests meet the same phase and count alike.
        #expect(try await stack.request("/users/1", http2: true).status == 503)
        #expect(try await stack.statuses("/users/1", count: 3) == [503, 200, 200])
        let view = try await stack.admin("GET", "/scenarios/three").json
        #expect(currentPhase(view) == 1)
        let marks = try await stack.journal("/requests").entries.compactMap(scenarioMark).map(\.phase)
        #expect(marks == [0, 0, 0, 0, 1, 1])
    }

    @Test func aLoopComesBackToTheFirstPhase() async throws {
        let stack = try await SessionStack.start()
        defer { stack.stop() }
        _ = try await stack.startScenario(#"""
        {"name": "flap", "loop": true, "phases": [
          {"requests": 2, "rules": [{"name": "down", "match": {"path": "/json"}, "faults": [{"status": 503}]}]},
          {"requests": 1, "rules": [{"name": "limited", "match": {"path": "/json"}, "faults": [{"status": 429}]}]}]}
        """#)
        #expect(try await stack.statuses("/json", count: 7) == [503, 503, 429, 503, 503, 429, 503])
        let view = try await stack.admin("GET", "/scenarios/flap").json
        #expect((view["current"] as? [String: Any])?["cycle"] as? Int == 2)
        #expect(view["state"] as? String == "running")
    }

    @Test func stopTakesThePhaseOutOfEffectAndDeleteForgetsIt() async throws {
        let stack = try await SessionStack.start()
        defer { stack.stop() }
        _ = try await stack.startScenario(#"{"name": "down", "phases": [{"rules": [{"name": "all", "faults": [{"status": 503}]}]}]}"#)
        #expect(try await stack.request("/json").status == 503)
        let stopped = try await stack.admin("POST", "/scenarios/down/stop")
        #expect(stopped.status == 200)
        #expect(stopped.json["state"] as? String == "stopped")
        #expect(stopped.json["current"] is NSNull)
        #expect(try await stack.request("/json").status == 200)
        // Started again: from its first phase.
        #expect(try await stack.admin("POST", "/scenarios/down/start").status == 200)
        #expect(try await stack.request("/json").status == 503)
        let list = try await stack.admin("GET", "/scenarios").json["scenarios"] as? [[String: Any]]
        #expect(list?.map { $0["name"] as? String } == ["down"])
        #expect(try await stack.admin("DELETE", "/scenarios/down").status == 204)
        #expect(try await stack.request("/json").status == 200)
        #expect(try await stack.admin("GET", "/scenarios/down").status == 404)
        #expect(stack.proxy.output.text.contains("scenario down: stopped"))
    }

    @Test func twoSessionsRunTheirOwnTimelinesInParallel() async throws {
        let stack = try await SessionStack.start()
        defer { stack.stop() }
        let a = try await stack.createSession(#"{"name": "a"}"#)
        let b = try await stack.createSession(#"{"name": "b"}"#)
        _ = try await stack.startScenario(#"""
        {"name": "same-name", "phases": [
          {"requests": 2, "rules": [{"name": "r", "match": {"path_prefix": "/users"}, "faults": [{"status": 503}]}]},
          {"rules": []}]}
        """#, prefix: "/sessions/\(a)")
        _ = try await stack.startScenario(#"""
        {"name": "same-name", "loop": true, "phases": [
          {"requests": 1, "rules": [{"name": "r", "match": {"path_prefix": "/users"}, "faults": [{"status": 429}]}]},
          {"requests": 1, "rules": [{"name": "r", "match": {"path_prefix": "/users"}, "faults": [{"status": 418}]}]}]}
        """#, prefix: "/sessions/\(b)")
        let count = 20
        let paths = Array(repeating: "/users/1", count: count)
        async let statusesA = stack.statusesOnOneConnection(paths, session: a)
        async let statusesB = stack.statusesOnOneConnection(paths, session: b)
        async let statusesPlain = stack.statusesOnOneConnection(paths, session: nil)
        let (seenA, seenB, seenPlain) = try await (statusesA, statusesB, statusesPlain)
        #expect(seenA == [503, 503] + Array(repeating: 200, count: count - 2))
        #expect(seenB == (0..<count).map { $0 % 2 == 0 ? 429 : 418 })
        #expect(seenPlain == Array(repeating: 200, count: count))
        let global = try await stack.admin("GET", "/scenarios").json["scenarios"] as? [[String: Any]]
        #expect(global?.isEmpty == true)
        let journalA = try await stack.journal("/sessions/\(a)/requests").entries
        #expect(journalA.compactMap(scenarioMark).map(\.phase) == [0, 0] + Array(repeating: 1, count: count - 2))
        let plain = try await stack.journal("/requests").entries.filter { $0["session"] is NSNull }
        #expect(plain.count == count)
        #expect(plain.allSatisfy { $0["scenario"] is NSNull })
        // The session's scenarios end with it.
        #expect(try await stack.admin("DELETE", "/sessions/\(b)").status == 204)
        #expect(stack.proxy.output.text.contains("session \(b) scenario same-name: stopped"))
    }

    @Test func aReloadKeepsRunningTimelinesAndRestartsChangedFileScenarios() async throws {
        let fileScenario: [String: Any] = [
            "name": "file-outage", "start": true,
            "phases": [["requests": 3, "rules": [["name": "down", "match": ["path": "/json"], "faults": [["status": 503]]]]],
                       ["rules": [] as [Any]]],
        ]
        let stack = try await SessionStack.start(extra: ["scenarios": [fileScenario]])
        defer { stack.stop() }
        _ = try await stack.startScenario(#"""
        {"name": "admin-outage", "phases": [
          {"requests": 2, "rules": [{"name": "users", "match": {"path": "/users/1"}, "faults": [{"status": 429}]}]}, {"rules": []}]}
        """#)
        #expect(try await stack.request("/json").status == 503)
        #expect(try await stack.request("/users/1").status == 429)
        // An unrelated change to the file: both timelines carry on where they were.
        try stack.directory.write("faultline.json", SessionStack.config(
            originPort: stack.origin.port, routes: SessionStack.fileRoutes + [["name": "extra", "match": ["path": "/extra"], "upstream": "demo"]],
            extra: ["scenarios": [fileScenario]]))
        try await stack.reload()
        #expect(try await stack.statuses("/json", count: 3) == [503, 503, 200])
        #expect(try await stack.statuses("/users/1", count: 2) == [429, 200])
        // A changed definition in the file restarts that scenario at its first phase.
        var changed = fileScenario
        changed["phases"] = [["requests": 1, "rules": [["name": "down", "match": ["path": "/json"], "faults": [["status": 502]]]]],
                             ["rules": [] as [Any]]]
        try stack.directory.write("faultline.json", SessionStack.config(originPort: stack.origin.port, extra: ["scenarios": [changed]]))
        try await stack.reload()
        #expect(try await stack.statuses("/json", count: 2) == [502, 200])
        let list = try await stack.admin("GET", "/scenarios").json["scenarios"] as? [[String: Any]] ?? []
        #expect(list.map { $0["name"] as? String } == ["file-outage", "admin-outage"])
        #expect(list.map { $0["source"] as? String } == ["file", "admin"])
        // The file's scenarios are changed in the file.
        #expect(try await stack.admin("DELETE", "/scenarios/file-outage").status == 409)
        // A scenario the file no longer has is stopped and forgotten; the admin API's stays.
        try stack.directory.write("faultline.json", SessionStack.config(originPort: stack.origin.port))
        try await stack.reload()
        let after = try await stack.admin("GET", "/scenarios").json["scenarios"] as? [[String: Any]] ?? []
        #expect(after.map { $0["name"] as? String } == ["admin-outage"])
        // Stopped twice: replaced by the changed definition, then dropped with the file's key.
        #expect(stack.proxy.output.text.components(separatedBy: "scenario file-outage: stopped").count - 1 == 2)
    }

    @Test func metricsShowThePhaseAndTheTransitions() async throws {
        let stack = try await SessionStack.start()
        defer { stack.stop() }
        _ = try await stack.startScenario(#"""
        {"name": "m", "phases": [{"requests": 1, "rules": [{"name": "r", "match": {"path": "/json"}, "faults": [{"status": 503}]}]}, {"rules": []}]}
        """#)
        let session = try await stack.createSession()
        _ = try await stack.startScenario(#"{"name": "s", "phases": [{"rules": []}]}"#, prefix: "/sessions/\(session)")
        #expect(try await stack.request("/json").status == 503)
        let result = try await Curl.run(["-s", "http://127.0.0.1:\(stack.adminPort)/metrics"])
        let text = result.text
        #expect(text.contains("faultline_scenario_phase{scenario=\"m\"} 1\n"), "\(text)")
        #expect(text.contains("faultline_scenario_phase_transitions_total{scenario=\"m\"} 2\n"))
        #expect(text.contains("faultline_session_scenario_phase_transitions_total 1\n"))
        #expect(try await stack.admin("POST", "/scenarios/m/stop").status == 200)
        let after = try await Curl.run(["-s", "http://127.0.0.1:\(stack.adminPort)/metrics"]).text
        #expect(after.contains("faultline_scenario_phase{scenario=\"m\"} -1\n"))
    }

    @Test func invalidScenariosAreRefusedWithTheKey() async throws {
        let stack = try await SessionStack.start()
        defer { stack.stop() }
        let zero = try await stack.admin("POST", "/scenarios", body: #"{"name": "x", "phases": [{"for_ms": 0}]}"#)
        #expect(zero.status == 400)
        #expect((zero.json["error"] as? String)?.contains("scenario.phases[0].for_ms: expected an integer 1...86400000, got 0") == true,
                "\(zero.json)")
        let both = try await stack.admin("POST", "/scenarios", body: #"{"name": "x", "phases": [{"for_ms": 1, "requests": 1}]}"#)
        #expect(both.status == 400)
        #expect((both.json["error"] as? String)?.contains("at most one of for_ms and requests") == true)
        let upstream = try await stack.admin("POST", "/scenarios", body: #"{"name": "x", "phases": [{"rules": [{"name": "r", "upstream": "nope"}]}]}"#)
        #expect((upstream.json["error"] as? String)?.contains("scenario.phases[0].rules[0].upstream: unknown upstream \"nope\"") == true)
        let notJSON = try await stack.admin("POST", "/scenarios", body: "{")
        #expect(notJSON.status == 400)
        #expect(try await stack.admin("POST", "/scenarios/none/start").status == 404)
        // Defining a running one again is refused; a stopped one is replaced.
        _ = try await stack.startScenario(#"{"name": "x", "phases": [{"rules": []}]}"#)
        let again = try await stack.admin("POST", "/scenarios", body: #"{"name": "x", "phases": [{"rules": []}]}"#)
        #expect(again.status == 409)
        #expect(try await stack.admin("POST", "/scenarios/x/stop").status == 200)
        #expect(try await stack.admin("POST", "/scenarios", body: #"{"name": "x", "phases": [{"rules": []}]}"#).status == 200)
        // The admin API's content-type rule holds here too.
        let plain = try await Curl.run(["-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST", "--data-binary", "{}",
                                        "-H", "Content-Type: text/plain", "http://127.0.0.1:\(stack.adminPort)/scenarios"])
        #expect(plain.text == "415")
        #expect(try await stack.admin("PUT", "/scenarios").status == 405)
    }
}

/// Phase changes as log records of their own.
@Suite("Scenario log records", .timeLimit(.minutes(2)))
struct ScenarioLogTests {
    @Test func eachPhaseChangeIsARecordWithTheScenarioAndPhase() async throws {
        let stack = try await SessionStack.start(extra: ["log": ["format": "json", "destination": "file", "path": "traffic.jsonl"]])
        defer { stack.stop() }
        let session = try await stack.createSession()
        _ = try await stack.startScenario(#"""
        {"name": "logged", "phases": [{"name": "down", "requests": 1, "rules": [{"name": "r", "match": {"path": "/json"}, "faults": [{"status": 503}]}]},
                                     {"name": "up"}]}
        """#, prefix: "/sessions/\(session)")
        #expect(try await stack.request("/json", session: session).status == 503)
        let path = stack.directory.path + "/traffic.jsonl"
        let records = try await Deadline.poll("two scenario records", timeout: .seconds(10)) { () -> [[String: Any]]? in
            let found = LogFile.records(path).filter { $0["kind"] as? String == "scenario" }
            return found.count >= 2 ? found : nil
        }
        #expect(records.map { $0["faultline.scenario.phase_name"] as? String } == ["down", "up"])
        #expect(records.map { $0["faultline.scenario.phase"] as? String } == ["0", "1"])
        #expect(records.allSatisfy { $0["faultline.scenario"] as? String == "logged" && $0["faultline.session"] as? String == session })
        #expect((records.last?["faultline.message"] as? String)?.contains("scenario logged: phase 2/2 \"up\" began") == true)
    }
}
