import Foundation
import Testing
import FaultlineTestSupport

/// `faultline scenario start|status|stop` against a running proxy, globally and in a session.
@Suite("Scenario CLI", .timeLimit(.minutes(2)))
struct ScenarioCLITests {
    static let file = #"""
    {"name": "cli-outage", "phases": [
      {"name": "down", "requests": 2, "rules": [{"name": "down", "match": {"path": "/json"}, "faults": [{"status": 503}]}]},
      {"name": "up", "rules": []}]}
    """#

    @Test func startStatusAndStopGlobally() async throws {
        let stack = try await SessionStack.start()
        defer { stack.stop() }
        let path = try stack.directory.write("outage.json", Self.file)
        let admin = ["--admin", "http://127.0.0.1:\(stack.adminPort)"]
        let started = try await FaultlineProcess.command(["scenario", "start", path] + admin)
        #expect(started.status == 0, "\(started.output)")
        #expect(started.output.contains("started scenario cli-outage: running, phase 1/2 \"down\", 2 requests left"), "\(started.output)")
        #expect(try await stack.request("/json").status == 503)
        let status = try await FaultlineProcess.command(["scenario", "status"] + admin)
        #expect(status.output.contains("cli-outage: running, phase 1/2 \"down\", 1 request left"), "\(status.output)")
        let json = try await FaultlineProcess.command(["scenario", "status", "cli-outage", "--format", "json"] + admin)
        #expect(json.output.replacingOccurrences(of: " ", with: "").contains("\"requests_left\":1"), "\(json.output)")
        // Started again while running: the file is refused, with the admin API's reason.
        let again = try await FaultlineProcess.command(["scenario", "start", path] + admin)
        #expect(again.status == 1)
        #expect(again.output.contains("is running; stop it"), "\(again.output)")
        let stopped = try await FaultlineProcess.command(["scenario", "stop", "cli-outage"] + admin)
        #expect(stopped.status == 0)
        #expect(stopped.output.contains("stopped scenario cli-outage"))
        #expect(try await stack.request("/json").status == 200)
        let unknown = try await FaultlineProcess.command(["scenario", "stop", "nope"] + admin)
        #expect(unknown.status == 1)
        #expect(unknown.output.contains("no scenario \"nope\""))
        let usage = try await FaultlineProcess.command(["scenario", "start"] + admin)
        #expect(usage.status == 2)
    }

    @Test func aSessionsScenarioLeavesOtherTrafficAlone() async throws {
        let stack = try await SessionStack.start()
        defer { stack.stop() }
        let id = try await stack.createSession()
        let path = try stack.directory.write("outage.json", Self.file)
        let admin = ["--admin", "http://127.0.0.1:\(stack.adminPort)", "--session", id]
        let started = try await FaultlineProcess.command(["scenario", "start", path] + admin)
        #expect(started.status == 0, "\(started.output)")
        #expect(try await stack.request("/json").status == 200)
        #expect(try await stack.statuses("/json", count: 3, session: id) == [503, 503, 200])
        let status = try await FaultlineProcess.command(["scenario", "status"] + admin)
        #expect(status.output.contains("cli-outage: running, phase 2/2 \"up\", until stopped"), "\(status.output)")
        let global = try await FaultlineProcess.command(["scenario", "status", "--admin", "http://127.0.0.1:\(stack.adminPort)"])
        #expect(global.output.contains("no scenarios"))
    }
}
