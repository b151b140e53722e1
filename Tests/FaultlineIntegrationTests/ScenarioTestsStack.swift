import Foundation
import FaultlineTestSupport

/// Helpers of the scenario tests on top of `SessionStack`.
extension SessionStack {
    /// `GET {prefix}/scenarios/{name}` polled (async) until `done` holds; the last view.
    func waitForScenario(_ name: String, prefix: String = "", _ what: String, timeout: Duration = .seconds(20),
                         until done: ([String: Any]) -> Bool) async throws -> [String: Any] {
        let clock = ContinuousClock()
        let end = clock.now + timeout
        var last: [String: Any] = [:]
        while clock.now < end {
            let (status, json) = try await admin("GET", "\(prefix)/scenarios/\(name)")
            guard status == 200 else { throw TestFailure("GET \(prefix)/scenarios/\(name): \(status) \(json)") }
            last = json
            if done(json) { return json }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TestFailure("scenario \(name): \(what) did not happen; last view \(last)")
    }

    /// Defines `scenario` (JSON) at `prefix` (`""` or `/sessions/{id}`) and starts it.
    func startScenario(_ scenario: String, prefix: String = "") async throws -> [String: Any] {
        let defined = try await admin("POST", "\(prefix)/scenarios", body: scenario)
        guard defined.status == 201 || defined.status == 200, let name = defined.json["name"] as? String else {
            throw TestFailure("POST \(prefix)/scenarios: \(defined.status) \(defined.json)")
        }
        let started = try await admin("POST", "\(prefix)/scenarios/\(name)/start")
        guard started.status == 200 else { throw TestFailure("start \(name): \(started.status) \(started.json)") }
        return started.json
    }

    /// The statuses of requests to `path` made one after the other, each on its own connection.
    func statuses(_ path: String, count: Int, session: String? = nil) async throws -> [Int] {
        var statuses: [Int] = []
        for _ in 0..<count { statuses.append(try await request(path, session: session).status) }
        return statuses
    }

    /// Sends SIGHUP and waits for the reload's console line.
    func reload() async throws {
        let generation = try await admin("GET", "/health").json["config_generation"] as? Int ?? 0
        proxy.signal(SIGHUP)
        try await Deadline.poll("the reload", timeout: .seconds(15)) {
            proxy.output.text.contains("configuration reloaded (generation \(generation + 1))") ? () : nil
        }
    }
}

/// The current phase of a scenario view (`current.index`), nil when not running.
func currentPhase(_ view: [String: Any]) -> Int? {
    (view["current"] as? [String: Any])?["index"] as? Int
}

/// The scenario mark of a journal entry: name and phase index.
func scenarioMark(_ entry: [String: Any]) -> (name: String, phase: Int)? {
    guard let mark = entry["scenario"] as? [String: Any], let name = mark["name"] as? String, let phase = mark["phase"] as? Int else {
        return nil
    }
    return (name, phase)
}
